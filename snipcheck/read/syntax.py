"""What Python-Markdown and pymdownx.superfences accept, as the page reader needs to know it: which
lines open a code fence, which tags open a raw HTML block, which lines define an abbreviation.
Written after their own patterns (superfences' ``RE_NESTED_FENCE_START`` and its highlight
validator; Python-Markdown's ``block_level_elements``), so the reader calls prose what they render
as prose: a line that only looks like a fence (```` ```x``` is the variable ````, ``~~~ and so
on``) is a paragraph, and its ties are read.
"""

from __future__ import annotations

import re

# superfences: a fence, a language, then {attributes} or key="value" options, nothing else.
_FENCE_START = re.compile(r"""(?x)
    (?P<fence>~{3,}|`{3,})
    (?:[ \t]*\.?(?P<lang>[\w\#.+-]+)(?=[\t ]|$))?
    (?:
        [ \t]*(\{(?P<attrs>[^\n]*)\}) |
        (?P<options>(?:(?:[ \t]*[a-zA-Z][a-zA-Z0-9_]*(?:=(?P<quot>"|').*?(?P=quot))?)(?=[\t ]|$))+) |
        (?P<unrecognized>(?:[ \t]*[^\s]+(?=[\t ]|$))+)
    )?[ \t]*$""")
_OPTION = re.compile(r"""(?P<key>[a-zA-Z][a-zA-Z0-9_]*)(?:=(?P<quot>"|')(?P<value>.*?)(?P=quot))?""")
# The options pymdownx.highlight takes on a fence; any other makes superfences refuse the fence.
_HIGHLIGHT_OPTIONS = {
    "hl_lines": re.compile(r"^\d+(?:-\d+)?(?:[ \t]+\d+(?:-\d+)?)*$"),
    "linenums": re.compile(r"[\d]+(?:[ \t]+[\d]+)?(?:[ \t]+[\d]+)?"),
    "title": None,
    "title_mode": None,
}

# Python-Markdown's block-level elements: a line that starts with one opens a raw HTML block.
BLOCK_TAGS = (
    "address|article|aside|blockquote|body|canvas|center|colgroup|dd|details|div|dl|dt|fieldset|figcaption|"
    "figure|footer|form|group|h[1-6]|header|hgroup|hr|html|iframe|legend|li|main|map|math|menu|nav|noscript|"
    "object|ol|option|output|p|pre|progress|script|section|style|summary|table|tbody|td|textarea|tfoot|th|"
    "thead|tr|ul|video|svg"
)
BLOCK_TAG = re.compile(rf"^<(?P<tag>{BLOCK_TAGS})(?=[\s>/])(?P<attrs>[^>]*)>?", re.IGNORECASE)
# abbr: ``*[HTML]: Hyper Text Markup Language`` defines a tooltip, it is not shown as text.
ABBREVIATION = re.compile(r"^[ ]{0,3}\*\[[^\]]+\]:")


def opens_fence(text: str) -> bool:
    """True if superfences takes ``text`` (a line with its indent removed) for a code fence's
    opening line; False for a line that is a paragraph (unknown words after the fence, a
    ``key=value`` without quotes, an option pymdownx.highlight does not take)."""
    match = _FENCE_START.match(text)
    if match is None or match["unrecognized"]:
        return False
    if match["attrs"] is not None or not match["options"]:
        return True
    for option in _OPTION.finditer(match["options"]):
        key, value = option["key"], option["value"]
        if key not in _HIGHLIGHT_OPTIONS:
            return False
        check = _HIGHLIGHT_OPTIONS[key]
        value = key if value is None else value
        if check is not None and check.match(value) is None:
            return False
    return True
