"""The cache: reused only while the snippet, the project modules it imported and the tools are unchanged."""

from __future__ import annotations

import pytest

PAGE = """# P

```python run="uses_a.py"
```

```python run="uses_b.py"
```

```python run="plain.py"
```
"""


@pytest.fixture
def two_module_project(project):
    project.page("p.md", PAGE)
    project.module("pkg/__init__.py", "")
    project.module("pkg/a.py", "A = 1\n")
    project.module("pkg/b.py", "B = 2\n")
    project.snippet("uses_a.py", "from pkg.a import A\nvalue = A\n")
    project.snippet("uses_b.py", "from pkg.b import B\nvalue = B\n")
    project.snippet("plain.py", "value = 3\n")
    return project


def test_a_warm_rebuild_runs_no_snippet(two_module_project):
    first = two_module_project.build()
    assert sorted(first.stats.ran) == ["plain.py", "uses_a.py", "uses_b.py"] and first.stats.cached == []
    second = two_module_project.build()
    assert second.stats.ran == [] and sorted(second.stats.cached) == ["plain.py", "uses_a.py", "uses_b.py"]
    assert second.results["uses_a.py"].imported.keys() == {"pkg/__init__.py", "pkg/a.py", "snippets/uses_a.py"}


def test_editing_an_imported_module_reruns_exactly_its_importers(two_module_project):
    two_module_project.build()
    two_module_project.module("pkg/a.py", "A = 10\n")
    build = two_module_project.build()
    assert build.stats.ran == ["uses_a.py"]
    assert build.results["uses_a.py"].values["value"]["data"] == 10


def test_editing_a_snippet_reruns_only_it(two_module_project):
    two_module_project.build()
    two_module_project.snippet("plain.py", "value = 4\n")
    assert two_module_project.build().stats.ran == ["plain.py"]


def test_refresh_runs_everything(two_module_project, monkeypatch):
    two_module_project.build()
    assert len(two_module_project.build(refresh=True).stats.ran) == 3
    monkeypatch.setenv("SNIPCHECK_REFRESH", "1")
    assert len(two_module_project.build().stats.ran) == 3


def test_a_failure_is_never_cached(project):
    project.page("p.md", '```python run="bad.py"\n```\n')
    project.snippet("bad.py", "raise ValueError('no')\n")
    project.build()
    assert project.build().stats.ran == ["bad.py"]


def test_a_new_tool_version_invalidates_everything(two_module_project, monkeypatch):
    two_module_project.build()
    import snipcheck.run.environment as runner

    monkeypatch.setattr(runner, "RUNNER_VERSION", "changed")
    assert len(two_module_project.build().stats.ran) == 3


def test_a_result_run_once_is_run_again_by_a_build_that_compares_two_runs(two_module_project):
    once = two_module_project.build(check_determinism=False)
    assert all(r.runs == 1 for r in once.results.values())
    assert len(two_module_project.build(check_determinism=False).stats.cached) == 3
    twice = two_module_project.build(check_determinism=True)
    assert sorted(twice.stats.ran) == ["plain.py", "uses_a.py", "uses_b.py"] and twice.stats.cached == []
    assert all(r.runs == 2 for r in twice.results.values())
    # What two runs agreed on serves either kind of build.
    assert len(two_module_project.build(check_determinism=True).stats.cached) == 3
    assert len(two_module_project.build(check_determinism=False).stats.cached) == 3


def test_one_engine_rebuilding_reuses_results_only_while_what_they_read_is_unchanged(two_module_project):
    """Under mkdocs serve one engine builds again and again: it keeps the last result of each
    snippet in memory instead of reading its cache entry back, under the same test as the cache."""
    engine = two_module_project.engine(serving=True)
    assert sorted(engine.build().stats.ran) == ["plain.py", "uses_a.py", "uses_b.py"]
    again = engine.build()
    assert again.stats.ran == [] and len(again.stats.cached) == 3
    two_module_project.module("pkg/a.py", "A = 10\n")
    edited = engine.build()
    assert edited.stats.ran == ["uses_a.py"] and edited.results["uses_a.py"].values["value"]["data"] == 10
    two_module_project.snippet("plain.py", "value = 4\n")
    assert engine.build().stats.ran == ["plain.py"]
    entries = list((two_module_project.root / ".cache" / "snipcheck").glob("*.json"))
    assert len(entries) == 3
    for entry in entries:
        entry.unlink()  # what the engine holds in memory is reused without reading the cache
    assert engine.build().stats.ran == []


def test_the_longest_expected_runs_start_first(tmp_path):
    """A run block that declares a timeout starts first, then the longer a snippet's last stored
    run took (whatever its key: it only orders), then by name."""
    from snipcheck.run.cache import Cache
    from snipcheck.run.jobs import longest_first as _longest_first
    from snipcheck.run.result import Request, SnippetResult

    cache = Cache(tmp_path, warn=lambda message: None)
    cache.store("slow.py", "an old key", SnippetResult("slow.py", seconds=9.0))
    cache.store("quick.py", "an old key", SnippetResult("quick.py", seconds=0.5))
    (tmp_path / "broken.py.json").write_text("{not json", encoding="utf-8")
    todo = [(name, "key", Request(timeout=timeout)) for name, timeout in
            [("a.py", None), ("broken.py", None), ("quick.py", None), ("slow.py", None), ("train.py", 180.0)]]
    assert [name for name, _, _ in _longest_first(todo, cache)] == ["train.py", "slow.py", "quick.py", "a.py", "broken.py"]
