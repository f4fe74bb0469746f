"""The checker proves itself on the real site: every checked number, nudged past its tolerance, fails.

For each number the site checks (snipcheck's ``build.checks``: output-block numbers and prose
ties), the page text is copied and that one number is rewritten one unit in its last written digit,
away from the computed value. The computed value then lies outside the number's interval, so the
build must report a problem naming that page and that line. And the same number rewritten with one
more digit, still within tolerance of the computed value, must pass.

No MkDocs here: ``Engine.build(pages={...})`` checks the mutated text with the cached results.
"""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass
from decimal import ROUND_HALF_EVEN, Decimal

import pytest
from sitekit import ROOT
from snipcheck import Engine
from snipcheck import check as snipcheck_check
from snipcheck.check import lookup
from snipcheck.document import _TIE
from snipcheck.numeric import _NUMBER, Number

pytestmark = pytest.mark.slow
BOOLEANS = ("True", "False")
THOUSANDS = getattr(snipcheck_check, "_THOUSANDS", None)


@dataclass
class Site:
    number: str  # as written on the page
    computed: str  # what the snippet computed, as text Decimal reads exactly
    uri: str  # the page, relative to the docs folder
    path: str  # as problems name it: docs/PAGE.md
    line: int  # 1-based
    start: int  # column span of the number in that line
    end: int


@pytest.fixture(scope="module")
def baseline():
    engine = Engine(ROOT)
    build = engine.build()
    assert build.problems == [], "the site has problems of its own:\n" + build.report()
    return engine, build


def _numbers_in(text: str, offset: int = 0) -> list[tuple[str, int, int]]:
    return [(m.group(), offset + m.start(), offset + m.end()) for m in _NUMBER.finditer(text)]


def checked_numbers(build) -> list[Site]:
    """Every checked number on the site, located to its column, with the value it is checked against."""
    sites: list[Site] = []
    for uri, doc in build.docs.items():
        lines = doc.text.splitlines()
        checks = [c for c in build.checks if c.path == doc.path]
        # Output blocks: the k-th number written on a line is the k-th check of that line.
        outputs: dict[int, list] = defaultdict(list)
        for check in checks:
            if check.what == "output":
                outputs[check.line].append(check)
        for line, line_checks in outputs.items():
            found = _numbers_in(lines[line - 1])
            assert [n for n, _, _ in found] == [c.documented for c in line_checks], (
                f"{doc.path}:{line}: cannot line up the written numbers with the checks")
            for (number, start, end), check in zip(found, line_checks):
                sites.append(Site(number, check.computed, uri, doc.path, line, start, end))
        # Prose ties: each tie's numbers, in order, against the looked-up value.
        tie_checks: dict[int, list] = defaultdict(list)
        for check in checks:
            if check.what != "output":
                tie_checks[check.line].append(check)
        for line, line_checks in tie_checks.items():
            ties = [t for t in doc.ties if t.line == line and t.op == "="]
            assert [t.documented for t in ties] == [c.documented for c in line_checks], (
                f"{doc.path}:{line}: cannot line up the ties with the checks")
            for tie, check in zip(ties, line_checks):
                text = lines[line - 1]
                match = _TIE.match(text, tie.start)
                assert match and match.end() == tie.end, f"{doc.path}:{line}: the tie is not where the parser put it"
                values = lookup(build.results[tie.snippet].values, tie.expr)
                import numpy as np

                computed = np.asarray(values, dtype=float).ravel().tolist()
                if tie.documented in BOOLEANS:
                    found = [(tie.documented, match.start("doc"), match.end("doc"))]
                    computed = [str(bool(values))]
                elif THOUSANDS is not None and THOUSANDS.fullmatch(tie.documented):  # "20,000" is one number
                    found = [(tie.documented, match.start("doc"), match.end("doc"))]
                else:
                    found = _numbers_in(match["doc"], match.start("doc"))
                assert len(found) == len(computed), f"{doc.path}:{line}: {tie.documented} vs {len(computed)} values"
                for (number, start, end), value in zip(found, computed):
                    sites.append(Site(number, value if isinstance(value, str) else repr(value), uri, doc.path, line,
                                      start, end))
    return sites


def _places(text: str) -> int:
    mantissa = text.lower().split("e")[0]
    return len(mantissa.split(".")[1]) if "." in mantissa else 0


def past_tolerance(number: str, computed: str) -> str:
    """``number`` moved one unit in its last written digit, away from ``computed``."""
    if number in BOOLEANS:
        return "False" if number == "True" else "True"
    if number.lower().lstrip("+-") in ("nan", "inf"):
        return "1.5"
    if "," in number:  # thousands separators: an integer
        new = int(number.replace(",", "")) + (-1 if Decimal(computed) >= int(number.replace(",", "")) else 1)
        return f"{new:,}"
    mantissa, exp = re.split(r"[eE]", number, maxsplit=1) if re.search(r"[eE]", number) else (number, None)
    scale = Decimal(10) ** int(exp) if exp is not None else Decimal(1)
    value = Decimal(mantissa)
    unit = Decimal(1).scaleb(-_places(mantissa))
    actual = Decimal(computed) if computed.lower().lstrip("+-") not in ("nan", "inf") else Decimal(0)
    new = value - unit if actual >= value * scale else value + unit
    text = f"{new:.{_places(mantissa)}f}"
    if mantissa.endswith("."):  # numpy's "1." style
        text += "."
    if text.startswith("-") and Decimal(text) == 0:
        text = text[1:]
    return text + number[len(mantissa):]


def within_tolerance(number: str, computed: str) -> str:
    """The computed value written with one more digit than ``number``: a different text that the
    documented interval contains, and whose own, narrower interval still contains the value."""
    if number in BOOLEANS or number.lower().lstrip("+-") in ("nan", "inf") or "e" in number.lower():
        return number
    number = number.replace(",", "")
    places = _places(number) + 1
    return str(Decimal(computed).quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_EVEN))


def _mutate(text: str, site: Site, new: str) -> str:
    lines = text.split("\n")
    line = lines[site.line - 1]
    assert line[site.start: site.end] == site.number
    lines[site.line - 1] = line[: site.start] + new + line[site.end:]
    return "\n".join(lines)


def test_the_mutations_are_right_on_their_own():
    assert past_tolerance("0.248", "0.2482") == "0.247"
    assert past_tolerance("0.248", "0.2475") == "0.249"  # the computed value at the low edge: move up
    assert past_tolerance("0.248", "0.2485") == "0.247"  # at the high edge: move down
    assert past_tolerance("1.", "1.0") == "0."
    assert past_tolerance("0.", "0.0") == "-1."
    assert past_tolerance("2", "2") == "1"
    assert past_tolerance("1.5e-03", "0.0015") == "1.4e-03"
    assert past_tolerance("-0.707", "-0.7071") == "-0.706"
    for number, computed in [("0.248", "0.2482"), ("0.248", "0.2485"), ("2", "2"), ("1.", "1.0"), ("-0.707", "-0.70710678")]:
        assert not Number(past_tolerance(number, computed)).accepts(computed), (number, computed)
        assert Number(number).accepts(within_tolerance(number, computed))
        assert Number(within_tolerance(number, computed)).accepts(computed)
    assert within_tolerance("0.248", "0.24817") == "0.2482"
    assert past_tolerance("20,000", "20000.0") == "19,999" and within_tolerance("20,000", "20000.0") == "20000.0"
    assert past_tolerance("True", "True") == "False" and within_tolerance("True", "True") == "True"


def test_every_checked_number_past_its_tolerance_fails_at_its_page_and_line(baseline):
    engine, build = baseline
    sites = checked_numbers(build)
    assert len(sites) >= len(build.checks), "fewer located numbers than checks"
    missed = []
    for site in sites:
        new = past_tolerance(site.number, site.computed)
        assert new in BOOLEANS or not Number(new).accepts(site.computed), f"{site}: {new} is not past the tolerance"
        mutated = engine.build(pages={site.uri: _mutate(build.docs[site.uri].text, site, new)})
        named = [p for p in mutated.problems if p.path == site.path and p.line == site.line]
        if not named:
            missed.append(f"{site.path}:{site.line}: {site.number} -> {new} (computed {site.computed}) was not caught; "
                          f"problems: {[str(p) for p in mutated.problems if p.path == site.path] or 'none'}")
    print(f"\n{len(sites)} checked numbers ({len(build.checks)} checks) on {len(build.docs)} pages mutated past "
          f"their tolerance: {len(sites) - len(missed)} caught ({100 * (len(sites) - len(missed)) / max(1, len(sites)):.0f}%)")
    assert missed == [], f"{len(missed)} mutations not caught:\n" + "\n".join(missed)


def test_every_checked_number_rewritten_within_tolerance_passes(baseline):
    engine, build = baseline
    sites = checked_numbers(build)
    by_page: dict[str, list[Site]] = defaultdict(list)
    for site in sites:
        by_page[site.uri].append(site)
    rewritten = 0
    for uri, page_sites in by_page.items():
        text = build.docs[uri].text
        # Right to left on each line, so earlier columns stay valid.
        for site in sorted(page_sites, key=lambda s: (s.line, -s.start)):
            new = within_tolerance(site.number, site.computed)
            rewritten += new != site.number
            text = _mutate(text, site, new)
        result = engine.build(pages={uri: text})
        problems = [str(p) for p in result.problems if p.path == build.docs[uri].path]
        assert problems == [], f"{uri}: values rewritten within tolerance were rejected:\n" + "\n".join(problems)
    print(f"\n{rewritten} checked numbers rewritten with one more digit, within tolerance: all pass")
