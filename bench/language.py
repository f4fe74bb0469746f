"""Benchmark: one training step of section 13's character-level GPT, and attention's share of it.

Run from the repository root (``make bench`` runs it after bench/training.py):

    .venv/bin/python bench/language.py [--repeat R] [--json PATH]

It times, in the same rounds and in a shuffled order each round:

    step       attn.decoder_only_loss_and_gradients then attn.adam_step: one whole
               training step of docs/13-real-language.md (batch 32, context 32, N = 2,
               d_model = 64, h = 4, d_ff = 128, dropout 0.1)
    attention  the N masked self-attention sub-layers of that step, forward
               (attn.multi_head_attention) and backward (attn.multi_head_attention_backward)
    core       the same without their projections: softmax(Q K^T / sqrt(d_k)) V forward and
               backward on (batch, h, n, d_k) heads

and prints medians, the shares attention / step and core / step, the tokens per second a step
processes (batch x context predictions), and the page's 400 steps at the median step time. The
tokens are random ids of the page's 67-character vocabulary: no time depends on their values, so
the benchmark needs no text. Timings on a shared machine are evidence to read, not a test.

Threads: run as a script, this file sets OMP_NUM_THREADS=1 and OPENBLAS_NUM_THREADS=1 before
numpy is imported, as bench/training.py does.
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
import statistics  # noqa: E402
from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402

from attn import (  # noqa: E402
    Config,
    adam_step,
    attention_backward,
    causal_mask,
    decoder_only_loss_and_gradients,
    init_adam,
    init_decoder_only,
    multi_head_attention,
    multi_head_attention_backward,
    scaled_dot_product_attention,
    split_heads,
)
from bench.training import PIECES, _meta, measure  # noqa: E402

DEFAULT_JSON = Path(__file__).resolve().parent / "results-language.json"
CONFIG = Config(vocab=67, d_model=64, h=4, d_ff=128, N=2, p_drop=0.1, eps_ls=0.0, pad=None)
BATCH, CONTEXT, STEPS = 32, 32, 400


class Workload:
    """The page's step and its attention pieces, ready to time (each call does the full work)."""

    def __init__(self, seed=0):
        rng = np.random.default_rng(seed)
        self.rng = rng
        self.params = init_decoder_only(rng, CONFIG)
        self.state = init_adam(self.params)
        self.tokens = rng.integers(0, CONFIG.vocab, (BATCH, CONTEXT + 1))  # (batch, n + 1)
        self.x = rng.standard_normal((BATCH, CONTEXT, CONFIG.d_model))  # (batch, n, d_model)
        self.d_out = rng.standard_normal((BATCH, CONTEXT, CONFIG.d_model))
        self.mask = causal_mask(CONTEXT) & np.ones((BATCH, 1, CONTEXT), dtype=bool)  # (batch, n, n)
        h = CONFIG.h
        self.heads = (split_heads(self.x, h), split_heads(self.d_out, h), np.expand_dims(self.mask, -3))

    def step(self):
        _, grads = decoder_only_loss_and_gradients(self.params, self.tokens, CONFIG, self.rng)
        adam_step(self.params, grads, self.state, 1e-4)  # computed, then dropped: every round starts alike

    def attention(self):
        for layer in self.params["layers"]:
            multi_head_attention(self.x, self.x, layer["self_attn"], CONFIG.h, self.mask)
            multi_head_attention_backward(self.d_out, self.x, self.x, layer["self_attn"], CONFIG.h, self.mask)

    def core(self):
        q, d_out, mask = self.heads
        for _ in self.params["layers"]:
            scaled_dot_product_attention(q, q, q, mask)
            attention_backward(d_out, q, q, q, mask)


def run(repeat=20, seed=0):
    times = measure(Workload(seed), repeat, seed)
    entry = {"config": CONFIG._asdict(), "batch": BATCH, "context": CONTEXT, "steps": STEPS}
    for piece in PIECES:
        entry[piece] = {"median_ms": 1e3 * statistics.median(times[piece]), "min_ms": 1e3 * min(times[piece])}
    for piece in ("attention", "core"):
        entry[piece]["share"] = entry[piece]["median_ms"] / entry["step"]["median_ms"]
    entry["tokens_per_second"] = BATCH * CONTEXT / (entry["step"]["median_ms"] / 1e3)
    entry["run_seconds"] = STEPS * entry["step"]["median_ms"] / 1e3
    return {"meta": _meta(repeat, seed), "result": entry}


def format_table(report):
    entry = report["result"]
    step, attention, core = entry["step"], entry["attention"], entry["core"]
    return "\n".join(
        [
            f"section 13's GPT, training step (attn.decoder_only_loss_and_gradients + attn.adam_step),"
            f" single thread, median of {report['meta']['repeat']} rounds",
            f"  step {step['median_ms']:.1f} ms (min {step['min_ms']:.1f}); {entry['tokens_per_second']:,.0f} tokens/s",
            f"  attention sub-layers {attention['median_ms']:.1f} ms = {100 * attention['share']:.1f}% of a step;"
            f" softmax(QK^T/sqrt(d_k))V {core['median_ms']:.1f} ms = {100 * core['share']:.1f}%",
            f"  {entry['steps']} steps = {entry['run_seconds']:.1f} s per training run",
        ]
    )


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=20, help="timed rounds")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", type=Path, default=DEFAULT_JSON)
    args = parser.parse_args(argv)
    report = run(args.repeat, args.seed)
    print(format_table(report))
    args.json.write_text(json.dumps(report, indent=1) + "\n")
    print(f"wrote {args.json}")


if __name__ == "__main__":
    main()
