"""The cache: reused only while the snippet, the project modules it imported and the tools are unchanged.

Hostile cache: a result is reused only while every project file the run read is unchanged,
however it was read; a broken, unwritable or raced cache never crashes or serves a wrong result."""

from __future__ import annotations

import json
import os
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

from snipcheck.run.environment import DISTRIBUTIONS, installed_distributions

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
    todo = [
        (name, "key", Request(timeout=timeout))
        for name, timeout in [("a.py", None), ("broken.py", None), ("quick.py", None), ("slow.py", None), ("train.py", 180.0)]
    ]
    assert [name for name, _, _ in _longest_first(todo, cache)] == ["train.py", "slow.py", "quick.py", "a.py", "broken.py"]


READ_PAGE = '# P\n\n```python run="s.py"\n```\n\nValue {{ VALUE = value }}.\n'

# (how the snippet reads the project file data/input.txt or pkg/m.py, the file it reads)
READS = [
    ("value = int(open({root!r} + '/data/input.txt').read())\n", "data/input.txt"),
    ("import pathlib\nvalue = int(pathlib.Path({root!r}, 'data', 'input.txt').read_text())\n", "data/input.txt"),
    ("ns = {{}}\nexec(open({root!r} + '/pkg/m.py').read(), ns)\nvalue = ns['VALUE']\n", "pkg/m.py"),
    (
        "import importlib.util\nspec = importlib.util.spec_from_file_location('m', {root!r} + '/pkg/m.py')\n"
        "module = importlib.util.module_from_spec(spec)\nspec.loader.exec_module(module)\nvalue = module.VALUE\n",
        "pkg/m.py",
    ),
    ("import sys\nimport pkg.m\nvalue = pkg.m.VALUE\ndel sys.modules['pkg.m'], sys.modules['pkg']\n", "pkg/m.py"),
    ("import runpy\nvalue = runpy.run_path({root!r} + '/pkg/m.py')['VALUE']\n", "pkg/m.py"),
]


def _write_input(project, rel: str, value: int) -> None:
    project.module(rel, f"{value}\n" if rel.endswith(".txt") else f"VALUE = {value}\n")


@pytest.mark.hostile
@pytest.mark.parametrize(("code", "rel"), READS)
def test_a_result_is_reused_only_while_every_file_the_run_read_is_unchanged(project, code, rel):
    project.module("pkg/__init__.py", "")
    _write_input(project, rel, 1)
    project.snippet("s.py", code.format(root=str(project.root)))
    project.page("p.md", READ_PAGE.replace("VALUE", "1"))
    assert project.build().problems == []
    assert project.build().stats.ran == []  # warm: nothing changed
    _write_input(project, rel, 2)
    build = project.build()
    assert build.stats.ran == ["s.py"]
    assert [str(p) for p in build.problems] == ["docs/p.md:6: documented 1, computed value = 2 (snippets/s.py)"]


@pytest.mark.hostile
def test_a_folder_listing_is_an_input_too(project):
    project.module("data/a.txt", "")
    project.snippet("s.py", f"import os\nvalue = len(os.listdir({str(project.root / 'data')!r}))\n")
    project.page("p.md", READ_PAGE.replace("VALUE", "1"))
    assert project.build().problems == []
    project.module("data/b.txt", "")
    assert [str(p) for p in project.build().problems] == ["docs/p.md:6: documented 1, computed value = 2 (snippets/s.py)"]


@pytest.mark.hostile
def test_a_module_edited_with_the_same_size_and_time_is_not_served_stale(project):
    project.module("pkg/__init__.py", "")
    module = project.module("pkg/m.py", "VALUE = 1\n")
    project.snippet("s.py", "from pkg.m import VALUE as value\n")
    project.page("p.md", READ_PAGE.replace("VALUE", "1"))
    import py_compile

    py_compile.compile(str(module))  # a __pycache__ entry, as a test run or an editor would leave
    stat = module.stat()
    assert project.build().problems == []
    module.write_text("VALUE = 2\n")
    os.utime(module, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    assert [str(p) for p in project.build().problems] == ["docs/p.md:6: documented 1, computed value = 2 (snippets/s.py)"]


@pytest.mark.hostile
def test_a_file_edited_while_its_snippet_runs_is_not_cached_as_seen(project):
    import glob
    import tempfile
    import uuid

    data = project.module("data/input.txt", "1\n")
    marker = f"read-{uuid.uuid4().hex}"
    project.snippet(
        "s.py",
        f"""import os, time
value = int(open({str(data)!r}).read())
open({marker!r}, "w").close()
deadline = time.monotonic() + 30
while open({str(data)!r}).read().strip() == "1" and time.monotonic() < deadline:
    time.sleep(0.05)
os.remove({marker!r})
""",
    )
    project.page("p.md", READ_PAGE.replace("VALUE", "1"))

    def edit():
        deadline = time.monotonic() + 30
        while not glob.glob(os.path.join(tempfile.gettempdir(), "snipcheck-*", "work", marker)) and time.monotonic() < deadline:
            time.sleep(0.05)
        data.write_text("2\n")

    editor = threading.Thread(target=edit)
    editor.start()
    first = project.build()
    editor.join()
    assert first.problems == []  # the run read 1, and the file changed before it ended
    assert not (project.root / ".cache" / "snipcheck" / "s.py.json").exists()
    second = project.build()
    assert second.stats.ran == ["s.py"], "a result whose input changed during the run was cached"
    assert [str(p) for p in second.problems] == ["docs/p.md:6: documented 1, computed value = 2 (snippets/s.py)"]


@pytest.mark.hostile
@pytest.mark.parametrize(
    "entry",
    [
        "not json {",
        "",
        "[]",
        '{"schema": 3}',
        '{"schema": 3, "key": "KEY", "result": "text"}',
        '{"schema": 3, "key": "KEY", "result": {"name": "s.py", "stdout": 5, "imported": {}}}',
        '{"schema": 3, "key": "KEY", "result": {"name": "s.py", "values": {"value": 7}, "imported": []}}',
        '{"schema": 3, "key": "KEY", "result": {"name": "s.py", "unknown": 1, "imported": {}}}',
        '{"schema": 3, "key": "KEY", "result": {"name": "other.py", "values": {}, "imported": {}}}',
    ],
)
def test_a_corrupt_or_wrong_shaped_entry_reruns(project, entry):
    project.snippet("s.py", "value = 1\n")
    project.page("p.md", READ_PAGE.replace("VALUE", "1"))
    engine = project.engine()
    assert engine.build().problems == []
    path = project.root / ".cache" / "snipcheck" / "s.py.json"
    key = json.loads(path.read_text())["key"]
    path.write_text(entry.replace("KEY", key))
    build = project.engine().build()
    assert build.stats.ran == ["s.py"] and build.problems == []
    assert json.loads(path.read_text())["key"] == key  # rewritten whole


@pytest.mark.hostile
def test_an_unwritable_cache_folder_warns_once_and_runs_uncached(project, capsys):
    (project.root / ".cache").mkdir()
    (project.root / ".cache" / "snipcheck").write_text("a file where the folder should be")
    project.snippet("s.py", "value = 1\n")
    project.snippet("t.py", "value = 2\n")
    project.page("p.md", READ_PAGE.replace("VALUE", "1") + '\n```python run="t.py"\n```\n')
    assert project.build().problems == []
    err = capsys.readouterr().err
    assert err.count("cannot write the cache folder") == 1 and "running without a cache" in err
    assert sorted(project.build().stats.ran) == ["s.py", "t.py"]


@pytest.mark.hostile
def test_parallel_builds_on_one_tree_agree_and_leave_whole_entries(project):
    for i in range(4):
        project.snippet(f"s{i}.py", f"value = {i}\n")
    project.page("p.md", "".join(f'```python run="s{i}.py"\n```\n\nV {{{{ {i} = value }}}}.\n\n' for i in range(4)))
    with ThreadPoolExecutor(4) as pool:
        builds = list(pool.map(lambda _: project.engine(refresh=True).build(), range(4)))
    assert all(b.problems == [] for b in builds)
    folder = project.root / ".cache" / "snipcheck"
    assert sorted(p.name for p in folder.iterdir() if p.is_file()) == [DISTRIBUTIONS] + [f"s{i}.py.json" for i in range(4)]
    assert all(json.loads(p.read_text())["schema"] == 3 for p in folder.glob("*.json"))
    assert (folder / DISTRIBUTIONS).read_text().split("\n")[1:] == installed_distributions()


@pytest.mark.hostile
def test_stale_entries_and_temporary_files_of_a_killed_build_are_cleaned(project):
    project.snippet("s.py", "value = 1\n")
    project.page("p.md", READ_PAGE.replace("VALUE", "1"))
    folder = project.root / ".cache" / "snipcheck"
    folder.mkdir(parents=True)
    (folder / "gone.py.json").write_text("{}")
    old = folder / "s.py.json.tmp-1-2-3"
    old.write_text("half a JSON")
    os.utime(old, (time.time() - 7200, time.time() - 7200))
    fresh = folder / "s.py.json.tmp-4-5-6"
    fresh.write_text("a build writing right now")
    engine = project.engine()
    assert engine.build().problems == []
    engine.store.cache.clean({"s.py"})
    assert sorted(p.name for p in folder.iterdir() if p.is_file()) == [DISTRIBUTIONS, "s.py.json", "s.py.json.tmp-4-5-6"]


@pytest.mark.hostile
def test_the_runners_own_code_is_in_the_fingerprint(monkeypatch):
    import snipcheck.run.environment as runner

    before = runner.environment_fingerprint()
    assert "_bootstrap.py" in runner._OWN_FILES and "executor.py" in runner._OWN_FILES
    real = runner.Path.read_text

    def edited(self, *args, **kwargs):
        text = real(self, *args, **kwargs)
        return text + "\n# edited" if self.name == "_bootstrap.py" else text

    monkeypatch.setattr(runner.Path, "read_text", edited)
    assert runner.environment_fingerprint() != before


@pytest.mark.hostile
def test_a_live_snippet_runs_in_every_build_and_nothing_else_does(project):
    project.snippet("clock.py", "import time\nnow = time.perf_counter()\n")
    project.snippet("s.py", "value = 1\n")
    project.page("p.md", READ_PAGE.replace("VALUE", "1") + '\n```python run="clock.py" live\n```\n')
    first = project.build()
    second = project.build()
    assert sorted(first.stats.ran) == ["clock.py", "s.py"] and second.stats.ran == ["clock.py"]
    assert first.results["clock.py"].values["now"] != second.results["clock.py"].values["now"]


# -- what cannot be recorded is not cached --------------------------------------------------------


@pytest.mark.hostile
@pytest.mark.parametrize(
    ("code", "why"),
    [
        (
            "import subprocess\nvalue = int(subprocess.run(['cat', 'data.txt'], capture_output=True).stdout)\n",
            "it starts a process (subprocess.Popen)",
        ),
        ("import os\nos.system('true')\nvalue = int(open('data.txt').read())\n", "it starts a process (os.system)"),
        (
            "import multiprocessing\nwith multiprocessing.get_context('fork').Pool(1) as pool:\n"
            "    value = pool.apply(int, (open('data.txt').read(),))\n",
            "it starts a process (os.fork)",
        ),
        (
            "import os\nfd = os.open('.', os.O_RDONLY)\nvalue = int(os.read(os.open('data.txt', os.O_RDONLY, dir_fd=fd), 10))\n",
            "it opens a file relative to a folder (dir_fd=)",
        ),
        (
            "import os\nfor top, dirs, files, fd in os.fwalk('.'):\n    pass\nvalue = int(open('data.txt').read())\n",
            "it walks a folder with os.fwalk",
        ),
    ],
)
def test_a_run_whose_reads_cannot_be_recorded_is_run_every_build_and_says_so(project, capsys, code, why):
    from snipcheck.cli import main

    project.module("data.txt", "1\n")
    project.page("p.md", '```python run="s.py"\n```\n\nIt is {{ 1 = value }}.\n')
    project.snippet("s.py", f"import os\nos.chdir({str(project.root)!r})\n{code}")
    assert main(["check", "--root", str(project.root)]) == 0
    err = capsys.readouterr().err
    assert f"snipcheck: snippets/s.py is run every build, never cached: {why}" in err, err
    project.module("data.txt", "2\n")
    assert main(["check", "--root", str(project.root)]) == 1
    err = capsys.readouterr().err
    assert "1 snippets run, 0 from cache" in err and "docs/p.md:4: documented 1, computed value = 2 (snippets/s.py)" in err, err


@pytest.mark.hostile
def test_a_run_that_starts_no_process_is_cached_as_before(project, capsys):
    from snipcheck.cli import main

    project.page("p.md", '```python run="s.py"\n```\n\nIt is {{ 1 = value }}.\n')
    project.snippet("s.py", "value = 1\n")
    assert main(["check", "--root", str(project.root)]) == 0
    assert main(["check", "--root", str(project.root)]) == 0
    err = capsys.readouterr().err
    assert "0 snippets run, 1 from cache" in err and "never cached" not in err


@pytest.mark.hostile
def test_a_process_a_library_starts_for_itself_keeps_the_run_cached(project, capsys):
    from snipcheck.cli import main

    pytest.importorskip("matplotlib")
    project.page("p.md", '```python run="s.py"\n```\n\n![A line](line.svg)\n\nIt is {{ 1 = value }}.\n')
    project.snippet("s.py", "import matplotlib.pyplot as plt\nplt.plot([0, 1])\nplt.savefig('line.svg')\nvalue = 1\n")
    main(["check", "--root", str(project.root)])  # matplotlib runs fc-list for its fresh font cache
    assert "never cached" not in capsys.readouterr().err
    main(["check", "--root", str(project.root)])
    assert "0 snippets run, 1 from cache" in capsys.readouterr().err
