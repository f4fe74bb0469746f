"""The work of a round of runs: which requested snippets can be reused and which must run
(``plan``), and the run function both schedulers are handed (``RunFunction``): run a snippet in
the executor (twice, side by side, to catch output that changes from run to run) and put what it
gave in the store."""

from __future__ import annotations

from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor, wait

from ..problems import cut
from .cache import FileHashes
from .environment import DEFAULT_TIMEOUT
from .executor import Executor
from .result import Request, SnippetResult, Stats
from .store import ResultStore

Todo = tuple[str, str, Request]  # (snippet name, its key, what the pages ask of it)


class RunFunction:
    """``run(name, key, request)``: the snippet's result, run now and stored."""

    def __init__(self, executor: Executor, store: ResultStore, check_determinism: bool) -> None:
        self.executor, self.store, self.check_determinism = executor, store, check_determinism

    def __call__(self, name: str, key: str, request: Request) -> SnippetResult:
        if self.executor.cancel.is_set():
            return SnippetResult(name, error="stopped before it ran (the build was interrupted)")
        result = self.checked(name, request)
        result.live = request.live
        if result.unrecorded is None:  # what it read is not all known: it runs again next build
            self.store.put(name, key, request, result)
        return result

    def checked(self, name: str, request: Request) -> SnippetResult:
        """Run the snippet; run it twice, side by side, to catch output that changes run to run."""
        run_one = self.executor.run_one
        if request.live or not self.check_determinism:
            return run_one(name, request)
        with ThreadPoolExecutor(max_workers=2) as pool:
            first, second = pool.map(lambda _: run_one(name, request), range(2))
        if first.error is None and second.error is None:
            differs = [what for what in ("stdout", "cells", "figures", "values") if getattr(first, what) != getattr(second, what)]
            if differs:
                first.error = (
                    f"nondeterministic: two runs of the same source gave different {' and '.join(differs)}"
                    + (f"\n--- run 1\n{cut(first.stdout, 1000)}\n--- run 2\n{cut(second.stdout, 1000)}\n" if "stdout" in differs else "")
                    + "\nSeed every random generator, or mark the run block `live` if it measures time."
                )
            if first.imported != second.imported:
                first.imported["(changed while it ran)"] = ""
            if first.error is None:
                first.runs = 2
        return first if first.error is not None or second.error is None else second


def plan(
    store: ResultStore, requests: dict[str, Request], hashes: FileHashes, looked_up: dict[str, tuple[str, SnippetResult | None]] | None = None
) -> tuple[dict[str, SnippetResult], Stats, list[Todo]]:
    """(results reused or failing before a run, their stats, what has to run). ``looked_up``: what
    an earlier lookup of this round found (``BuildScheduler.start_live``), by key."""
    looked_up = looked_up or {}
    stats, results, todo = Stats(), {}, []
    for name, request in sorted(requests.items()):
        source, problem = store.source(name)
        if problem is not None:
            results[name] = SnippetResult(name, error=problem, live=request.live)
            continue
        key = store.key(name, source)
        earlier = looked_up.get(name)
        reused = earlier[1] if earlier is not None and earlier[0] == key and not request.live else store.get(name, key, request, hashes)
        if reused is not None:
            results[name] = reused
            stats.cached.append(name)
        else:
            todo.append((name, key, request))
    return results, stats, todo


def wait_all(futures, stop) -> None:
    """Wait for every future; on Ctrl-C call ``stop`` (every snippet and its processes) first."""
    try:
        pending = set(futures)
        while pending:
            done, pending = wait(pending, timeout=0.5, return_when=FIRST_COMPLETED)
    except BaseException:
        stop()
        raise


def longest_first(todo: list[Todo], store: ResultStore) -> list[Todo]:
    """The runs in the order they start: the longest expected first, so that no long run starts
    last while the other cores have nothing left. Expected long: a run block that allows more
    than the default timeout (the longer, the earlier), then the longer the last stored run took,
    then by name."""
    return sorted(todo, key=lambda item: (-max((item[2].timeout or 0.0) - DEFAULT_TIMEOUT, 0.0), -store.last_seconds(item[0]), item[0]))
