"""The snippet's interpreter: a run whose output may depend on the clock or on randomness nobody
seeded is never cached (every build runs it again, twice, side by side) and the check says which
call, at which file:line; a seeded generator, a library's own timing and a live measurement keep
the run as it was."""

from __future__ import annotations

import pytest

PAGE = '```python run="s.py"\n```\n\nIt is {{ 1 = value }}.\n'

# (the snippet, the call the check names, at line 2 of the snippet unless the call says otherwise)
UNSTEADY = [
    ("import time\nt = time.time()\n", "the clock (time.time() at snippets/s.py:2)"),
    ("import time\nt = time.perf_counter()\n", "the clock (time.perf_counter() at snippets/s.py:2)"),
    ("import time\nt = time.monotonic_ns()\n", "the clock (time.monotonic_ns() at snippets/s.py:2)"),
    ("import datetime\nt = datetime.datetime.now()\n", "the clock (datetime.datetime.now() at snippets/s.py:2)"),
    ("from datetime import date\nt = date.today()\n", "the clock (datetime.date.today() at snippets/s.py:2)"),
    ("import numpy as np\nr = np.random.default_rng()\n", "unseeded randomness (numpy.random.default_rng() at snippets/s.py:2)"),
    ("import numpy as np\nr = np.random.default_rng(seed=None)\n", "unseeded randomness (numpy.random.default_rng() at snippets/s.py:2)"),
    ("import numpy as np\nv = np.random.rand(3)\n", "unseeded randomness (numpy.random.rand() at snippets/s.py:2)"),
    ("import random\nv = random.random()\n", "unseeded randomness (random.random() at snippets/s.py:2)"),
    ("from random import choice\nv = choice([1, 2])\n", "unseeded randomness (random.choice() at snippets/s.py:2)"),
    ("import os\nv = os.urandom(4)\n", "unseeded randomness (os.urandom() at snippets/s.py:2)"),
    ("import uuid\nv = uuid.uuid4()\n", "unseeded randomness (uuid.uuid4() at snippets/s.py:2)"),
    ("import helper\nt = helper.stamp()\n", "the clock (time.time() at helper.py:5)"),
]

STEADY = [
    "import numpy as np\nr = np.random.default_rng(0)\nv = r.normal()\n",
    "import numpy as np\nnp.random.seed(1)\nv = np.random.rand(3)\n",
    "import random\nrandom.seed(3)\nv = random.random()\n",
    "import random\nv = random.Random(3).random()\n",
    "import datetime\nv = datetime.datetime(2020, 1, 1) + datetime.timedelta(days=1)\nassert isinstance(v, datetime.datetime)\n",
    "import datetime, pickle\nv = pickle.loads(pickle.dumps(datetime.date(2020, 1, 1))).year\n",
]


def _check(project, capsys) -> tuple[int, str]:
    from snipcheck.cli import main

    code = main(["check", "--root", str(project.root)])
    return code, capsys.readouterr().err


@pytest.mark.hostile
@pytest.mark.parametrize(("code", "why"), UNSTEADY)
def test_a_run_on_the_clock_or_unseeded_randomness_is_never_cached_and_says_which_call(project, capsys, code, why):
    project.module("helper.py", "import time\n\n\ndef stamp():\n    return time.time()\n")
    project.page("p.md", PAGE)
    project.snippet("s.py", code + "value = 1\n")
    code, err = _check(project, capsys)
    assert code == 0, err
    assert f"snipcheck: snippets/s.py is run every build, never cached: its output may depend on {why}\n" in err, err
    code, err = _check(project, capsys)
    assert code == 0 and "1 snippets run, 0 from cache" in err, err


@pytest.mark.hostile
@pytest.mark.parametrize("code", STEADY)
def test_a_seeded_or_clock_free_run_is_cached_as_before(project, capsys, code):
    project.page("p.md", PAGE)
    project.snippet("s.py", code + "value = 1\n")
    code, err = _check(project, capsys)
    assert code == 0 and "never cached" not in err, err
    code, err = _check(project, capsys)
    assert "0 snippets run, 1 from cache" in err, err


@pytest.mark.hostile
def test_a_printed_time_is_output_that_changes_run_to_run(project, monkeypatch):
    monkeypatch.setenv("SNIPCHECK_TWICE", "true")
    project.page("p.md", '```python run="s.py"\n```\n\n```output\nnow 0\n```\n')
    project.snippet("s.py", "import time\nprint('now', time.time_ns())\n")
    [problem] = project.problems(check_determinism=True)
    assert problem.startswith("docs/p.md:1: snippets/s.py failed:\n    nondeterministic: two runs of the same source gave different stdout"), problem
    assert "mark the run block `live` if it measures time" in problem


@pytest.mark.hostile
def test_a_live_measurement_reads_the_clock_without_a_note(project, capsys):
    project.page("p.md", '```python run="s.py" live\n```\n\nIt is {{ 1 = value }}.\n')
    project.snippet("s.py", "import time\nstart = time.perf_counter()\nvalue = 1\n")
    code, err = _check(project, capsys)
    assert code == 0 and "never cached" not in err, err


@pytest.mark.hostile
def test_a_library_timing_itself_keeps_the_run_cached(project, capsys):
    pytest.importorskip("matplotlib")
    project.page("p.md", PAGE + "\n![A line](line.svg)\n")
    project.snippet(
        "s.py", "import matplotlib\nmatplotlib.use('Agg')\nimport matplotlib.pyplot as plt\nplt.plot([0, 1])\nplt.savefig('line.svg')\nvalue = 1\n"
    )
    code, err = _check(project, capsys)
    assert "never cached" not in err, err
    code, err = _check(project, capsys)
    assert "0 snippets run, 1 from cache" in err, err
