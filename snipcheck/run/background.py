"""Running what a served site needs (``mkdocs serve``): the server never waits long on a snippet.

Reuse is the store's (a live result measured earlier in the session is reused while its inputs
are unchanged). A run that has not finished within ``serve_wait`` seconds goes on in the
background: the page shows it as running, and ``on_background_done`` is called when it ends (the
plugin then rebuilds, and the rebuild takes the result from the store). A snippet edited while
its old run goes on stops that run.
"""

from __future__ import annotations

import threading
from concurrent.futures import Future, ThreadPoolExecutor, wait

from .executor import Executor
from .jobs import RunFunction, plan
from .result import Request, SnippetResult, Stats
from .store import ResultStore


class ServeScheduler:
    def __init__(self, store: ResultStore, run: RunFunction, executor: Executor, jobs: int, serve_wait: float) -> None:
        self.store, self.run, self.executor, self.jobs = store, run, executor, jobs
        self.serve_wait = serve_wait
        self._lock = threading.Lock()
        self._pool: ThreadPoolExecutor | None = None
        self._background: dict[str, tuple[str, Future]] = {}  # name -> (key, running future)
        self._announce: set[str] = set()  # runs a page showed as still running
        self._unannounced: set[str] = set()
        self.on_background_done = None

    def start_live(self, requests: dict[str, Request]) -> None:
        """Nothing starts early: a served site's runs start when its pages ask for them."""

    def run_all(self, requests: dict[str, Request], *, wait_live: bool = True) -> tuple[dict[str, SnippetResult], Stats]:
        """Run (or reuse) every requested snippet, waiting at most ``serve_wait`` seconds; what is
        still running then comes back ``pending`` and goes on in the background."""
        results, stats, todo = plan(self.store, requests, self.store.hashes())
        if self._pool is None:
            self._pool = ThreadPoolExecutor(max_workers=self.jobs, thread_name_prefix="snipcheck-serve")
        started = []
        for name, key, request in todo:
            running = self._background.get(name)
            if running is not None and running[0] == key:
                future = running[1]
            else:
                if running is not None and not running[1].cancel():
                    self.executor.stop_runs(name)  # the source changed: its old run (a loop, say) is of no use
                future = self._pool.submit(self.run, name, key, request)
                future.add_done_callback(lambda f, n=name: self._background_done(n, f))
                self._background[name] = (key, future)
            started.append((name, future))
        if started:
            wait([f for _, f in started], timeout=self.serve_wait)
        for name, future in started:
            with self._lock:
                if not future.done():
                    self._announce.add(name)  # the page says "running": rebuild when it ends
            if future.done() and not future.cancelled():
                results[name] = future.result()
                stats.ran.append(name)
            else:
                results[name] = SnippetResult(name, pending=True)
                stats.pending.append(name)
        return results, stats

    def waiting(self, stats: Stats) -> set[str]:
        """None: a served page shows a pending run as running, and the rebuild checks it."""
        return set()

    def collect(self, names) -> tuple[dict[str, SnippetResult], Stats]:
        return {}, Stats()

    def _background_done(self, name: str, future: Future) -> None:
        with self._lock:
            current = self._background.get(name)
            if current is not None and current[1] is future:
                del self._background[name]
            announce = name in self._announce
            self._announce.discard(name)
            if announce and not future.cancelled() and current is not None:
                self.store.deliver(name, current[0], future.result())  # for the rebuild it triggers
        if announce and not future.cancelled():
            with self._lock:
                callback = self.on_background_done
                if callback is None:
                    self._unannounced.add(name)  # ended before anyone listened: see take_unannounced
            if callback is not None:
                callback(name)

    def take_unannounced(self) -> set[str]:
        """The background runs a page showed as running that ended while ``on_background_done``
        was not set yet (during the first build, before the server watches anything); each is
        handed out once."""
        with self._lock:
            names, self._unannounced = self._unannounced, set()
        return names

    def stop(self) -> None:
        """Stop every running snippet and everything it started (the server stopping)."""
        self.executor.stop()
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
