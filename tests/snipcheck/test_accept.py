"""Accepting an intended change rewrites documented values only, and shows the diff."""

from __future__ import annotations

from snipcheck import accepted_text
from snipcheck.cli import main
from snipcheck.report.accept import unified_diff

PAGE = '''# P

Some prose with 7 typed words.

```python run="one.py"
```

```output
weights: [0.100 0.900]
```

The first weight is {{ 0.10 = w[0] }}, the list {{ [0.1, 0.9] = w }}; quoted {{ 27.3 @ a paper }}.
'''


def test_accept_rewrites_drifted_values_and_nothing_else(project):
    project.page("p.md", PAGE)
    project.snippet("one.py", 'w = [0.2482, 0.7518]\nprint("weights: [" + " ".join(f"{x:.3f}" for x in w) + "]")\n')
    build = project.build()
    doc = build.docs["p.md"]
    after = accepted_text(doc, build)
    assert after == PAGE.replace("[0.100 0.900]", "[0.248 0.752]").replace("{{ 0.10 =", "{{ 0.25 =").replace(
        "[0.1, 0.9] = w", "[0.2, 0.8] = w")
    diff = unified_diff("docs/p.md", doc.text, after)
    changed = [line for line in diff.splitlines()[2:] if line[:1] in "+-"]
    assert len(changed) == 4  # two lines out, two lines in


def test_accept_command_writes_pages_then_check_passes(project, capsys):
    project.page("p.md", PAGE)
    project.snippet("one.py", 'w = [0.2482, 0.7518]\nprint("weights: [" + " ".join(f"{x:.3f}" for x in w) + "]")\n')
    assert main(["check", "--root", str(project.root)]) == 1
    assert main(["accept", "--root", str(project.root)]) == 0
    assert "+weights: [0.248 0.752]" in capsys.readouterr().out
    assert main(["check", "--root", str(project.root)]) == 0
