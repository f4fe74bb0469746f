"""One handler per region type for a stage: found by the exact type, registered once, and a
region without one fails loudly, naming the stage and the type."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from snipcheck.dispatch import ByRegion
from snipcheck.read.regions import ComputedTie, NamedTie, Region, RunBlock


def test_a_region_goes_to_the_handler_of_its_exact_type():
    stage = ByRegion("STAGE")
    stage.register(RunBlock)(lambda region, extra: ("run", region.line, extra))
    stage.register(ComputedTie, NamedTie)(lambda region, extra: ("tie", extra))
    assert stage(RunBlock(3, 4), "x") == ("run", 3, "x")
    assert stage(ComputedTie(5, 5), "y") == ("tie", "y")
    assert stage.registered() == {RunBlock, ComputedTie, NamedTie}


def test_a_type_registered_twice_is_refused():
    stage = ByRegion("STAGE")
    stage.register(RunBlock)(print)
    with pytest.raises(TypeError, match="STAGE: RunBlock is registered twice"):
        stage.register(RunBlock)(print)


def test_a_subclass_does_not_borrow_its_parents_handler():
    """A new region kind must be registered in every stage, not fall through to its parent's."""

    @dataclass(eq=False)
    class Table(RunBlock):
        pass

    stage = ByRegion("RENDER")
    stage.register(RunBlock, Region)(lambda region: "run")
    with pytest.raises(LookupError, match=r"RENDER: no handler is registered for Table: register one with RENDER.register\(Table\)"):
        stage(Table(1, 1))
