"""hooks/templatecache.py: templates compile once, and again when their source changes."""

from __future__ import annotations


def test_templates_compile_once_and_again_when_their_source_changes(tmp_path, load_hook):
    """hooks/templatecache.py: a second environment reads the compiled template from the cache,
    and an edited template is compiled afresh (Jinja keys the cache by a checksum of the source)."""
    import jinja2

    templatecache = load_hook("templatecache")
    (tmp_path / "mkdocs.yml").write_text("site_name: t\n", encoding="utf-8")
    (tmp_path / "t.html").write_text("one {{ x }}", encoding="utf-8")
    config = type("Config", (), {"config_file_path": str(tmp_path / "mkdocs.yml")})()
    compiled = []

    def environment():
        env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(tmp_path)))
        original = env.compile
        env.compile = lambda *args, **kwargs: compiled.append(args[1]) or original(*args, **kwargs)
        return templatecache.on_env(env, config, files=None)

    assert environment().get_template("t.html").render(x=1) == "one 1"
    assert environment().get_template("t.html").render(x=2) == "one 2"
    assert compiled == ["t.html"]  # the second environment took the compiled code from .cache/jinja
    assert list((tmp_path / ".cache" / "jinja").iterdir())
    (tmp_path / "t.html").write_text("two {{ x }}", encoding="utf-8")
    assert environment().get_template("t.html").render(x=3) == "two 3"
    assert compiled == ["t.html", "t.html"]
