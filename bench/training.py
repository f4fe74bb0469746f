"""Benchmark: one training step of the whole Transformer, and the share of it spent in attention.

Run from the repository root (``make bench`` runs it after bench/attention.py):

    .venv/bin/python bench/training.py [--repeat R] [--json PATH]

For each configuration it times, in the same rounds and in a shuffled order
each round (so the machine's load falls on all of them alike):

    step       attn.loss_and_gradients then attn.adam_step: one whole training
               step, forward, backward and update, as docs/10-training.md runs it
    attention  every multi-head attention sub-layer of that step, forward
               (attn.multi_head_attention) and backward
               (attn.multi_head_attention_backward), with the step's shapes and
               masks: N encoder self-attentions, N masked decoder
               self-attentions and N cross-attentions
    core       the same attentions without their projections:
               softmax(Q K^T / sqrt(d_k)) V forward
               (attn.scaled_dot_product_attention) and backward
               (attn.attention_backward) on (batch, h, n, d_k) heads

and reports medians, minimums and the two shares, attention / step and
core / step. Attention's share grows with the sequence length: at page 10's
six tokens the step is dominated by everything else; at 128 tokens the
n x n score matrices begin to count. A run of page 10's training is
``steps`` times the step time, printed for reference. The shares are ratios
of separately timed pieces, not a profile of one step: each piece is timed
on its own inputs of the step's shapes, which costs what the step pays for it
as long as the time does not depend on the values (it does not: no branch in
attn depends on them). Timings on a shared machine are evidence to read, not
a test; nothing here fails on a slow result.

Threads: run as a script, this file sets OMP_NUM_THREADS=1 and
OPENBLAS_NUM_THREADS=1 before numpy is imported, as bench/attention.py does.
"""

import os
import sys

if __name__ == "__main__":
    # Must happen before numpy is imported: OpenBLAS reads them at load time.
    os.environ["OMP_NUM_THREADS"] = "1"
    os.environ["OPENBLAS_NUM_THREADS"] = "1"
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import argparse  # noqa: E402
import json  # noqa: E402
import platform  # noqa: E402
import random  # noqa: E402
import statistics  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402

from attn import (  # noqa: E402
    Config,
    adam_step,
    attention_backward,
    causal_mask,
    init_adam,
    init_transformer,
    loss_and_gradients,
    multi_head_attention,
    multi_head_attention_backward,
    scaled_dot_product_attention,
    split_heads,
)

DEFAULT_JSON = Path(__file__).resolve().parent / "results-training.json"
PIECES = ("step", "attention", "core")

# name -> (model config, batch, source length m, target length n, training steps of one run)
CONFIGS = {
    "page 10, n = 6": (Config(vocab=12, d_model=32, h=2, d_ff=64, N=1, pad=11), 64, 6, 6, 300),
    "n = 128": (Config(vocab=100, d_model=64, h=4, d_ff=256, N=1, pad=0), 4, 128, 128, None),
}


class Workload:
    """One configuration's step and its attention pieces, ready to time (each call does the full work)."""

    def __init__(self, config, batch, m, n, seed=0):
        rng = np.random.default_rng(seed)
        self.config, self.rng = config, rng
        self.params = init_transformer(rng, config)
        self.state = init_adam(self.params)
        low = 1 if config.pad == 0 else 0
        self.source = rng.integers(low, config.vocab - 1, (batch, m))
        self.target = rng.integers(low, config.vocab - 1, (batch, n + 1))
        d = config.d_model
        self.x_src = rng.standard_normal((batch, m, d))
        self.x_tgt = rng.standard_normal((batch, n, d))
        self.d_src = rng.standard_normal((batch, m, d))
        self.d_tgt = rng.standard_normal((batch, n, d))
        source_keys = np.ones((batch, 1, m), dtype=bool)  # no padding in these batches, as in the step
        self_mask = causal_mask(n) & np.ones((batch, 1, n), dtype=bool)  # (batch, n, n)
        # (queries, keys, output gradient, mask, params) of every attention of the model, as the step runs them
        self.attentions = []
        for encoder, decoder in zip(self.params["encoder"], self.params["decoder"], strict=True):
            self.attentions.append((self.x_src, self.x_src, self.d_src, source_keys, encoder["self_attn"]))
            self.attentions.append((self.x_tgt, self.x_tgt, self.d_tgt, self_mask, decoder["self_attn"]))
            self.attentions.append((self.x_tgt, self.x_src, self.d_tgt, source_keys, decoder["cross_attn"]))
        h = config.h
        self.heads = [
            (split_heads(q, h), split_heads(kv, h), split_heads(kv, h), split_heads(g, h), np.expand_dims(mask, -3))
            for q, kv, g, mask, _ in self.attentions
        ]

    def step(self):
        loss, grads = loss_and_gradients(self.params, self.source, self.target, self.config, self.rng)
        adam_step(
            self.params, grads, self.state, 1e-4
        )  # the update is computed, then dropped: every round starts alike

    def attention(self):
        for x_q, x_kv, d_out, mask, params in self.attentions:
            multi_head_attention(x_q, x_kv, params, self.config.h, mask)
            multi_head_attention_backward(d_out, x_q, x_kv, params, self.config.h, mask)

    def core(self):
        for q, k, v, d_out, mask in self.heads:
            scaled_dot_product_attention(q, k, v, mask)
            attention_backward(d_out, q, k, v, mask)


def measure(workload, repeat=20, seed=0):
    """Median and minimum seconds of each piece over ``repeat`` rounds, in a shuffled order each round."""
    order = list(PIECES)
    shuffle = random.Random(seed)
    for piece in order:  # warm-up: first calls pay for lazy set-up
        getattr(workload, piece)()
    times = {piece: [] for piece in PIECES}
    for _ in range(repeat):
        shuffle.shuffle(order)
        for piece in order:
            start = time.perf_counter()
            getattr(workload, piece)()
            times[piece].append(time.perf_counter() - start)
    return times


def run(repeat=20, seed=0):
    results = []
    for name, (config, batch, m, n, steps) in CONFIGS.items():
        times = measure(Workload(config, batch, m, n, seed), repeat, seed)
        entry = {"name": name, "config": config._asdict(), "batch": batch, "m": m, "n": n, "steps": steps}
        for piece in PIECES:
            entry[piece] = {
                "times_ms": [1e3 * t for t in times[piece]],
                "median_ms": 1e3 * statistics.median(times[piece]),
                "min_ms": 1e3 * min(times[piece]),
            }
        for piece in ("attention", "core"):
            entry[piece]["share"] = entry[piece]["median_ms"] / entry["step"]["median_ms"]
        if steps:
            entry["run_seconds"] = steps * entry["step"]["median_ms"] / 1e3
        results.append(entry)
    return {"meta": _meta(repeat, seed), "results": results}


def _meta(repeat, seed):
    return {
        "repeat": repeat,
        "seed": seed,
        "python": platform.python_version(),
        "numpy": np.__version__,
        "machine": platform.machine(),
        "env": {var: os.environ.get(var) for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS")},
    }


def format_table(report):
    lines = [
        f"training step (attn.loss_and_gradients + attn.adam_step), single thread,"
        f" median of {report['meta']['repeat']} rounds (min in brackets)",
        f"{'configuration':18}{'step ms':>16}{'attention sub-layers':>26}{'softmax(QK^T/sqrt(d_k))V':>28}",
    ]
    for entry in report["results"]:
        step, attention, core = entry["step"], entry["attention"], entry["core"]
        lines.append(
            f"{entry['name']:18}{step['median_ms']:>8.2f} ({step['min_ms']:5.2f})"
            f"{attention['median_ms']:>11.2f} ms = {100 * attention['share']:4.1f}% of a step"
            f"{core['median_ms']:>11.2f} ms = {100 * core['share']:4.1f}%"
        )
    for entry in report["results"]:
        if "run_seconds" in entry:
            lines.append(f"{entry['name']}: {entry['steps']} steps = {entry['run_seconds']:.1f} s per training run")
    return "\n".join(lines)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=20, help="timed rounds per configuration")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", type=Path, default=DEFAULT_JSON)
    args = parser.parse_args(argv)
    report = run(args.repeat, args.seed)
    print(format_table(report))
    args.json.write_text(json.dumps(report, indent=1) + "\n")
    print(f"wrote {args.json}")


if __name__ == "__main__":
    main()
