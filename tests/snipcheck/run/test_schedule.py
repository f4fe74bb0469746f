"""Live snippets (timings) run beside the rest of a build: started early when nothing else has to
run, collected when a page needs them, checked before anything is written."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from snipcheck.report.stage import stage

LIVE_PAGE = """\
# Timing

```python run="clock.py" live
```

It took {{ 0..1000 ~ ms }} ms.

![Time per call](figures/clock/clock.svg)
"""
CLOCK = """
import time

import matplotlib.pyplot as plt

start = time.perf_counter()
ms = 1000 * (time.perf_counter() - start)
print(f"{ms:.3f} ms")
fig, ax = plt.subplots()
ax.bar([0], [ms])
fig.savefig("clock.svg")
"""


@pytest.fixture
def live_project(project):
    project.page("t.md", LIVE_PAGE)
    project.page("p.md", '# P\n\n```python run="s.py"\n```\n\nIt is {{ 2 = x }}.\n')
    project.snippet("clock.py", CLOCK)
    project.snippet("s.py", "x = 2\n")
    return project


def test_a_build_that_does_not_wait_leaves_the_live_snippet_running_and_finish_checks_it(live_project):
    engine = live_project.engine()
    build = engine.build(wait_live=False)
    assert build.waiting == {"clock.py"} and not build.complete
    assert build.needs("t.md") and not build.needs("p.md")
    assert build.problems == [] and build.results["clock.py"].pending
    staged = stage(build)
    assert staged.placeholders == {"figures/clock/clock.svg"}  # the page links to it already
    assert b"still running" in staged.files["figures/clock/clock.svg"]
    assert "t.md" in staged.notebooks  # a live run the build waits for counts as clean
    done = engine.finish(build)
    assert done.complete and done.problems == [] and "clock.py" in done.stats.ran and "s.py" in done.stats.ran
    assert [c.what for c in done.checks if c.measured] == ["ms"]
    assert stage(done).files["figures/clock/clock.svg"].startswith(b"<?xml")


def test_a_live_snippet_that_fails_is_a_problem_when_the_build_finishes(live_project):
    live_project.snippet("clock.py", "raise RuntimeError('no clock')\n")
    engine = live_project.engine()
    build = engine.build(wait_live=False)
    assert build.problems == []
    problems = [str(p) for p in engine.finish(build).problems]
    assert any(p.startswith("docs/t.md:3: snippets/clock.py failed:") and "no clock" in p for p in problems)


def test_a_measurement_starts_early_only_when_every_other_snippet_is_cached(live_project):
    engine = live_project.engine()
    engine.start_live()
    assert engine.scheduler._started == {}  # s.py has to run: the measurement waits for it
    assert engine.build().problems == []
    engine = live_project.engine()
    engine.start_live()
    assert set(engine.scheduler._started) == {"clock.py"}
    build = engine.build(wait_live=False)
    assert build.stats.cached == ["s.py"] and build.waiting == {"clock.py"}
    assert engine.scheduler._started["clock.py"][1] is not None
    done = engine.finish(build)
    assert done.stats.ran == ["clock.py"] and done.problems == []


def test_an_edit_between_the_early_start_and_the_build_runs_the_new_source(live_project):
    live_project.engine().build()
    engine = live_project.engine()
    engine.start_live()
    live_project.snippet("clock.py", CLOCK.replace('print(f"{ms:.3f} ms")', 'print(f"{ms:.3f} ms (edited)")'))
    done = engine.finish(engine.build(wait_live=False))
    assert "(edited)" in done.results["clock.py"].stdout


def _mkdocs_build(root):
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    return subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-d", str(root / "out")], cwd=root, env=env, capture_output=True, text=True, timeout=300
    )


def test_mkdocs_build_collects_the_measurement_and_ships_its_figure(live_project, mkdocs_yml):
    (live_project.root / "mkdocs.yml").write_text(mkdocs_yml(nav=("t.md", "p.md", "verification.md")), encoding="utf-8")
    for _ in range(2):  # cold (the measurement after the other snippets), then warm (started early)
        run = _mkdocs_build(live_project.root)
        assert run.returncode == 0, run.stderr
        svg = (live_project.root / "out" / "figures" / "clock" / "clock.svg").read_bytes()
        assert svg.startswith(b"<?xml") and b"still running" not in svg
        html = (live_project.root / "out" / "t" / "index.html").read_text(encoding="utf-8")
        assert '<span class="live-number" data-search-exclude>' in html and "still being measured" not in html
        verification = (live_project.root / "out" / "verification" / "index.html").read_text(encoding="utf-8")
        assert "0..1000" in verification and "still running" not in verification
    assert "snipcheck: 1 snippets run, 1 from cache; 2 numbers checked" in run.stderr


def test_mkdocs_build_fails_on_a_measurement_out_of_its_range_and_writes_no_page(live_project, mkdocs_yml):
    (live_project.root / "mkdocs.yml").write_text(mkdocs_yml(nav=("t.md", "p.md", "verification.md")), encoding="utf-8")
    live_project.page("t.md", LIVE_PAGE.replace("0..1000", "5000..6000"))
    run = _mkdocs_build(live_project.root)
    assert run.returncode != 0
    assert "docs/t.md:6: documented 5000..6000, measured" in run.stderr
    assert not list((live_project.root / "out").rglob("*.html")) if (live_project.root / "out").exists() else True
