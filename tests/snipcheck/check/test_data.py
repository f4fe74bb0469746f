"""A widget's data file: compact JSON, safe inside a script element, refused when it is not JSON,
holds a number that is not finite, or is too large to ship in its page."""

from __future__ import annotations

import json

import pytest

from snipcheck.check.data import DataError, canonical


def test_valid_json_comes_back_compact_with_the_same_values():
    data = {"widths": [1, 4, 64], "weights": [[0.1, 0.2000000000000001], [1e-300, -0.0]], "name": "é"}
    text = canonical(json.dumps(data, indent=2).encode("utf-8"))
    assert " " not in text.replace("é", "")
    assert json.loads(text) == data


def test_a_closing_script_tag_in_a_string_cannot_end_the_element():
    text = canonical(b'{"label": "</script><script>alert(1)</script>"}')
    assert "</" not in text and "<" not in text
    assert json.loads(text) == {"label": "</script><script>alert(1)</script>"}


@pytest.mark.hostile
@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b'{"w": [0.5, NaN]}', "holds NaN, which is not JSON (write finite numbers only)"),
        (b'{"w": Infinity}', "holds Infinity, which is not JSON (write finite numbers only)"),
        (b'{"w": [-Infinity]}', "holds -Infinity, which is not JSON (write finite numbers only)"),
        (b'{"w": {"x": [1, 1e999]}}', "holds inf at $.w.x[1], which is not a finite number"),
        (b'{"w": [0.5,', "is not valid JSON: Expecting value at line 1, column 12"),
        (b"", "is not valid JSON: Expecting value at line 1, column 1"),
        (b'{"w": "\xff"}', "is not UTF-8 text (invalid start byte at byte 7)"),
    ],
)
def test_what_is_not_finite_json_is_refused(data, message):
    with pytest.raises(DataError) as caught:
        canonical(data)
    assert str(caught.value) == message


@pytest.mark.hostile
def test_a_data_file_over_the_limit_is_refused_before_it_is_read():
    with pytest.raises(DataError, match=r"^is 1,001 bytes; a data file ships in its page, so at most 1,000$"):
        canonical(b"[" + b"0," * 499 + b"0]", limit=1000)
    assert canonical(b"[" + b"0," * 498 + b"0] ", limit=1000).startswith("[0,0")
