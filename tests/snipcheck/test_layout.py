"""Where the files a build adds stand: the figure-path rule, written once."""

from __future__ import annotations

import pytest

from snipcheck.layout import FIGURES_DIR, VERIFICATION_PAGE, figure_folder, figure_path, figure_snippet, figure_stem, figure_target, is_figure


def test_a_snippets_figures_stand_in_a_folder_named_after_it():
    assert figure_folder("02_steps.py") == "figures/02_steps"
    assert figure_path("02_steps.py", "steps.svg") == "figures/02_steps/steps.svg"
    assert figure_path("a.b.py", "sub/x.png") == "figures/a.b/sub/x.png"  # only the last suffix goes
    assert (FIGURES_DIR, VERIFICATION_PAGE) == ("figures", "verification.md")


@pytest.mark.parametrize(
    ("page", "src", "target"),
    [
        ("02-x.md", "figures/02_steps/steps.svg", "figures/02_steps/steps.svg"),
        ("part/02-x.md", "../figures/s/a.svg", "figures/s/a.svg"),
        ("part/02-x.md", "figures/s/a.svg", "part/figures/s/a.svg"),  # relative to the page, as a browser reads it
        ("02-x.md", "./figures/./s/../s/a.svg", "figures/s/a.svg"),
    ],
)
def test_an_image_link_resolves_from_its_page(page, src, target):
    assert figure_target(page, src) == target


@pytest.mark.parametrize(
    ("target", "figure", "stem"),
    [
        ("figures/s/a.svg", True, "s"),
        ("figures/s/deeper/a.svg", True, "s"),
        ("figures/a.svg", True, None),  # no snippet's folder
        ("part/figures/s/a.svg", False, None),
        ("figuresque/s/a.svg", False, None),
        ("assets/logo.svg", False, None),
    ],
)
def test_only_a_path_in_the_figures_folder_is_a_snippets_figure(target, figure, stem):
    assert is_figure(target) is figure
    assert figure_stem(target) == stem
    assert figure_snippet(target) == (None if stem is None else f"{stem}.py")
