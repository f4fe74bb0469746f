"""The engine end to end on tiny projects: every kind of drift and failure, named by file:line."""

from __future__ import annotations

import pytest

from snipcheck.report.page import render
from snipcheck.report.stage import figures
from snipcheck.report.verification import verification_page

PASSING = """# Page

```python run="one.py"
```

```output
weights: [0.248 0.752]
```

The first weight is {{ 0.248 = w[0] }} and there are {{ 2 = n }}.
"""

ONE = """
w = [0.2482, 0.7518]
n = 2
print("weights: [" + " ".join(f"{x:.3f}" for x in w) + "]")
"""


def test_a_matching_page_passes(project):
    project.page("p.md", PASSING)
    project.snippet("one.py", ONE)
    build = project.build()
    assert build.problems == []
    assert [(c.line, c.documented, c.computed, c.ok) for c in build.checks] == [
        (7, "0.248", "0.248", True),
        (7, "0.752", "0.752", True),
        (10, "0.248", "0.2482", True),
        (10, "2", "2", True),
    ]


def test_a_drift_in_an_output_block_names_file_line_documented_and_computed(project):
    project.page("p.md", PASSING.replace("[0.248 0.752]", "[0.250 0.752]"))
    project.snippet("one.py", ONE)
    assert project.problems() == ["docs/p.md:7: documented 0.250, computed 0.248 (snippets/one.py)"]


def test_a_drift_in_prose_names_file_line(project):
    project.page("p.md", PASSING.replace("{{ 0.248 = w[0] }}", "{{ 0.26 = w[0] }}"))
    project.snippet("one.py", ONE)
    assert project.problems() == ["docs/p.md:10: documented 0.26, computed w[0] = 0.2482 (snippets/one.py)"]


def test_every_drift_is_listed_in_one_run(project):
    project.page("p.md", PASSING.replace("[0.248 0.752]", "[0.3 0.7]").replace("{{ 2 = n }}", "{{ 3 = n }}"))
    project.page("q.md", PASSING.replace("{{ 0.248 = w[0] }}", "{{ 0.3 = w[0] }}"))
    project.snippet("one.py", ONE)
    assert project.problems() == [
        "docs/p.md:7: documented 0.3, computed 0.248 (snippets/one.py)",
        "docs/p.md:7: documented 0.7, computed 0.752 (snippets/one.py)",
        "docs/p.md:10: documented 3, computed n = 2 (snippets/one.py)",
        "docs/q.md:10: documented 0.3, computed w[0] = 0.2482 (snippets/one.py)",
    ]


def test_a_tied_list_is_checked_number_by_number(project):
    project.page("p.md", '```python run="one.py"\n```\n\n```output\nweights: [0.248 0.752]\n```\n\nAll: {{ [0.248, 0.76] = w }}.\n')
    project.snippet("one.py", ONE)
    [problem] = project.problems()
    assert problem.startswith("docs/p.md:8: documented [0.248, 0.76], computed w = [0.2482, 0.7518] (0.76 vs 0.7518)")


def test_a_tie_to_an_unknown_name_or_index_fails(project):
    project.page("p.md", PASSING.replace("{{ 2 = n }}", "{{ 2 = m }} {{ 1 = w[5] }}"))
    project.snippet("one.py", ONE)
    problems = project.problems()
    assert "docs/p.md:10: the snippet defines no number or array named 'm'" in problems[0]
    assert problems[1].startswith("docs/p.md:10: cannot take w[5]")


def test_a_tie_to_a_shape(project):
    project.page("p.md", '```python run="s.py"\n```\n\nShape {{ (4, 8) = x.shape }}, rows {{ 4 = x.shape[0] }}.\n')
    project.snippet("s.py", "import numpy as np\nx = np.zeros((4, 8))\n")
    assert project.problems() == []


def test_a_snippet_that_raises_shows_its_own_file_and_line(project):
    project.page("p.md", '# P\n\n```python run="bad.py"\n```\n')
    project.snippet("bad.py", "x = 1\ny = x / 0\n")
    [problem] = project.problems()
    assert problem.startswith("docs/p.md:3: snippets/bad.py failed:\n")
    assert 'File "snippets/bad.py", line 2, in <module>' in problem
    assert "ZeroDivisionError: division by zero" in problem


def test_a_snippet_that_hangs_is_stopped_at_its_timeout(project):
    project.page("p.md", '```python run="slow.py" timeout=1\n```\n')
    project.snippet("slow.py", "import time\ntime.sleep(30)\n")
    assert project.problems() == ["docs/p.md:1: snippets/slow.py failed:\n    timed out after 1 s (raise it with timeout=SECONDS on the run block)"]


def test_a_missing_snippet_fails(project):
    project.page("p.md", '```python run="gone.py"\n```\n')
    assert project.problems() == ["docs/p.md:1: snippets/gone.py failed:\n    snippet file snippets/gone.py does not exist"]


def test_output_the_page_never_documents_fails(project):
    project.page("p.md", '```python run="one.py"\n```\n\nprose\n')
    project.snippet("one.py", ONE)
    [problem] = project.problems()
    assert problem.startswith("docs/p.md:1: the snippet prints output that the page never documents")


def test_an_output_block_with_no_snippet_fails(project):
    project.page("p.md", "# P\n\n```output\n1\n```\n")
    assert project.problems() == ["docs/p.md:3: output block does not follow a run block (it documents no snippet)"]


def test_a_snippet_no_page_runs_fails(project):
    project.page("p.md", "# P\n")
    project.snippet("orphan.py", "x = 1\n")
    project.snippet("_helper.py", "x = 1\n")
    assert project.problems() == ["snippets/orphan.py:1: no page runs this snippet"]


def test_nondeterministic_output_is_detected(project):
    project.page("p.md", '```python run="rand.py"\n```\n\n```output\n0.5\n```\n')
    project.snippet("rand.py", "import os\nprint(int.from_bytes(os.urandom(4), 'big'))\n")
    [problem] = project.problems(check_determinism=True)
    assert "nondeterministic: two runs of the same source gave different stdout" in problem


def test_a_live_run_is_shown_but_not_compared(project):
    project.page("p.md", '```python run="clock.py" live\n```\n')
    project.snippet("clock.py", "import time\nprint(time.perf_counter())\n")
    build = project.build(check_determinism=True)
    assert build.problems == []
    assert "Output, measured when this page was built" in render(build, "p.md")


FIGURE = """
import matplotlib.pyplot as plt
fig, ax = plt.subplots()
ax.plot([0, 1], [0, 1])
fig.savefig("line.svg")
"""


def test_figures_are_drawn_deterministically_and_need_alt_text(project):
    project.page("p.md", '```python run="fig.py"\n```\n\n![](figures/fig/line.svg)\n\n![A line](figures/fig/other.svg)\n')
    project.snippet("fig.py", FIGURE)
    build = project.build(check_determinism=True)
    assert [str(p) for p in build.problems] == [
        "docs/p.md:4: figure figures/fig/line.svg has no alt text: describe what it shows",
        "docs/p.md:6: figure figures/fig/other.svg was not drawn by any snippet this build ran",
    ]
    svg = figures(build)["figures/fig/line.svg"]
    assert svg.startswith(b"<?xml") and b"<dc:date>" not in svg


def test_a_figure_no_page_shows_fails(project):
    project.page("p.md", '```python run="fig.py"\n```\n')
    project.snippet("fig.py", FIGURE)
    assert project.problems() == ["snippets/fig.py:1: draws line.svg, but no page shows figures/fig/line.svg"]


def test_html_in_output_stays_text(project):
    project.page("p.md", '```python run="h.py"\n```\n\n```output\n<script>alert(1)</script>\n```\n')
    project.snippet("h.py", "print('<script>alert(1)</script>')\n")
    build = project.build()
    assert build.problems == []
    rendered = render(build, "p.md")
    assert "```" in rendered.split("<script>")[0]  # inside a fenced block, which Markdown escapes


def test_rendering_includes_the_code_and_links_ties_to_the_verification_page(project):
    project.page("p.md", PASSING)
    project.snippet("one.py", ONE)
    build = project.build()
    rendered = render(build, "p.md")
    assert 'title="snippets/one.py"' in rendered and "w = [0.2482, 0.7518]" in rendered
    assert "[0.248](verification.md#check-p-10-1 " in rendered and "{ #tie-10-1 .checked-number }" in rendered
    assert "[2](verification.md#check-p-10-2 " in rendered
    assert "run=" not in rendered and "{{" not in rendered
    assert '<span id="check-p-10-1"></span><a href="../p/#tie-10-1">10</a>' in verification_page(build)
    assert '<span id="check-p-10-1"></span><a href="p.html#tie-10-1">10</a>' in verification_page(build, use_directory_urls=False)


@pytest.mark.parametrize(("documented", "ok"), [("True", True), ("False", False)])
def test_a_tie_to_a_boolean(project, documented, ok):
    project.page("p.md", f'```python run="b.py"\n```\n\nSame: {{{{ {documented} = same }}}}.\n')
    project.snippet("b.py", "import numpy as np\nsame = bool(np.allclose([1.0], [1.0]))\n")
    problems = project.problems()
    assert problems == ([] if ok else ["docs/p.md:4: documented False, computed same = True (snippets/b.py)"])


def test_a_tied_number_may_use_thousands_separators(project):
    project.page("p.md", '```python run="c.py"\n```\n\nWe drew {{ 20,000 = pairs }} pairs, not {{ 20,001 = pairs }}.\n')
    project.snippet("c.py", "pairs = 20000\n")
    assert project.problems() == ["docs/p.md:4: documented 20,001, computed pairs = 20000 (snippets/c.py)"]


def test_check_reads_a_snippet_edited_at_once_to_the_same_size(project, monkeypatch):
    """Within one tick of the file system's clock an edit to the same size leaves the file's stat
    as it was (made certain here: the file's stat is frozen); a file that recent is read again."""
    import os
    from pathlib import Path

    project.page("p.md", PASSING)
    path = project.snippet("one.py", ONE)
    engine = project.engine()
    build = engine.build()
    assert "0.2482" in build.sources["one.py"]
    stat, frozen = os.stat, os.stat(path)
    monkeypatch.setattr(os, "stat", lambda p, *a, **k: frozen if Path(p) == path else stat(p, *a, **k))
    for digit in "3456789":
        path.write_text(ONE.replace("0.2482", f"0.248{digit}"), encoding="utf-8")
        assert f"0.248{digit}" in engine.check(build.docs, build.results).sources["one.py"]


@pytest.fixture
def clock_ahead(monkeypatch):
    """The engine's clock ten seconds ahead: every file on disk looks settled, so the engine keeps
    what it read (a file changed in the last two seconds it reads every time)."""
    import time
    from types import SimpleNamespace

    monkeypatch.setattr("snipcheck.engine.time", SimpleNamespace(time_ns=lambda: time.time_ns() + 10_000_000_000))


def _counting(monkeypatch, method: str) -> list[str]:
    """Every call of ``pathlib.Path.<method>`` from now on, by the file's name."""
    import pathlib

    calls, original = [], getattr(pathlib.Path, method)

    def counted(self, *args, **kwargs):
        calls.append(self.name)
        return original(self, *args, **kwargs)

    monkeypatch.setattr(pathlib.Path, method, counted)
    return calls


def _tick() -> None:
    """Longer than one tick of the file system's clock (a jiffy: 10 ms at most)."""
    import time

    time.sleep(0.05)


def test_check_keeps_a_settled_snippet_and_reads_it_again_after_any_edit(project, monkeypatch, clock_ahead):
    import os

    project.page("p.md", PASSING)
    path = project.snippet("one.py", ONE)
    engine = project.engine()
    build = engine.build()
    reads = _counting(monkeypatch, "read_text")
    engine.check(build.docs, build.results)
    engine.recheck(build, {"p.md": PASSING})
    assert reads.count("one.py") == 0  # read by the build, kept while unchanged
    _tick()
    stat = path.stat()
    path.write_text(ONE.replace("0.2482", "0.2484"), encoding="utf-8")
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns))  # the same size and modification time
    assert "0.2484" in engine.check(build.docs, build.results).sources["one.py"]
    _tick()
    new = path.with_name("new.tmp")
    new.write_text(ONE.replace("0.2482", "0.2485"), encoding="utf-8")
    os.utime(new, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    os.replace(new, path)  # another file in its place
    assert "0.2485" in engine.recheck(build, {"p.md": PASSING}).sources["one.py"]
    path.unlink()
    assert "one.py" not in engine.check(build.docs, build.results).sources


def test_check_sees_snippets_added_to_or_removed_from_the_folder(project, monkeypatch, clock_ahead):
    project.page("p.md", "# P\n")
    engine = project.engine()
    build = engine.build()
    listings = _counting(monkeypatch, "glob")
    assert engine.check(build.docs, build.results).problems == []
    assert engine.check(build.docs, build.results).problems == []
    assert listings == []  # listed by the build, kept while the folder is unchanged
    _tick()
    orphan = project.snippet("orphan.py", "x = 1\n")
    assert [str(p) for p in engine.check(build.docs, build.results).problems] == ["snippets/orphan.py:1: no page runs this snippet"]
    _tick()
    orphan.rename(orphan.with_name("orphan.txt"))
    assert engine.check(build.docs, build.results).problems == []
    _tick()
    orphan.with_name("orphan.txt").rename(orphan)
    assert len(engine.check(build.docs, build.results).problems) == 1
    orphan.unlink()
    (project.root / "snippets").rmdir()
    assert engine.check(build.docs, build.results).problems == []


def test_a_page_is_read_once_per_build_and_again_when_its_text_changes(project):
    project.snippet("one.py", ONE)
    engine = project.engine()
    engine.start_live({"p.md": PASSING})
    first = engine.parse({"p.md": PASSING})["p.md"]
    assert engine.build({"p.md": PASSING}).docs["p.md"] is first  # read by start_live, not again
    edited = PASSING.replace("{{ 2 = n }}", "{{ 3 = n }}")
    build = engine.build({"p.md": edited})
    assert build.docs["p.md"] is not first and build.docs["p.md"].text == edited
    assert [p.line for p in build.problems] == [10]
