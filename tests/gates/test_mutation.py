"""The checker proves itself on the real site: every checked number, nudged past its tolerance, fails.

For each number the site checks (snipcheck's ``build.checks``: output-block numbers and prose
ties), the page text is copied and that one number is rewritten one unit in its last written digit,
away from the computed value. The computed value then lies outside the number's interval, so the
build must report a problem naming that page and that line. And the same number rewritten with one
more digit, still within tolerance of the computed value, must pass.

A range tie (a live measurement) is mutated to a range just above the measured value, which must
fail, and to a range around it, which must pass.

No MkDocs here: ``Engine.recheck`` checks the mutated text against the baseline's results (live
snippets are not run again for each mutation). The mutations past tolerance, one recheck each,
are shared out between two forked processes.
"""

from __future__ import annotations

import math
import multiprocessing
import os
import re
from collections import defaultdict
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from decimal import ROUND_HALF_EVEN, Decimal

import pytest
from sitekit import ROOT

from snipcheck import Engine
from snipcheck.numeric import Number
from snipcheck.read.regions import ComputedTie, OutputBlock, RangeTie

pytestmark = pytest.mark.slow
BOOLEANS = ("True", "False")


@dataclass
class Site:
    number: str  # as written on the page (for a range tie: "LOW..HIGH")
    computed: str  # what the snippet computed (or measured), as text Decimal reads exactly
    uri: str  # the page, relative to the docs folder
    path: str  # as problems name it: docs/PAGE.md
    line: int  # 1-based
    start: int  # column span of the number in that line
    end: int
    documented: Number | None = None  # the number as the checker reads it (its precision)
    is_range: bool = False


@pytest.fixture(scope="module")
def baseline():
    engine = Engine(ROOT)
    build = engine.build()
    assert build.problems == [], "the site has problems of its own:\n" + build.report()
    return engine, build


def checked_numbers(build) -> list[Site]:
    """Every checked number on the site, located to its column from the regions the checker read
    (nothing re-derived here), with the value it is checked against."""
    sites: list[Site] = []
    for uri, doc in build.docs.items():
        lines = doc.text.split("\n")
        for region in doc.regions:
            outcome = build.outcome(region)
            if isinstance(region, OutputBlock) and outcome.checks:
                numbers = [t for t in region.tokens if t.number is not None]
                cursor: dict[int, int] = defaultdict(int)
                for token, check in zip(numbers, outcome.checks, strict=True):
                    line = region.first_text_line + token.line
                    text = lines[line - 1]
                    start = text.find(token.text, max(cursor[line], len(region.indent) + token.column))
                    assert start >= 0, f"{doc.path}:{line}: cannot find {token.text!r} in the line"
                    cursor[line] = start + len(token.text)
                    sites.append(
                        Site(
                            token.text,
                            check.computed,
                            uri,
                            doc.path,
                            line,
                            start,
                            start + len(token.text),
                            token.number,
                        )
                    )
            elif isinstance(region, ComputedTie) and outcome.checks:
                text = lines[region.line - 1]
                assert text[region.doc_start : region.doc_end] == region.documented, (
                    f"{doc.path}:{region.line}: tie not where parsed"
                )
                flat = (
                    [("re", str(bool(outcome.value.data)))] if region.documented in BOOLEANS else outcome.value.flat()
                )
                assert len(flat) == len(region.value.atoms), (
                    f"{doc.path}:{region.line}: {region.documented} vs {len(flat)} values"
                )
                for atom, (_, value) in zip(region.value.atoms, flat, strict=True):
                    start = region.doc_start + atom.start
                    computed = (
                        value if isinstance(value, str) else (repr(value) if isinstance(value, float) else str(value))
                    )
                    sites.append(
                        Site(
                            atom.text, computed, uri, doc.path, region.line, start, start + len(atom.text), atom.number
                        )
                    )
            elif isinstance(region, RangeTie) and outcome.checks:
                sites.append(
                    Site(
                        f"{region.low.text}..{region.high.text}",
                        repr(outcome.value.data),
                        uri,
                        doc.path,
                        region.line,
                        region.doc_start,
                        region.doc_end,
                        is_range=True,
                    )
                )
    return sites


def past_range(measured: str) -> str:
    """A range just above the measured value: it must fail."""
    value = float(measured)
    low = math.floor(value) + 1
    return f"{low}..{low + 1}"


def within_range(measured: str) -> str:
    value = float(measured)
    return f"{math.floor(value) - 1}..{math.ceil(value) + 1}"


def _places(text: str) -> int:
    mantissa = text.lower().split("e")[0]
    return len(mantissa.split(".")[1]) if "." in mantissa else 0


def past_tolerance(number: str, computed: str) -> str:
    """``number`` moved one unit in its last written digit, away from ``computed``."""
    computed = computed.replace(",", "")  # a value printed with thousands separators
    if number.endswith("j"):  # an imaginary part: mutate the number, keep the j
        sign = number[0] if number[0] in "+-" else ""
        moved = past_tolerance(number[len(sign) : -1], computed.lstrip("+"))
        return (sign if not moved.startswith("-") else "") + moved + "j" if sign else moved + "j"
    number = number.replace("\u2212", "-")
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
    return text + number[len(mantissa) :]


def within_tolerance(number: str, computed: str) -> str:
    """The computed value written with one more digit than ``number``: a different text that the
    documented interval contains, and whose own, narrower interval still contains the value."""
    if number.endswith("j"):
        return number
    number = number.replace("\u2212", "-")
    if number in BOOLEANS or number.lower().lstrip("+-") in ("nan", "inf") or "e" in number.lower():
        return number
    number, computed = number.replace(",", ""), computed.replace(",", "")
    places = _places(number) + 1
    return str(Decimal(computed).quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_EVEN))


def _mutate(text: str, site: Site, new: str) -> str:
    lines = text.split("\n")
    line = lines[site.line - 1]
    assert line[site.start : site.end] == site.number
    lines[site.line - 1] = line[: site.start] + new + line[site.end :]
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
    for number, computed in [
        ("0.248", "0.2482"),
        ("0.248", "0.2485"),
        ("2", "2"),
        ("1.", "1.0"),
        ("-0.707", "-0.70710678"),
    ]:
        assert not Number(past_tolerance(number, computed)).accepts(computed), (number, computed)
        assert Number(number).accepts(within_tolerance(number, computed))
        assert Number(within_tolerance(number, computed)).accepts(computed)
    assert within_tolerance("0.248", "0.24817") == "0.2482"
    assert past_tolerance("20,000", "20000.0") == "19,999" and within_tolerance("20,000", "20000.0") == "20000.0"
    assert past_tolerance("True", "True") == "False" and within_tolerance("True", "True") == "True"
    assert past_tolerance("\u22120.5", "-0.5") == "-0.6"
    assert past_tolerance("+1.2j", "1.2") == "+1.1j"
    assert past_range("4.1") == "5..6" and within_range("4.1") == "3..6"
    for measured in ("4.1", "0.02", "12.0"):
        low, high = (Decimal(x) for x in past_range(measured).split(".."))
        assert not low <= Decimal(measured) <= high
        low, high = (Decimal(x) for x in within_range(measured).split(".."))
        assert low <= Decimal(measured) <= high


def test_the_gate_finds_and_mutates_range_ties(tmp_path):
    """The gate on a tiny project with a live run and a range tie (the real site may have none yet)."""
    (tmp_path / "docs").mkdir()
    (tmp_path / "snippets").mkdir()
    (tmp_path / "docs" / "p.md").write_text(
        '```python run="t.py" live\n```\n\nGrows {{ 3..5 ~ g }} and {{ 0.5 = h }}.\n'
    )
    (tmp_path / "snippets" / "t.py").write_text("g = 4.1\nh = 0.5\n")
    engine = Engine(tmp_path, check_determinism=False)
    build = engine.build()
    assert build.problems == []
    sites = checked_numbers(build)
    assert [(s.number, s.is_range) for s in sites] == [("3..5", True), ("0.5", False)]
    mutated = engine.recheck(build, {"p.md": _mutate(build.docs["p.md"].text, sites[0], past_range(sites[0].computed))})
    assert [str(p) for p in mutated.problems] == ["docs/p.md:4: documented 5..6, measured 4.1 (snippets/t.py)"]
    kept = engine.recheck(build, {"p.md": _mutate(build.docs["p.md"].text, sites[0], within_range(sites[0].computed))})
    assert kept.problems == []


def test_every_checked_number_past_its_tolerance_fails_at_its_page_and_line(baseline):
    engine, build = baseline
    sites = checked_numbers(build)
    assert len(sites) >= len(build.checks), "fewer located numbers than checks"
    mutations = []
    for site in sites:
        if site.is_range:
            new = past_range(site.computed)
        else:
            new = past_tolerance(site.number, site.computed)
            assert new in BOOLEANS or not Number(new).accepts(site.computed.lstrip("+")), (
                f"{site}: {new} is not past the tolerance"
            )
        mutations.append((site, new))
    pieces = on_both_cores(_uncaught, mutations, engine, build)
    checked = sum(count for count, _ in pieces)
    assert checked == len(mutations), f"{checked} of {len(mutations)} mutations were rechecked"
    missed = [m for _, found in pieces for m in found]
    caught = len(sites) - len(missed)
    print(
        f"\n{len(sites)} checked numbers ({len(build.checks)} checks) on {len(build.docs)} pages mutated past "
        f"their tolerance: {caught} caught ({100 * caught / max(1, len(sites)):.0f}%)"
    )
    assert missed == [], f"{len(missed)} mutations not caught:\n" + "\n".join(missed)


def _uncaught(engine: Engine, build, mutations: list[tuple[Site, str]]) -> tuple[int, list[str]]:
    """Each number mutated on its own (one recheck each): how many were rechecked, and those no
    problem names at their page and line."""
    missed = []
    for site, new in mutations:
        mutated = engine.recheck(build, {site.uri: _mutate(build.docs[site.uri].text, site, new)})
        named = [p for p in mutated.problems if p.path == site.path and p.line == site.line]
        if not named:
            missed.append(
                f"{site.path}:{site.line}: {site.number} -> {new} (computed {site.computed}) was not caught; "
                f"problems: {[str(p) for p in mutated.problems if p.path == site.path] or 'none'}"
            )
    return len(mutations), missed


_SHARED: tuple = ()  # what forked workers inherit: (work, engine, build, items)
_PIECES = 8  # more pieces than cores, so that a core done early takes the next one


def _work_on(start: int, stop: int) -> list:
    work, engine, build, items = _SHARED
    return work(engine, build, items[start:stop])


def on_both_cores(work, items: list, engine: Engine, build) -> list:
    """``work(engine, build, some_items)`` over ``items`` cut into pieces, in two forked processes
    (each inherits the engine, the build and what the checker has read; nothing is pickled but the
    answers), the answers in the order of the pieces. Where fork is not available, in this process."""
    global _SHARED
    cores = min(2, os.cpu_count() or 1)
    if cores < 2 or "fork" not in multiprocessing.get_all_start_methods():
        return [work(engine, build, items)]
    cuts = [len(items) * k // _PIECES for k in range(_PIECES + 1)]
    _SHARED = (work, engine, build, items)
    try:
        with ProcessPoolExecutor(cores, mp_context=multiprocessing.get_context("fork")) as pool:
            return list(pool.map(_work_on, cuts[:-1], cuts[1:]))
    finally:
        _SHARED = ()


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
            new = within_range(site.computed) if site.is_range else within_tolerance(site.number, site.computed)
            rewritten += new != site.number
            text = _mutate(text, site, new)
        result = engine.recheck(build, {uri: text})
        problems = [str(p) for p in result.problems if p.path == build.docs[uri].path]
        assert problems == [], f"{uri}: values rewritten within tolerance were rejected:\n" + "\n".join(problems)
    print(f"\n{rewritten} checked numbers rewritten with one more digit, within tolerance: all pass")
