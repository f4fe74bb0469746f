"""Running RoPE past its training length: new rotation speeds for a context s times longer.

A model trained on sequences of L tokens has seen each RoPE pair i turn by at most
(L - 1) theta_i (:func:`attn.rope.rope_frequencies`). To read sL tokens, three published rules
change the speeds theta_i, and nothing else:

* position interpolation (Chen et al. 2023): every speed divided by s, the same as feeding
  positions m / s. Every angle stays within one position of the trained range; neighbours come s
  times closer.
* NTK-aware scaling (Peng et al. 2023, section 3.1, after a 2023 community post): a larger base,
  base * s^(d_k / (d_k - 2)). The fastest pair keeps its speed, the slowest is divided by s.
* YaRN's "NTK-by-parts" (Peng et al. 2023, section 3.2): pair i with wavelength
  lambda_i = 2 pi / theta_i fits r_i = L / lambda_i turns into L. Pairs with r_i > beta keep
  their speed, pairs with r_i < alpha are interpolated, and a linear ramp blends in between:
  theta_i' = (1 - gamma) theta_i / s + gamma theta_i, gamma = clip((r_i - alpha) / (beta - alpha), 0, 1).
  YaRN also scales the logits: q and k both by 0.1 ln(s) + 1 (section 3.4).

Taught on: docs/15-long-context.md
"""

import math

import numpy as np

from .rope import rope_frequencies


def _scale(scale):
    """The extension factor s >= 1, as a float."""
    if not isinstance(scale, (int, float)) or not scale >= 1:
        raise ValueError(f"scale must be a number >= 1, got {scale!r}")
    return float(scale)


def interpolated_frequencies(d_k, scale, base=10000.0):
    """Position interpolation: theta_i / s for every pair (positions m read as m / s).

    d_k: even width, scale: s >= 1 -> (d_k / 2,) float64.

    >>> interpolated_frequencies(4, 4)  # (d_k / 2,): 1 / 4, 0.01 / 4
    array([0.25  , 0.0025])

    Taught on: docs/15-long-context.md
    """
    return rope_frequencies(d_k, base) / _scale(scale)


def ntk_frequencies(d_k, scale, base=10000.0):
    """NTK-aware scaling: the speeds of a larger base, base * s^(d_k / (d_k - 2)).

    d_k: even width >= 4, scale: s >= 1 -> (d_k / 2,) float64; pair 0 keeps speed 1, the last pair
    is divided by exactly s.

    >>> ntk_frequencies(4, 4) / rope_frequencies(4)  # (d_k / 2,): the slowest pair s times slower
    array([1.  , 0.25])

    Taught on: docs/15-long-context.md
    """
    if not isinstance(d_k, int) or d_k < 4:
        raise ValueError(f"NTK-aware scaling needs an even d_k >= 4, got {d_k!r}")
    return rope_frequencies(d_k, base * _scale(scale) ** (d_k / (d_k - 2)))


def yarn_ramp(d_k, trained_length, base=10000.0, alpha=1.0, beta=32.0):
    """YaRN's gamma per pair: 1 keeps the speed, 0 interpolates it, a linear ramp between.

    r_i = trained_length / lambda_i turns of pair i in the trained length, lambda_i = 2 pi / theta_i;
    gamma_i = clip((r_i - alpha) / (beta - alpha), 0, 1). -> (d_k / 2,) float64 in [0, 1].

    >>> yarn_ramp(8, 64, alpha=1, beta=4).round(3)  # (d_k / 2,): 10.2, 1.02, 0.10, 0.01 turns in 64
    array([1.   , 0.006, 0.   , 0.   ])

    Taught on: docs/15-long-context.md
    """
    if not 0 <= alpha < beta:
        raise ValueError(f"need 0 <= alpha < beta, got alpha = {alpha!r}, beta = {beta!r}")
    turns = trained_length * rope_frequencies(d_k, base) / (2 * math.pi)  # (d_k / 2,): r_i
    return np.clip((turns - alpha) / (beta - alpha), 0.0, 1.0)


def yarn_frequencies(d_k, scale, trained_length, base=10000.0, alpha=1.0, beta=32.0):
    """YaRN's speeds: theta_i' = (1 - gamma_i) theta_i / s + gamma_i theta_i (:func:`yarn_ramp`).

    d_k: even width, scale: s >= 1, trained_length: L, alpha, beta: the ramp's ends in turns
    (1 and 32 for LLaMA in the paper) -> (d_k / 2,) float64.

    >>> (yarn_frequencies(8, 4, 64, alpha=1, beta=4) / rope_frequencies(8)).round(3)  # (d_k / 2,)
    array([1.   , 0.255, 0.25 , 0.25 ])

    Taught on: docs/15-long-context.md
    """
    theta = rope_frequencies(d_k, base)  # (d_k / 2,)
    gamma = yarn_ramp(d_k, trained_length, base, alpha, beta)  # (d_k / 2,)
    return (1 - gamma) * theta / _scale(scale) + gamma * theta


def yarn_logit_factor(scale):
    """YaRN's factor on both q and k, sqrt(1 / t) = 0.1 ln(s) + 1: the logits grow by its square.

    scale: s >= 1 -> float.

    >>> round(yarn_logit_factor(16), 4)  # 0.1 ln 16 + 1
    1.2773

    Taught on: docs/15-long-context.md
    """
    return 0.1 * math.log(_scale(scale)) + 1.0
