"""The MkDocs layer: a real build fails on drift before writing; a preview shows the problem.

Hostile command lines and a hostile preview: the wrong folder fails instead of reporting
"0 snippets run"; under ``mkdocs serve`` a raising or looping snippet never holds the server."""

from __future__ import annotations

import os
import subprocess
import sys
import time

import pytest
from mkdocs.config import load_config
from mkdocs.exceptions import PluginError
from mkdocs.structure.files import get_files

PAGE = '# P\n\n```python run="one.py"\n```\n\n```output\nx = 0.5\n```\n\nIt is {{ %s = x }}.\n'


@pytest.fixture
def site(project, mkdocs_yml):
    (project.root / "mkdocs.yml").write_text(mkdocs_yml(nav=("p.md", "verification.md")), encoding="utf-8")
    project.snippet("one.py", "x = 0.5\nprint('x =', x)\n")
    return project


def _without_snipcheck_settings() -> dict[str, str]:
    return {name: value for name, value in os.environ.items() if not name.startswith("SNIPCHECK_")}


def _mkdocs_build(root):
    env = {**_without_snipcheck_settings(), "NO_MKDOCS_2_WARNING": "1"}
    return subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "-d", str(root / "out")], cwd=root, env=env, capture_output=True, text=True, timeout=120
    )


def test_a_matching_site_builds_with_its_verification_page(site):
    site.page("p.md", PAGE % "0.5")
    run = _mkdocs_build(site.root)
    assert run.returncode == 0, run.stderr
    assert (site.root / "out" / "p" / "index.html").is_file()
    verification = (site.root / "out" / "verification" / "index.html").read_text(encoding="utf-8")
    assert "snippets/one.py" in verification and "<table>" in verification


def test_a_drift_fails_mkdocs_build_without_strict_and_writes_no_page(site):
    site.page("p.md", PAGE % "0.7")
    run = _mkdocs_build(site.root)
    assert run.returncode != 0
    assert "docs/p.md:10: documented 0.7, computed x = 0.5 (snippets/one.py)" in run.stderr
    assert not (site.root / "out" / "p" / "index.html").exists()


def _snipcheck_check(root, **env):
    env = {**_without_snipcheck_settings(), **env}
    return subprocess.run(
        [sys.executable, "-m", "snipcheck", "check", "--root", str(root)], cwd=root, env=env, capture_output=True, text=True, timeout=120
    )


@pytest.mark.parametrize(("twice", "ran", "cached"), [({}, 0, 1), ({"SNIPCHECK_TWICE": "true"}, 1, 0)])
def test_the_command_line_reuses_what_mkdocs_build_stored_unless_it_asks_for_more(site, twice, ran, cached):
    """As the site's mkdocs.yml does, the build runs each snippet once unless SNIPCHECK_TWICE is
    true: a check right after reuses every result, and a check that runs each result twice does
    not take one that ran once."""
    config = (site.root / "mkdocs.yml").read_text(encoding="utf-8")
    config = config.replace("  - snipcheck:\n", "  - snipcheck:\n      check_determinism: !ENV [SNIPCHECK_TWICE, false]\n")
    (site.root / "mkdocs.yml").write_text(config, encoding="utf-8")
    site.page("p.md", PAGE % "0.5")
    built = _mkdocs_build(site.root)
    assert built.returncode == 0, built.stderr
    assert "1 snippets run, 0 from cache" in built.stderr
    check = _snipcheck_check(site.root, **twice)
    assert check.returncode == 0, check.stderr
    assert f"snipcheck: {ran} snippets run, {cached} from cache" in check.stderr


def test_under_serve_the_page_shows_the_problem_and_the_preview_goes_on(site, capsys):
    site.page("p.md", PAGE % "0.7")
    config = load_config(str(site.root / "mkdocs.yml"))
    plugins = config.plugins
    plugins.on_startup(command="serve", dirty=False)
    config = plugins.on_config(config)
    files = plugins.on_files(get_files(config), config=config)  # does not raise
    assert "docs/p.md:10: documented 0.7" in capsys.readouterr().err
    page = type("Page", (), {"file": files.get_file_from_path("p.md")})()
    markdown = plugins.on_page_markdown("", page=page, config=config, files=files)
    assert markdown.startswith('!!! failure "This page does not build')
    plugins.on_startup(command="build", dirty=False)
    with pytest.raises(PluginError, match="docs/p.md:10: documented 0.7"):
        plugins.on_files(get_files(config), config=config)


@pytest.fixture
def serve_plugin(project, mkdocs_yml):
    from mkdocs.config import load_config

    (project.root / "mkdocs.yml").write_text(mkdocs_yml(notebooks_dir="notebooks", serve_wait=1), encoding="utf-8")
    project.page("ok.md", '# OK\n\n```python run="ok.py"\n```\n')
    project.snippet("ok.py", "x = 1\n")

    def start():
        config = load_config(str(project.root / "mkdocs.yml"))
        config.plugins.on_startup(command="serve", dirty=False)
        return config, config.plugins, config.plugins["snipcheck"]

    yield start


def _files(config, plugins):
    from mkdocs.structure.files import get_files

    return plugins.on_files(get_files(config), config=config)


def _page(files, uri):
    return type("Page", (), {"file": files.get_file_from_path(uri), "meta": {}})()


@pytest.mark.hostile
def test_under_serve_a_looping_snippet_does_not_hold_the_build(project, serve_plugin):
    project.page("loop.md", '# Loop\n\n```python run="loop.py" timeout=3\n```\n\nIt is {{ 1 = x }}.\n\n![A loop](figures/loop/loop.svg)\n')
    project.snippet("loop.py", "while True:\n    pass\n")
    config, plugins, plugin = serve_plugin()
    done = []
    config = plugins.on_config(config)
    plugin.engine.on_background_done(done.append)
    files = _files(config, plugins)  # returns while the snippet still loops: the page says so
    markdown = plugins.on_page_markdown("", page=_page(files, "loop.md"), config=config, files=files)
    assert '!!! info "Snippets still running"' in markdown and "It is 1." in markdown
    assert "loop.md" not in plugin.notebooks and "ok.md" in plugin.notebooks
    # the figure it has not drawn yet stands in as a placeholder: the page's image link resolves
    assert b"still running" in files.get_file_from_path("figures/loop/loop.svg").content_bytes
    deadline = time.monotonic() + 20
    while not done and time.monotonic() < deadline:
        time.sleep(0.1)
    assert done == ["loop.py"]
    files = _files(config, plugins)  # the rebuild the finished run asked for
    markdown = plugins.on_page_markdown("", page=_page(files, "loop.md"), config=config, files=files)
    assert markdown.startswith('!!! failure "This page does not build')
    assert "snippets/loop.py failed:" in markdown and "timed out after 3 s" in markdown
    assert b"loop.py failed" in files.get_file_from_path("figures/loop/loop.svg").content_bytes
    plugin.on_shutdown()


@pytest.mark.hostile
def test_under_serve_a_raising_snippet_shows_on_its_page_and_gets_no_notebook(project, serve_plugin):
    project.page("bad.md", '# Bad\n\n```python run="bad.py"\n```\n')
    project.snippet("bad.py", "raise ValueError('broken')\n")
    config, plugins, plugin = serve_plugin()
    config = plugins.on_config(config)
    files = _files(config, plugins)  # does not raise
    markdown = plugins.on_page_markdown("", page=_page(files, "bad.md"), config=config, files=files)
    assert "<code>docs/bad.md:3</code>: snippets/bad.py failed:" in markdown
    assert "bad.md" not in plugin.notebooks
    plugin.on_shutdown()


@pytest.mark.hostile
def test_under_serve_a_live_measurement_is_kept_for_the_session(project, serve_plugin):
    project.page("live.md", '# Live\n\n```python run="clock.py" live\n```\n')
    project.snippet("clock.py", "import time\nnow = time.perf_counter()\n")
    config, plugins, plugin = serve_plugin()
    config = plugins.on_config(config)
    first = plugin.engine.build()
    second = plugin.engine.build()
    assert "clock.py" in first.stats.ran and second.stats.ran == []
    project.snippet("clock.py", "import time\nnow = time.perf_counter() + 1\n")
    assert "clock.py" in plugin.engine.build().stats.ran
    plugin.on_shutdown()


@pytest.mark.hostile
def test_a_tie_that_did_not_render_as_a_number_is_caught_in_the_html(project):
    from snipcheck.report.page import unrendered_ties

    project.page("p.md", '```python run="s.py"\n```\n\nIt is {{ 1 = x }}.\n')
    project.snippet("s.py", "x = 1\n")
    build = project.build()
    assert unrendered_ties(build, "p.md", '<p>It is <a id="tie-4-1" href="#">1</a>.</p>') == []
    [problem] = unrendered_ties(build, "p.md", "<pre><code>It is [1](verification.md#check-p-4-1){ #tie-4-1 }</code></pre>")
    assert str(problem) == "docs/p.md:4: a tie did not render as a number (is it inside code, math, link text or raw HTML?)"


@pytest.mark.hostile
def test_a_tie_the_page_shows_as_written_fails_mkdocs_build_at_its_source_line(site):
    """And again when the page's scan is reused (``Scans``, keyed by the page's HTML)."""
    site.page("p.md", PAGE % "0.5" + "\nAnd &#123;&#123; 0.7 = x &#125;&#125; shows as written.\n")
    kept = []
    for build in ("read", "reused"):
        run = _mkdocs_build(site.root)
        assert run.returncode != 0, (build, run.stderr)
        problem = "docs/p.md:12: a tie shows on the page as written, unchecked: {{ 0.7 = x }}"
        assert f"snipcheck: 1 tie(s) not shown as a checked number:\n{problem}" in run.stderr, (build, run.stderr)
        kept.append({p.name: p.stat().st_mtime_ns for p in (site.root / ".cache" / "snipcheck" / "scans").glob("*.json")})
    assert kept[0] and kept[1] == kept[0], "the second build did not reuse the page's scan"


@pytest.mark.hostile
def test_a_build_logs_a_run_never_cached_once_with_why(site):
    site.snippet("one.py", "import time\nstarted = time.time() > 0\nx = 0.5\nprint('x =', x)\n")
    site.page("p.md", PAGE % "0.5")
    run = _mkdocs_build(site.root)
    assert run.returncode == 0, run.stderr
    line = "snipcheck: snippets/one.py is run every build, never cached: its output may depend on the clock (time.time() at snippets/one.py:2)"
    assert run.stderr.count(line) == 1, run.stderr


@pytest.mark.hostile
def test_a_build_warns_once_for_each_guarantee_the_sandbox_lacks(project, mkdocs_yml, monkeypatch, caplog):
    from mkdocs.config import load_config

    from snipcheck.run.executor import Executor

    original = Executor.__init__

    def without(self, *args, **kwargs):
        original(self, *args, **kwargs)
        self.namespaces = False

    monkeypatch.setattr(Executor, "__init__", without)
    (project.root / "mkdocs.yml").write_text(mkdocs_yml(), encoding="utf-8")
    project.page("p.md", '# P\n\n```python run="s.py"\n```\n\nIt is {{ 1 = x }}.\n')
    project.snippet("s.py", "x = 1\n")
    config = load_config(str(project.root / "mkdocs.yml"))
    config.plugins.on_startup(command="build", dirty=False)
    config = config.plugins.on_config(config)
    with caplog.at_level("INFO"):
        config.plugins.on_files(get_files(config), config=config)
    warnings = [r.getMessage() for r in caplog.records if r.levelname == "WARNING"]
    assert warnings == ["snipcheck: sandbox: not enforced: network and PID namespaces (turned off)"], warnings
    config.plugins["snipcheck"].on_shutdown()


def test_under_serve_a_notebook_installs_from_the_published_site_as_in_the_build(project, mkdocs_yml):
    """``mkdocs serve`` sets ``site_url`` to its own address, whose port changes from one start to
    the next: the notebook's set-up cell still names the published site, so a preview's notebook
    is the build's file, byte for byte, and mkdocs-jupyter's cached conversion serves both."""
    published = "https://example.org/site/"
    settings = f"site_url: {published}\n" + mkdocs_yml(notebooks_dir="notebooks").replace(
        "      notebooks_dir:", '      notebook_requires: {json: "downloads/pkg-*.whl"}\n      notebooks_dir:'
    )
    (project.root / "mkdocs.yml").write_text(settings, encoding="utf-8")
    project.page("ok.md", '# OK\n\n```python run="ok.py"\n```\n')
    wheel = project.root / "docs" / "downloads" / "pkg-1.0-py3-none-any.whl"
    wheel.parent.mkdir(parents=True)
    wheel.write_bytes(b"not a wheel, a file of the site")
    project.snippet("ok.py", 'import json\n\nx = json.loads("1")\n')

    def notebook(command: str, site_url: str) -> bytes:
        config = load_config(str(project.root / "mkdocs.yml"))
        config.plugins.on_startup(command=command, dirty=False)
        config.site_url = site_url  # as `mkdocs serve` sets it, after loading the configuration
        config = config.plugins.on_config(config)
        files = config.plugins.on_files(get_files(config), config=config)
        return files.get_file_from_path(config.plugins["snipcheck"].notebooks["ok.md"]).content_bytes

    built = notebook("build", published)
    assert f"{published}downloads/pkg-1.0-py3-none-any.whl".encode() in built
    assert notebook("serve", "http://127.0.0.1:8123/site/") == built == notebook("serve", "http://127.0.0.1:8124/site/")
