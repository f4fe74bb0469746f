"""Fault injection: a small copy of the project, one broken snippet at a time, a real `mkdocs build`.

Each fault must make the build exit non-zero with a message naming the page's file:line (and the
snippet's own file:line where it raised), and leave no site that looks good: the output folder is
absent or has no index.html. A snippet that prints HTML is not a fault: the build passes and the
HTML shows as text.
"""

from __future__ import annotations

import re
import shutil
import textwrap
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from sitekit import ROOT, TWICE_ENV, BuildRun, mkdocs_build, mkdocs_config

pytestmark = pytest.mark.slow

PAGE = "fault.md"
HOME = "# Fault injection\n\nA home page with nothing to check.\n"
SCRIPT = '<script>alert("injected")</script> & <b>bold</b>'


@dataclass
class Fault:
    page: str
    snippets: dict[str, str] = field(default_factory=dict)
    expect: list[str] = field(default_factory=list)  # regular expressions the build log must match
    fails: bool = True


def _page(text: str) -> str:
    return textwrap.dedent(text).lstrip("\n")


FAULTS = {
    "raises": Fault(
        _page("""
            # Raises

            ```python run="f_raises.py"
            ```
            """),
        {"f_raises.py": "values = [1, 2, 3]\nprint(values[3])\n"},
        [
            r"docs/fault\.md:3: snippets/f_raises\.py failed",
            r'File "snippets/f_raises\.py", line 2',
            r"IndexError: list index out of range",
        ],
    ),
    "hangs": Fault(
        _page("""
            # Hangs

            ```python run="f_hangs.py" timeout=2
            ```
            """),
        {"f_hangs.py": "import time\n\ntime.sleep(120)\n"},
        [r"docs/fault\.md:3: snippets/f_hangs\.py failed", r"timed out after 2 s"],
    ),
    "prints nan": Fault(
        _page("""
            # Prints nan

            ```python run="f_nan.py"
            ```

            ```output
            loss: 0.25
            ```

            The loss is {{ 0.25 = loss }}.
            """),
        {"f_nan.py": 'loss = float("nan")\nprint(f"loss: {loss}")\n'},
        [
            r"docs/fault\.md:7: documented 0\.25, computed nan",
            r"docs/fault\.md:10: documented 0\.25, computed loss = nan",
        ],
    ),
    "nondeterministic": Fault(
        _page("""
            # Prints a different number on every run

            ```python run="f_random.py"
            ```

            ```output
            0.5
            ```
            """),
        {"f_random.py": "import random\n\nprint(random.SystemRandom().random())\n"},
        [
            r"docs/fault\.md:3: snippets/f_random\.py failed",
            r"nondeterministic: two runs of the same source gave "
            r"different stdout",
        ],
    ),
    "missing snippet": Fault(
        _page("""
            # Runs a snippet that is not there

            ```python run="f_missing.py"
            ```
            """),
        {},
        [r"docs/fault\.md:3: snippets/f_missing\.py failed", r"snippet file snippets/f_missing\.py does not exist"],
    ),
    "prints html": Fault(
        _page(f"""
            # Prints HTML

            ```python run="f_html.py"
            ```

            ```output
            {SCRIPT}
            ```
            """),
        {"f_html.py": f"print({SCRIPT!r})\n"},
        fails=False,
    ),
}


def with_nav(config_text: str, nav: list[tuple[str, str]]) -> str:
    """mkdocs.yml with its nav replaced by ``nav`` (title, file), everything else kept as written."""
    lines = config_text.splitlines()
    kept, skipping = [], False
    for line in lines:
        if re.match(r"^nav\s*:", line):
            skipping = True
            continue
        if skipping and line and not line[0].isspace() and not line.startswith("#"):
            skipping = False
        if not skipping:
            kept.append(line)
    kept += ["nav:"] + [f"  - {title!r}: {file}" for title, file in nav]
    return "\n".join(kept) + "\n"


def small_project(dest: Path, page: str, snippets: dict[str, str]) -> Path:
    """A copy of the project with the real configuration, theme overrides and hooks, and two pages."""
    config = mkdocs_config()
    dest.mkdir(parents=True)
    (dest / "mkdocs.yml").write_text(
        with_nav(
            (ROOT / "mkdocs.yml").read_text(encoding="utf-8"),
            [("Home", "index.md"), ("Fault", PAGE), ("Verification", "verification.md")],
        ),
        encoding="utf-8",
    )
    docs = config.get("docs_dir", "docs")
    shutil.copytree(ROOT / docs, dest / docs, ignore=shutil.ignore_patterns("*.md", "__pycache__"))
    (dest / docs / "index.md").write_text(HOME, encoding="utf-8")
    (dest / docs / PAGE).write_text(page, encoding="utf-8")
    theme = config.get("theme") or {}
    folders = (
        {"hooks"}
        | set(config.get("watch") or [])
        | ({theme["custom_dir"]} if isinstance(theme, dict) and theme.get("custom_dir") else set())
    )
    for folder in sorted(folders):
        if (ROOT / folder).is_dir() and folder not in (docs, "snippets"):
            shutil.copytree(ROOT / folder, dest / folder, ignore=shutil.ignore_patterns("__pycache__"))
        elif (ROOT / folder).is_file():  # a watched file the build reads (pyproject.toml: the attn wheel)
            shutil.copy(ROOT / folder, dest / folder)
    (dest / "snippets").mkdir(exist_ok=True)
    for name, code in snippets.items():
        (dest / "snippets" / name).write_text(code, encoding="utf-8")
    return dest


@pytest.fixture(scope="module")
def builds(tmp_path_factory) -> dict[str, BuildRun]:
    """Every fault built at once (a few in parallel: most of the time is MkDocs starting up)."""
    root = tmp_path_factory.mktemp("faults")

    def build(item):
        name, fault = item
        project = small_project(root / re.sub(r"\W+", "-", name), fault.page, fault.snippets)
        return name, mkdocs_build(project, project / "site", env=TWICE_ENV, timeout=300)  # as make publish builds

    with ThreadPoolExecutor(max_workers=3) as pool:
        return dict(pool.map(build, FAULTS.items()))


@pytest.mark.parametrize("name", [n for n, f in FAULTS.items() if f.fails])
def test_a_fault_fails_the_build_naming_file_and_line_and_leaves_no_site(name, builds):
    run = builds[name]
    assert run.returncode != 0, f"the build passed with the fault {name!r}:\n{run.log}"
    for pattern in FAULTS[name].expect:
        assert re.search(pattern, run.log), f"the build log does not say {pattern!r}:\n{run.log}"
    assert re.search(r"snipcheck found \d+ problem", run.log), run.log
    assert not (run.site_dir / "index.html").exists(), f"a failed build left {run.site_dir}/index.html"
    leftovers = (
        sorted(str(p.relative_to(run.site_dir)) for p in run.site_dir.rglob("*.html")) if run.site_dir.exists() else []
    )
    assert leftovers == [], f"a failed build left pages behind: {leftovers}"
    print(
        f"\n{name}: exit {run.returncode} in {run.seconds:.1f} s; "
        f"{next(line for line in run.log.splitlines() if 'docs/fault.md:' in line).strip()}"
    )


def test_a_hanging_snippet_is_stopped_at_its_timeout(builds):
    assert builds["hangs"].seconds < 60, f"the hanging snippet held the build for {builds['hangs'].seconds:.0f} s"


def test_html_printed_by_a_snippet_shows_as_text(builds):
    run = builds["prints html"]
    assert run.ok, run.log
    html = (run.site_dir / "fault" / "index.html").read_text(encoding="utf-8")
    assert "&lt;script&gt;alert(" in html and "&lt;b&gt;bold&lt;/b&gt;" in html, "the printed HTML is not shown escaped"
    for page in sorted(run.site_dir.rglob("*.html")):
        text = page.read_text(encoding="utf-8")
        assert '<script>alert("injected")' not in text, f"{page.relative_to(run.site_dir)} runs the printed <script>"
        assert "<b>bold</b>" not in text, f"{page.relative_to(run.site_dir)} renders the printed <b>"


def test_every_fault_was_injected(builds):
    print(
        f"\n{len(FAULTS)} faults injected, {sum(f.fails for f in FAULTS.values())} fail the build as they must, "
        f"{sum(not f.fails for f in FAULTS.values())} builds with its output shown as text"
    )
    assert set(builds) == set(FAULTS)
