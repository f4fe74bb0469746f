"""What a build says once besides its problems: each guarantee the kernel did not give the
sandbox (a warning each), and each run never cached, with why."""

from __future__ import annotations

import pytest

from snipcheck.report.notes import build_notes, never_cached, not_enforced


@pytest.mark.hostile
@pytest.mark.parametrize(
    ("note", "warnings"),
    [
        (None, []),
        ("landlock abi 7", []),
        (
            "landlock abi 7; not enforced: network namespace (Operation not permitted: UDP reaches the network)",
            ["sandbox: not enforced: network namespace (Operation not permitted: UDP reaches the network)"],
        ),
        (
            "landlock abi 4; not enforced: network namespace (EPERM); private /proc (EPERM: other processes' entries are visible)",
            [
                "sandbox: not enforced: network namespace (EPERM)",
                "sandbox: not enforced: private /proc (EPERM: other processes' entries are visible)",
            ],
        ),
        (
            "python-only: this kernel has no Landlock, so only Python-level writes are refused",
            [
                "sandbox: python-only: this kernel has no Landlock, so only Python-level writes are refused (writes outside a "
                "snippet's folders are refused only when made from Python; TCP and signals are not fenced)"
            ],
        ),
    ],
)
def test_each_guarantee_not_enforced_is_one_warning(note, warnings):
    assert not_enforced(note) == warnings


@pytest.mark.hostile
def test_a_run_never_cached_is_named_once_with_why_and_a_live_one_is_not(project):
    project.page("p.md", '```python run="s.py"\n```\n\n```python run="t.py" live\n```\n\n```python run="u.py"\n```\n\nIt is {{ 1 = value }}.\n')
    project.snippet("s.py", "import time\nt = time.time()\n")
    project.snippet("t.py", "import time\nt = time.perf_counter()\n")
    project.snippet("u.py", "value = 1\n")
    engine = project.engine()
    build = engine.build()
    assert never_cached(engine, build) == [
        "snippets/s.py is run every build, never cached: its output may depend on the clock (time.time() at snippets/s.py:2)"
    ]
    notes = build_notes(engine, build)
    assert notes[0] == (
        "info",
        "3 snippets run, 0 from cache; 1 numbers checked, 0 quoted, 0 problems; each snippet ran once (SNIPCHECK_TWICE=true: twice, compared)",
    )
    assert ("info", never_cached(engine, build)[0]) in notes
    assert all(level == "warning" for level, line in notes if line.startswith("sandbox:"))
