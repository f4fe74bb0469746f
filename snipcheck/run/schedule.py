"""Running what a build needs (``mkdocs build``, ``python -m snipcheck check``): every snippet
the pages request, reused from the store or run now, in parallel, the longest first.

Live snippets (run blocks marked ``live``) are never reused: a build shows what it measured
itself. A build may start them early (``start_live``), ask ``run_all`` not to wait for them
(``wait_live=False``: they come back ``pending`` and ``waiting``) and ``collect`` them when it
needs them, so a measurement runs beside the rest of the build instead of before it. A
measurement never runs beside the build's other snippets (it would measure them too).
"""

from __future__ import annotations

import threading
from concurrent.futures import Future, ThreadPoolExecutor

from .executor import Executor
from .jobs import RunFunction, Todo, longest_first, plan, wait_all
from .result import Request, SnippetResult, Stats
from .store import ResultStore


class BuildScheduler:
    def __init__(self, store: ResultStore, run: RunFunction, executor: Executor, jobs: int) -> None:
        self.store, self.run, self.executor, self.jobs = store, run, executor, jobs
        self._lock = threading.Lock()
        self._started: dict[str, tuple[str, Future]] = {}  # live runs started, not yet collected
        self._looked_up: dict[str, tuple[str, SnippetResult | None]] = {}  # start_live's cache lookups
        self._hashes = None
        self._live_pool: ThreadPoolExecutor | None = None
        self.on_background_done = None  # never called: nothing runs on after a build

    def start_live(self, requests: dict[str, Request]) -> None:
        """Start the live snippets among ``requests`` now, in the background, for a later
        ``run_all`` to pick up (it starts a snippet again only if its source changed) — only when
        every other requested snippet comes from the store. What the lookups found is kept for
        ``run_all``."""
        self._hashes = hashes = self.store.hashes()
        live, ready = [], True
        for name, request in sorted(requests.items()):
            source, problem = self.store.source(name)
            if problem is not None:
                continue
            key = self.store.key(name, source)
            if request.live:
                live.append((name, key, request))
            else:
                reused = self.store.get(name, key, request, hashes)
                self._looked_up[name] = (key, reused)
                ready &= reused is not None
        if ready:
            for name, key, request in live:
                self._start(name, key, request)

    def _start(self, name: str, key: str, request: Request) -> Future:
        with self._lock:
            started = self._started.get(name)
            if started is not None and started[0] == key and not started[1].cancelled():
                return started[1]
            if started is not None:
                started[1].cancel()
            if self._live_pool is None:
                self._live_pool = ThreadPoolExecutor(max_workers=self.jobs, thread_name_prefix="snipcheck-live")
            future = self._live_pool.submit(self.run, name, key, request)
            self._started[name] = (key, future)
            return future

    def run_all(self, requests: dict[str, Request], *, wait_live: bool = True) -> tuple[dict[str, SnippetResult], Stats]:
        """Run (or reuse) every requested snippet. ``wait_live=False``: live snippets run in the
        background and come back ``pending``; ``collect`` waits for them."""
        hashes = self._hashes or self.store.hashes()
        looked_up, self._looked_up, self._hashes = self._looked_up, {}, None
        results, stats, todo = plan(self.store, requests, hashes, looked_up)
        # The other snippets first: a measurement runs only once they are done (see start_live).
        self._run_now([item for item in todo if not item[2].live], results, stats)
        started = {self._start(name, key, request): name for name, key, request in todo if request.live}
        if wait_live:
            more, more_stats = self.collect(started.values())
            results.update(more)
            stats.ran += more_stats.ran
        else:
            for name in started.values():
                results[name] = SnippetResult(name, pending=True, live=True)
                stats.pending.append(name)
        return results, stats

    def waiting(self, stats: Stats) -> set[str]:
        """The pending runs of a round that ``collect`` will wait for: all of them."""
        return set(stats.pending)

    def take_unannounced(self) -> set[str]:
        """None: a build waits for every run it starts."""
        return set()

    def collect(self, names) -> tuple[dict[str, SnippetResult], Stats]:
        """Wait for the live runs ``names`` that ``run_all(wait_live=False)`` left running."""
        with self._lock:
            futures = {self._started.pop(name)[1]: name for name in sorted(names) if name in self._started}
        results, stats = {}, Stats()
        wait_all(futures, self.stop)
        for future, name in futures.items():
            results[name] = future.result()
            stats.ran.append(name)
        return results, stats

    def _run_now(self, todo: list[Todo], results, stats) -> None:
        if not todo:
            return
        pool = ThreadPoolExecutor(max_workers=self.jobs, thread_name_prefix="snipcheck")
        futures = {pool.submit(self.run, name, key, request): name for name, key, request in longest_first(todo, self.store)}
        try:
            wait_all(futures, self.stop)
        except BaseException:
            pool.shutdown(wait=True, cancel_futures=True)
            raise
        pool.shutdown(wait=True)
        for future, name in futures.items():
            results[name] = future.result()
            stats.ran.append(name)

    def stop(self) -> None:
        """Stop every running snippet and everything it started (Ctrl-C)."""
        self.executor.stop()
        if self._live_pool is not None:
            self._live_pool.shutdown(wait=False, cancel_futures=True)
