"""Accessibility: axe-core (pinned, from npm) on every page, in both palettes.

Zero violations of serious or critical impact. Problems that come from the Material theme are
fixed in overrides/ or in the marked section of docs/stylesheets/extra.css, never by turning an
axe rule off.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest
from browsertour import BLOCKING
from sitekit import AXE_JS, ROOT

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def test_axe_finds_no_serious_or_critical_violation_on_any_page(tour):
    assert tour.axe_available, f"{AXE_JS} is missing: run `make browser` (npm ci in tests/gates) first"
    by_impact: Counter = Counter()
    by_rule: Counter = Counter()
    failures = []
    runs = 0
    for visit in tour.visits:
        for palette, violations in visit.axe.items():
            runs += 1
            for v in violations:
                by_impact[v["impact"] or "none"] += len(v["nodes"])
                by_rule[(v["id"], v["impact"])] += len(v["nodes"])
                if v["impact"] in BLOCKING:
                    for node in v["nodes"][:5]:
                        failures.append(
                            f"{visit.page or '/'} [{palette}] {v['impact']} {v['id']} ({v['help']}): "
                            f"{node['target']}\n      {node['html']}\n      {node['summary']}"
                        )
    print(
        f"\naxe-core on {len(tour.visits)} pages x {runs // max(1, len(tour.visits))} palettes = {runs} runs; "
        f"violating nodes by impact: {dict(by_impact) or 'none'}"
    )
    for (rule, impact), count in sorted(by_rule.items()):
        print(f"  {impact:>8} {rule}: {count} nodes")
    assert failures == [], f"{len(failures)} serious/critical axe findings:\n" + "\n".join(failures)


def test_the_search_dialog_override_is_materials_own_plus_its_name():
    """overrides/partials/search.html is Material's file with one attribute added: if Material changes
    the file (an upgrade), this fails, and the copy is made again from the new version."""
    import material

    original = (Path(material.__file__).parent / "templates" / "partials" / "search.html").read_text(encoding="utf-8")
    ours = (ROOT / "overrides" / "partials" / "search.html").read_text(encoding="utf-8")
    header = re.compile(r"^\{#-.*?-#\}\n", re.DOTALL)
    name = " aria-label=\"{{ lang.t('search') }}\""
    assert name in ours
    assert header.sub("", ours).replace(name, "", 1) == header.sub("", original)
