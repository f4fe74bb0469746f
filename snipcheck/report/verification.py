"""The verification page: every checked and every quoted number on the site, page by page, and
the conditions each page's argument rests on (the ``assert`` statements of its snippets).

A summary table at the top; then, per page, a heading (which the site search indexes and links
to) and a collapsible block of its rows. Every row has a unique anchor (page, line and position
in the line), so a number on a page links to its row, and a row links back to the number. A few
lines of script, shipped in the page itself, open the block that holds the row an address points
to, and filter the rows by what a reader types (a value or a name).

The row blocks are written as HTML, not Markdown: there are hundreds of rows, and Markdown's
inline processing of every cell was most of the time the builder spent on this page. So their
links are URLs already (``use_directory_urls`` says which form), and every cell is HTML-escaped
(a ``|``, a ``$`` or a ``<`` in a source or a value stays text; raw HTML is never read as
Markdown or math).
"""

from __future__ import annotations

import ast
import html
import io
import posixpath
import tokenize
from collections import defaultdict
from collections.abc import Iterator

from ..check.records import Build
from ..kept import by_text
from ..layout import VERIFICATION_PAGE, figure_snippet, figure_target
from ..read.regions import RegionKind
from .page import md_text, plain_title, tie_id
from .urls import link

_SCRIPT = """<script>
(function () {
  function reveal() {
    var id = decodeURIComponent(location.hash.slice(1));
    var target = id && document.getElementById(id);
    if (!target) return;
    for (var node = target; node; node = node.parentElement) {
      if (node.tagName === "DETAILS") node.open = true;
    }
    target.scrollIntoView();
    var row = target.closest("tr");
    if (row) row.classList.add("snipcheck-target");
  }
  function filter(query) {
    query = query.trim().toLowerCase();
    var shown = 0;
    document.querySelectorAll("details.snipcheck-rows").forEach(function (block) {
      var hits = 0;
      block.querySelectorAll("tbody tr").forEach(function (row) {
        var hit = !query || row.textContent.toLowerCase().indexOf(query) >= 0;
        row.hidden = !hit;
        if (hit) hits += 1;
      });
      block.open = query ? hits > 0 : false;
      shown += query ? hits : 0;
    });
    var count = document.getElementById("snipcheck-count");
    if (count) count.textContent = query ? shown + " matching row(s)" : "";
  }
  document.addEventListener("DOMContentLoaded", function () {
    var box = document.getElementById("snipcheck-filter");
    if (box) box.addEventListener("input", function () { filter(box.value); });
    reveal();
  });
  window.addEventListener("hashchange", reveal);
})();
</script>"""


def _page_link(path: str, prefix: str) -> str:
    return posixpath.relpath(path, prefix) if prefix else path


def _url(src_uri: str, use_directory_urls: bool) -> str:
    """The URL of a page from the verification page (``verification/`` or ``verification.html``)."""
    return link(VERIFICATION_PAGE, src_uri, use_directory_urls)


def _cell(text: str) -> str:
    return html.escape(" ".join(text.split()), quote=True)


_ROW_HEAD = (
    '<table>\n<thead>\n<tr>\n<th style="text-align: right;">Line</th>\n<th>On the page</th>\n<th>Computed</th>\n'
    "<th>Agrees</th>\n<th>What computed it</th>\n<th>Code</th>\n</tr>\n</thead>\n<tbody>"
)
_ASSERT_HEAD = "<table>\n<thead>\n<tr>\n<th>Where</th>\n<th>Condition</th>\n<th>What it means</th>\n</tr>\n</thead>\n<tbody>"


def snippet_asserts(source: str) -> list[tuple[int, str, str]]:
    """Every ``assert`` of a snippet, in source order: (line, condition, message). The message is
    the assert's own (its text if a string literal, else its source), or failing that the comment
    on the assert's last line; empty if neither. A snippet that does not parse has none here (the
    checker reports it elsewhere). Each source is read once, not once a build (``kept``)."""
    return list(_asserts(source))


def _statements(body: list) -> Iterator[ast.stmt]:
    """Every statement in ``body`` and in the blocks of its statements, at any depth (an
    ``assert`` is a statement: no expression holds one)."""
    for node in body:
        yield node
        for value in vars(node).values():  # body, orelse, finalbody, handlers, cases
            if isinstance(value, list) and value and isinstance(value[0], ast.stmt):
                yield from _statements(value)
            elif isinstance(value, list) and value and isinstance(value[0], (ast.excepthandler, ast.match_case)):
                for block in value:
                    yield from _statements(block.body)


@by_text("asserts", encode=list, decode=lambda rows: tuple((int(line), str(condition), str(message)) for line, condition, message in rows))
def _asserts(source: str) -> tuple[tuple[int, str, str], ...]:
    if "assert" not in source:  # the keyword is in the source of every assert
        return ()
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return ()
    comments: dict[int, str] | None = None  # read only for an assert that has no message
    found = []
    for node in _statements(tree.body):
        if not isinstance(node, ast.Assert):
            continue
        condition = ast.get_source_segment(source, node.test) or ast.unparse(node.test)
        if isinstance(node.msg, ast.Constant) and isinstance(node.msg.value, str):
            message = node.msg.value
        elif node.msg is not None:
            message = ast.get_source_segment(source, node.msg) or ast.unparse(node.msg)
        else:
            comments = _comments(source) if comments is None else comments
            message = comments.get(node.end_lineno or node.lineno, "")
        found.append((node.lineno, condition, message))
    return tuple(sorted(found))


def _comments(source: str) -> dict[int, str]:
    """Line -> the text of the comment on it."""
    comments: dict[int, str] = {}
    try:
        for tok in tokenize.generate_tokens(io.StringIO(source).readline):
            if tok.type == tokenize.COMMENT:
                comments[tok.start[0]] = tok.string.lstrip("#").strip()
    except (tokenize.TokenError, IndentationError):
        pass
    return comments


_QUOTE_HEAD = (
    '<table>\n<thead>\n<tr>\n<th>Page</th>\n<th style="text-align: right;">Line</th>\n<th>Number</th>\n<th>Source</th>\n</tr>\n</thead>\n<tbody>'
)


def _data_files(build: Build, titles: dict[str, str], use_directory_urls: bool) -> list[str]:
    """The data files the widgets show, each with its page and the snippet that wrote it."""
    rows = []
    for uri, doc in sorted(build.docs.items()):
        for widget in doc.widgets:
            if build.outcome(widget).data is None:
                continue
            target = figure_target(uri, widget.src)
            page = md_text(titles.get(uri, uri))
            rows.append(
                f"| [{md_text(target)}]({target}) | [{page}]({uri}) | {md_text(widget.name)} "
                f"| <code>{_cell(build.snippet_label(figure_snippet(target)))}</code> |"
            )
    if not rows:
        return []
    return [
        "## Data files",
        "",
        "The widgets show these files, each written by the snippet named; a widget looks its values up and computes none.",
        "",
        "| Data file | Page | Widget | Written by |",
        "| --- | --- | --- | --- |",
        *rows,
        "",
    ]


def verification_page(build: Build, titles: dict[str, str] | None = None, use_directory_urls: bool = True) -> str:
    """The page's Markdown; ``titles``: src_uri -> each page's title (default: its first heading)."""
    if titles is None:
        titles = {uri: plain_title(doc) for uri, doc in build.docs.items()}
    prefix = build.docs_prefix
    checks, citations = build.checks, build.citations
    by_page: dict[str, list] = defaultdict(list)
    for check in checks:
        by_page[check.path].append(check)
    cited_by_page: dict[str, list] = defaultdict(list)
    for cite in citations:
        cited_by_page[cite.path].append(cite)
    snippets = {c.snippet for c in checks}
    measured = sum(c.measured for c in checks)
    failing = sum(not c.ok for c in checks)
    conditions = _conditions(build)
    asserted = sum(len(rows) for rows in conditions.values())
    out = [
        # The page's own filter finds a number by value or name; in the site's search its thousands
        # of rows would bury the pages that teach (and indexing them is most of the search plugin's work).
        "---",
        "search:",
        "  exclude: true",
        "---",
        "",
        "# Verification",
        "",
        "Every number on this site comes from code you can read. When the site is built, the code on",
        "each page runs, and each number the page states is compared with the value that code",
        "computed. A number taken from a paper or another source is marked as quoted instead, and",
        "listed with its source at the end of this page.",
        "",
        "A number agrees when the computed value rounds to it: `0.248` stands for anything in",
        "[0.2475, 0.2485], and an integer only for itself. A timing changes from machine to machine,",
        "so the page gives a range, and the measured time must lie in it. If a single number",
        "disagrees, the site is not built.",
        "",
        "Some facts an argument rests on are not numbers: a row of weights sums to one, a masked key",
        "gets no weight. The code states them as conditions (`assert`), and the site is not built",
        "unless each holds. They are listed page by page below the numbers.",
        "",
        f"- **{len(checks)}** numbers checked, computed on **{len(by_page)}** pages by **{len(snippets)}** files of code"
        + (f" ({measured} of them timings, checked against a range)" if measured else "")
        + ";",
        f"- **{asserted}** conditions the code asserts;",
        f"- **{len(citations)}** numbers quoted from sources.",
        "",
        '<div class="snipcheck-search">',
        '<label for="snipcheck-filter">Find a checked number by its value or its name</label>',
        '<input id="snipcheck-filter" type="search" autocomplete="off" '
        f'placeholder="0.248, weights[2], {_cell(build.snippet_label("02_one_head.py"))}">',
        '<span id="snipcheck-count" role="status"></span>',
        "</div>",
        "",
        "## Summary",
        "",
        "| Page | Numbers computed | Agree | Quoted |",
        "| --- | ---: | --- | ---: |",
    ]
    pages = sorted(set(by_page) | set(cited_by_page))
    slugs = {}
    for path in pages:
        src_uri = _page_link(path, prefix)
        slug = "page-" + (by_page.get(path) or cited_by_page.get(path))[0].anchor.split("-", 1)[1].rsplit("-", 2)[0]
        slugs[path] = slug
        rows = by_page.get(path, [])
        bad = sum(not c.ok for c in rows)
        result = f"**{bad} FAIL**" if bad else ("all" if rows else "")
        checked = f"[{len(rows)}](#{slug})" if rows else "0"
        out.append(f"| [{md_text(titles.get(src_uri, src_uri))}]({src_uri}) | {checked} | {result} | {len(cited_by_page.get(path, []))} |")
    out += ["", f"{failing} failing." if failing else "", "## Numbers computed on each page", ""]
    for path in sorted(by_page):
        src_uri = _page_link(path, prefix)
        url = _url(src_uri, use_directory_urls)
        rows = by_page[path]
        bad = sum(not c.ok for c in rows)
        out += [f"### {md_text(titles.get(src_uri, src_uri))} {{ #{slugs[path]} }}", ""]
        summary = f"{len(rows)} numbers computed on {_cell(src_uri)}: " + (f"{bad} FAIL" if bad else "all agree")
        out += ['<details class="snipcheck-rows">', f"<summary>{summary}</summary>", _ROW_HEAD]
        for c in rows:
            if c.kind is RegionKind.OUTPUT:
                back, what = url, "printed output"
            else:
                back = f"{url}#{tie_id(c.line, c.position)}"
                what = ("measured, in range" if c.measured else "computed") + f": <code>{_cell(c.what)}</code>"
            computed = _cell(c.computed)
            if c.measured:
                computed = f'<span class="live-number">{computed}</span>'
            status = "yes" if c.ok else "<strong>FAIL</strong>"
            out.append(
                f'<tr>\n<td style="text-align: right;"><span id="{c.anchor}"></span><a href="{_cell(back)}">{c.line}</a></td>\n'
                f"<td>{_cell(c.documented)}</td>\n<td>{computed}</td>\n<td>{status}</td>\n<td>{what}</td>\n"
                f"<td><code>{_cell(build.snippet_label(c.snippet))}</code></td>\n</tr>"
            )
        out += ["</tbody>\n</table>", "</details>", ""]
    out += _conditions_section(build, conditions, titles, use_directory_urls)
    out += _data_files(build, titles, use_directory_urls)
    out += ["## Quoted from sources", "", "These numbers are not computed here: each is reported by the source named.", ""]
    out += ['<details class="snipcheck-rows">', f"<summary>{len(citations)} numbers quoted from sources</summary>", _QUOTE_HEAD]
    for c in citations:
        src_uri = _page_link(c.path, prefix)
        url = _url(src_uri, use_directory_urls)
        out.append(
            f'<tr>\n<td><a href="{_cell(url)}">{_cell(titles.get(src_uri, src_uri))}</a></td>\n'
            f'<td style="text-align: right;"><span id="{c.anchor}"></span>'
            f'<a href="{_cell(url)}#{tie_id(c.line, c.position)}">{c.line}</a></td>\n'
            f"<td>{_cell(c.documented)}</td>\n<td>{_cell(c.source)}</td>\n</tr>"
        )
    out += ["</tbody>\n</table>", "</details>", "", _SCRIPT, ""]
    return "\n".join(out)


def _conditions(build: Build) -> dict[str, list[tuple[str, int, str, str]]]:
    """src_uri -> the asserts of the snippets the page runs: (snippet, line, condition, message)."""
    parsed = {name: snippet_asserts(text) for name, text in build.sources.items()}
    out: dict[str, list[tuple[str, int, str, str]]] = {}
    for src_uri in sorted(build.docs):
        rows = [(name, *row) for name in build.docs[src_uri].snippets() for row in parsed.get(name, [])]
        if rows:
            out[src_uri] = rows
    return out


def _conditions_section(
    build: Build, conditions: dict[str, list[tuple[str, int, str, str]]], titles: dict[str, str], use_directory_urls: bool
) -> list[str]:
    out = [
        "## Conditions each page rests on",
        "",
        "Each line is an `assert` in the code a page runs: the file and line, the condition, and",
        "what it says in words. Had one failed, the site would not have been built.",
        "",
    ]
    for src_uri, rows in conditions.items():
        url = _url(src_uri, use_directory_urls)
        title = titles.get(src_uri, src_uri)
        out += [
            '<details class="snipcheck-rows">',
            # The summary is a control already: the link to the page goes below it, not inside it.
            f"<summary>{len(rows)} conditions on {_cell(title)}</summary>",
            f'<p>The page: <a href="{_cell(url)}">{_cell(title)}</a>.</p>',
            _ASSERT_HEAD,
        ]
        for name, line, condition, message in rows:
            out.append(
                f"<tr>\n<td><code>{_cell(build.snippet_label(name))}:{line}</code></td>\n"
                f"<td><code>{_cell(condition)}</code></td>\n<td>{_cell(message)}</td>\n</tr>"
            )
        out += ["</tbody>\n</table>", "</details>", ""]
    return out
