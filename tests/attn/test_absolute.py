"""attn.absolute: learned positions are rows of a table."""

import numpy as np
import pytest

import attn

# -------------------------------------------------------------- absolute --


def test_learned_positions_hand_out_copies_of_the_first_rows(rng):
    table = attn.init_learned_positions(rng, 5, 3)
    rows = attn.learned_positions(table, 4)
    np.testing.assert_array_equal(rows, table[:4])
    rows[0, 0] = 99.0
    assert table[0, 0] != 99.0
    assert attn.learned_positions(table, 0).shape == (0, 3)


def test_learned_positions_have_no_row_past_the_table(rng):
    table = attn.init_learned_positions(rng, 5, 3)
    with pytest.raises(ValueError, match="position 5 has no vector"):
        attn.learned_positions(table, 6)
    with pytest.raises(ValueError):
        attn.learned_positions(np.ones(5), 2)
    with pytest.raises(TypeError):
        attn.init_learned_positions(1, 5, 3)
