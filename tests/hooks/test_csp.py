"""hooks/csp.py: the Content-Security-Policy every built page carries."""

from __future__ import annotations

import re

import pytest


@pytest.fixture(scope="module")
def csp(load_hook):
    return load_hook("csp")


def test_the_policy_hashes_exactly_the_inline_scripts_that_run(csp):
    import base64
    import hashlib

    html = (
        '<script>var a = 1;</script><script src="x.js"></script><script type="application/json">{"b": 2}</script>'
        '<script type="module">import("./y.js")</script>'
    )
    expected = {
        f"'sha256-{base64.b64encode(hashlib.sha256(body.encode()).digest()).decode()}'"
        for body in ("var a = 1;", 'import("./y.js")')
    }
    assert csp.inline_script_hashes(html) == expected


def test_the_policy_allows_the_site_itself_and_nothing_else(csp):
    policy = csp.policy({"'sha256-b'", "'sha256-a'"})
    directives = dict(d.split(" ", 1) for d in policy.split("; "))
    assert directives["default-src"] == "'self'"
    assert directives["script-src"] == "'self' 'sha256-a' 'sha256-b'"  # sorted: the same bytes every build
    assert directives["object-src"] == "'none'"
    assert "http" not in policy and "*" not in policy and "unsafe-eval" not in policy
    assert "unsafe-inline" not in directives["script-src"]


def test_the_offline_build_allows_inline_scripts_but_still_no_other_host(csp):
    policy = csp.policy({"'sha256-a'"}, any_inline_script=True)
    directives = dict(d.split(" ", 1) for d in policy.split("; "))
    assert directives["script-src"] == "'self' 'unsafe-inline'"  # a hash beside it would switch unsafe-inline off
    assert directives["default-src"] == "'self'" and "http" not in policy


def test_the_policy_is_the_first_thing_in_the_head_and_replaces_an_older_one(csp):
    page = '<html>\n<head>\n<meta charset="utf-8">\n<script>x()</script></head></html>'
    once = csp.with_policy(page, "default-src 'self'")
    assert once.index("Content-Security-Policy") < once.index("<script>")
    assert once.index('<meta charset="utf-8">') < once.index("Content-Security-Policy")
    again = csp.with_policy(once, "default-src 'none'")
    assert again.count("Content-Security-Policy") == 1 and "'none'" in again


def test_every_built_page_gets_the_sites_policy_but_a_served_one_does_not(csp, tmp_path):
    from types import SimpleNamespace

    (tmp_path / "a").mkdir()
    (tmp_path / "index.html").write_text("<html><head><script>one()</script></head></html>", encoding="utf-8")
    (tmp_path / "a" / "index.html").write_text("<html><head><script>two()</script></head></html>", encoding="utf-8")
    config = SimpleNamespace(site_dir=str(tmp_path))
    csp.on_startup(command="serve", dirty=False)
    csp.on_post_build(config)
    assert "Content-Security-Policy" not in (tmp_path / "index.html").read_text(encoding="utf-8")
    csp.on_startup(command="build", dirty=False)
    csp.on_post_build(config)
    policies = {re.search(r'content="([^"]*)"', p.read_text(encoding="utf-8"))[1] for p in tmp_path.rglob("*.html")}
    assert len(policies) == 1  # one policy: instant navigation keeps the first page's
    assert len(re.findall(r"'sha256-", policies.pop())) == 2
