"""attn.flashio: HBM traffic of standard attention and FlashAttention, counted by running them."""

import numpy as np
import pytest

import attn


@pytest.mark.parametrize(
    "d, sram, expected", [(64, 50_000, (64, 196)), (4, 32, (2, 2)), (2, 1, (1, 1)), (8, 1000, (8, 32))]
)
def test_block_sizes_by_hand(d, sram, expected):
    assert attn.flash_block_sizes(d, sram) == expected


@pytest.mark.parametrize("n, d, sram", [(10, 4, 32), (16, 4, 64), (7, 3, 40), (33, 8, 256), (5, 2, 1000)])
def test_counted_runs_match_the_closed_forms_and_the_blockwise_kernel(rng, n, d, sram):
    q, k, v = rng.standard_normal((3, n, d))
    reference = attn.plain_attention(q, k, v)
    out, lse, hbm = attn.flash_attention_io(q, k, v, sram)
    assert (hbm.reads, hbm.writes) == attn.flash_hbm_accesses(n, d, sram)
    b_r, b_c = attn.flash_block_sizes(d, sram)
    tiled = attn.blockwise_attention(q, k, v, block_size=b_r, key_block_size=b_c)
    np.testing.assert_allclose(out, tiled, rtol=0, atol=1e-12)
    np.testing.assert_allclose(out, reference, rtol=0, atol=1e-12)
    scores = q @ k.T / np.sqrt(d)
    np.testing.assert_allclose(lse, np.log(np.exp(scores).sum(axis=1)), rtol=1e-12)
    out_std, hbm_std = attn.standard_attention_io(q, k, v)
    assert (hbm_std.reads, hbm_std.writes) == attn.standard_hbm_accesses(n, d)
    np.testing.assert_allclose(out_std, reference, rtol=0, atol=1e-12)


def test_standard_accesses_by_hand():
    n, d = 5, 3
    reads = n * d + n * d + n * n + n * n + n * d  # Q, K, S, P, V
    writes = n * n + n * n + n * d  # S, P, O
    assert attn.standard_hbm_accesses(n, d) == (reads, writes)


def test_flash_traffic_falls_as_sram_grows_and_scales_as_theorem_2():
    n, d = 4096, 64
    totals = [sum(attn.flash_hbm_accesses(n, d, m)) for m in (4096, 16384, 65536)]
    assert totals[0] > totals[1] > totals[2]
    # Theta(n^2 d^2 / M): four times the SRAM, about a quarter of the n d T_c term
    assert totals[0] / totals[1] == pytest.approx(4, rel=0.2)


def test_weights_from_logsumexp_rebuild_the_softmax_tile_by_tile(rng):
    q, k, v = rng.standard_normal((3, 12, 4))
    _, lse, _ = attn.flash_attention_io(q, k, v, sram=32)
    full = attn.softmax(q @ k.T / 2.0)
    np.testing.assert_allclose(attn.weights_from_logsumexp(q[2:5], k[4:9], lse[2:5]), full[2:5, 4:9], atol=1e-14)
    with pytest.raises(ValueError, match="lse"):
        attn.weights_from_logsumexp(q, k, lse[:3])


def test_io_runs_refuse_mismatched_shapes_and_leave_inputs_alone(rng):
    q = rng.standard_normal((6, 4))
    before = q.copy()
    attn.flash_attention_io(q, q, q, 32)
    np.testing.assert_array_equal(q, before)
    with pytest.raises(ValueError, match="one shape"):
        attn.flash_attention_io(q, q[:5], q, 32)


@pytest.mark.parametrize("d, sram", [(0, 10), (4, 0), (2.5, 10)])
def test_block_sizes_refuse_non_positive_or_fractional_sizes(d, sram):
    with pytest.raises((ValueError, TypeError)):
        attn.flash_block_sizes(d, sram)
