"""attn.moe: routing, the balance loss and capacity against loops and hand calculations."""

import numpy as np
import pytest

import attn


@pytest.fixture
def layer(rng):
    return attn.init_moe(rng, d_model=6, d_ff=10, experts=8)


def moe_loop(x, params, k):
    """Each token alone: sort its logits, softmax the top k, sum the chosen experts."""
    out = np.zeros_like(x)
    for t, token in enumerate(x):
        logits = token @ params["router"]
        top = sorted(range(len(logits)), key=lambda e: -logits[e])[:k]
        w = np.exp([logits[e] for e in top])
        w /= w.sum()
        for weight, e in zip(w, top, strict=True):
            out[t] += weight * attn.swiglu_feed_forward(token[None], params["experts"][e])[0]
    return out


def test_layer_matches_the_token_by_token_loop(rng, layer):
    x = rng.standard_normal((12, 6))
    np.testing.assert_allclose(attn.moe_feed_forward(x, layer, k=2), moe_loop(x, layer, 2), atol=1e-12)


def test_leading_axes_are_one_batch_of_tokens(rng, layer):
    x = rng.standard_normal((3, 4, 6))
    flat = attn.moe_feed_forward(x.reshape(12, 6), layer, 2, capacity_factor=1.0)
    np.testing.assert_array_equal(attn.moe_feed_forward(x, layer, 2, capacity_factor=1.0), flat.reshape(3, 4, 6))


def test_route_by_hand():
    chosen, gates, probs = attn.route_top_k(np.array([[1.0]]), np.array([[0.0, 2.0, 1.0, 2.0]]), k=2)
    assert chosen.tolist() == [[1, 3]]  # the tie between experts 1 and 3 goes to the lower index
    np.testing.assert_allclose(gates, [[0.5, 0.5]])
    e = np.exp([0.0, 2.0, 1.0, 2.0])
    np.testing.assert_allclose(probs, [e / e.sum()])


@pytest.mark.parametrize("experts", [2, 8, 64])
def test_balance_loss_of_uniform_and_collapsed_routers(experts):
    tokens = 4 * experts
    uniform = np.full((tokens, experts), 1 / experts)
    assert attn.load_balancing_loss(uniform, (np.arange(tokens) % experts)[:, None]) == pytest.approx(1.0)
    collapsed = np.zeros((tokens, experts))
    collapsed[:, 0] = 1.0
    assert attn.load_balancing_loss(collapsed, np.zeros((tokens, 1), int)) == pytest.approx(experts)


def test_balance_loss_by_hand():
    # 2 experts, 2 tokens, top-1: f = (1, 0), P = (0.7, 0.3) -> 2 * 0.7
    probs = np.array([[0.8, 0.2], [0.6, 0.4]])
    assert attn.load_balancing_loss(probs, np.array([[0], [0]])) == pytest.approx(1.4)


def test_capacity_by_hand_and_against_a_loop(rng):
    assert attn.expert_capacity(32, 8, 1.0, k=2) == 8
    assert attn.expert_capacity(10, 4, 1.0) == 3  # 2.5 rounded up
    chosen = rng.integers(0, 4, (20, 2))
    keep = attn.within_capacity(chosen, 4, 3)
    seen, expected = [0] * 4, np.zeros((20, 2), bool)
    for slot in range(2):
        for t in range(20):
            seen[chosen[t, slot]] += 1
            expected[t, slot] = seen[chosen[t, slot]] <= 3
    np.testing.assert_array_equal(keep, expected)


def test_a_token_over_capacity_gets_nothing_from_that_expert(rng, layer):
    x = np.repeat(rng.standard_normal((1, 6)), 5, axis=0)  # 5 copies of one token: the same two experts
    full = attn.moe_feed_forward(x, layer, k=2)
    # capacity ceil(2 * 5 * 0.3 / 8) = 1: only the first copy is served, by both its experts
    capped = attn.moe_feed_forward(x, layer, k=2, capacity_factor=0.3)
    np.testing.assert_allclose(capped[0], full[0], atol=1e-12)
    np.testing.assert_array_equal(capped[1:], 0.0)


@pytest.mark.parametrize(
    "call, error, message",
    [
        (lambda: attn.route_top_k(np.ones((2, 3)), np.ones((3, 4)), 5), ValueError, "k = 5 exceeds the 4 experts"),
        (lambda: attn.load_balancing_loss(np.ones((2, 3)), np.ones((3, 1), int)), ValueError, "must agree"),
        (lambda: attn.load_balancing_loss(np.ones((2, 3)), np.full((2, 1), 3)), ValueError, "outside 0 .. 2"),
        (lambda: attn.expert_capacity(8, 4, 0.0), ValueError, "capacity_factor"),
        (lambda: attn.within_capacity(np.zeros(3, int), 2, 1), ValueError, r"\(T, k\)"),
        (lambda: attn.init_moe(None, 4, 4, 2), TypeError, "Generator"),
    ],
)
def test_hostile_input_is_refused(call, error, message):
    with pytest.raises(error, match=message):
        call()
