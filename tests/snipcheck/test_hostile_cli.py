"""Hostile command lines and a hostile preview: the wrong folder fails instead of reporting
"0 snippets run"; under ``mkdocs serve`` a raising or looping snippet never holds the server."""

from __future__ import annotations

import textwrap
import time

import pytest

from snipcheck.cli import main


@pytest.mark.parametrize(("setup", "message"), [
    (lambda root: None, "there is no docs folder at"),
    (lambda root: (root / "docs").mkdir(), "no Markdown page in"),
    (lambda root: ((root / "docs").mkdir(), (root / "docs" / "notes.txt").write_text("{{ 1 = x }}")), "no Markdown page in"),
])
@pytest.mark.parametrize("command", ["check", "accept"])
def test_the_wrong_folder_fails_with_a_message(tmp_path, capsys, setup, message, command):
    setup(tmp_path)
    assert main([command, "--root", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert message in err and "0 snippets run" not in err


@pytest.mark.parametrize("suffix", [".markdown", ".mdown", ".mkd", ".MD"])
def test_pages_with_every_markdown_suffix_mkdocs_reads_are_checked(project, capsys, suffix):
    project.page(f"p{suffix}", '```python run="s.py"\n```\n\nIt is {{ 1 = x }}.\n')
    project.snippet("s.py", "x = 2\n")
    assert main(["check", "--root", str(project.root)]) == 1
    assert f"docs/p{suffix}:4: documented 1, computed x = 2 (snippets/s.py)" in capsys.readouterr().err


MKDOCS_YML = """
site_name: t
docs_dir: docs
plugins:
  - snipcheck:
      notebooks_dir: notebooks
      serve_wait: 1
markdown_extensions:
  - attr_list
  - md_in_html
  - tables
  - admonition
  - pymdownx.superfences
"""


@pytest.fixture
def serve_plugin(project):
    from mkdocs.config import load_config

    (project.root / "mkdocs.yml").write_text(textwrap.dedent(MKDOCS_YML), encoding="utf-8")
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


def test_under_serve_a_looping_snippet_does_not_hold_the_build(project, serve_plugin):
    project.page("loop.md", '# Loop\n\n```python run="loop.py" timeout=3\n```\n\nIt is {{ 1 = x }}.\n\n'
                            '![A loop](figures/loop/loop.svg)\n')
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


def test_a_tie_that_did_not_render_as_a_number_is_caught_in_the_html(project):
    from snipcheck.report.page import unrendered_ties

    project.page("p.md", '```python run="s.py"\n```\n\nIt is {{ 1 = x }}.\n')
    project.snippet("s.py", "x = 1\n")
    build = project.build()
    assert unrendered_ties(build, "p.md", '<p>It is <a id="tie-4-1" href="#">1</a>.</p>') == []
    [problem] = unrendered_ties(build, "p.md", "<pre><code>It is [1](verification.md#check-p-4-1){ #tie-4-1 }</code></pre>")
    assert str(problem) == "docs/p.md:4: a tie did not render as a number (is it inside code, math, link text or raw HTML?)"


def test_a_real_mkdocs_serve_keeps_answering_through_a_raising_and_a_looping_snippet(project, tmp_path):
    """Strict mode, as the site runs: a missing figure would be a warning that stops the preview."""
    import socket
    import subprocess
    import sys
    import urllib.request

    (project.root / "mkdocs.yml").write_text(textwrap.dedent(MKDOCS_YML).replace("site_name: t", "site_name: t\nstrict: true"),
                                             encoding="utf-8")
    project.page("ok.md", '# OK\n\n```python run="ok.py"\n```\n')
    project.snippet("ok.py", "x = 1\n")
    project.page("bad.md", '# Bad\n\n```python run="bad.py"\n```\n\n![A plot](figures/bad/plot.svg)\n')
    project.snippet("bad.py", "raise ValueError('broken')\n")
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    log = open(tmp_path / "serve.log", "wb")
    server = subprocess.Popen([sys.executable, "-m", "mkdocs", "serve", "-a", f"127.0.0.1:{port}"], cwd=project.root,
                              env={**__import__("os").environ, "NO_MKDOCS_2_WARNING": "1"}, stdout=log,
                              stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)

    def page_with(path, text, timeout=90):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            assert server.poll() is None, (tmp_path / "serve.log").read_text(errors="replace")
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/{path}", timeout=30) as response:
                    html = response.read().decode("utf-8", "replace")
                if text in html:
                    return html
            except OSError:
                pass
            time.sleep(0.2)
        raise AssertionError(f"{path} never showed {text!r}:\n" + (tmp_path / "serve.log").read_text(errors="replace")[-3000:])

    try:
        page_with("bad/", "This page does not build")
        page_with("figures/bad/plot.svg", "bad.py failed")
        project.snippet("bad.py", "while True:\n    pass\n")  # now it loops: the page says it is running
        page_with("bad/", "Snippets still running")
        page_with("ok/", "OK")  # and the rest of the site answers meanwhile
        project.snippet("bad.py", "import matplotlib.pyplot as plt\n\nfig, ax = plt.subplots()\nfig.savefig('plot.svg')\n")
        page_with("bad/", "figures/bad/plot.svg")
        page_with("figures/bad/plot.svg", "<?xml")
        assert "This page does not build" not in page_with("bad/", "</html>")
    finally:
        server.terminate()
        server.wait(timeout=60)
        log.close()
