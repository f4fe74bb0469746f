import platform
import time

import numpy as np

from attn import Config, greedy_generate, init_decoder_only, token_flops

seed = 0
vocab, d_model, h, d_ff, N = 64, 128, 4, 512, 2
config = Config(vocab, d_model, h, d_ff, N, pad=None)  # no token is padding
params = init_decoder_only(np.random.default_rng(seed), config)
prompt, steps = [0], 95  # 96 tokens in the end
repeats = 2


def best_seconds(use_cache):
    """The least CPU time of `repeats` complete generations (time.process_time: waiting is left out)."""
    times = []
    for _ in range(repeats):
        start = time.process_time()
        greedy_generate(params, prompt, config, steps, use_cache=use_cache)
        times.append(time.process_time() - start)
    return min(times)


greedy_generate(params, prompt, config, 4)  # warm-up
without = best_seconds(use_cache=False)
with_cache = best_seconds(use_cache=True)
speedup = without / with_cache

# The same work in FLOPs, every layer: the step that picks token n reads n positions, n = 1 .. steps.
flops_without = N * sum(token_flops(n, d_model, d_ff, cached=False) for n in range(1, steps + 1))
flops_with = N * sum(token_flops(n, d_model, d_ff, cached=True) for n in range(1, steps + 1))

flops_ratio = flops_without / flops_with
rate_without, rate_with = flops_without / without / 1e9, flops_with / with_cache / 1e9  # GFLOP/s
rate_ratio = rate_without / rate_with  # = flops_ratio / speedup

print(f"{platform.machine()}, {platform.system()}, numpy {np.__version__}, one thread")
print(f"{steps} new tokens, d_model = {d_model}, N = {N}, least CPU time of {repeats} runs")
print(f"{'':18}{'seconds':>9}{'GFLOP':>8}{'GFLOP/s':>9}")
print(f"{'without the cache':18}{without:>9.3f}{flops_without / 1e9:>8.2f}{rate_without:>9.2f}")
print(f"{'with the cache':18}{with_cache:>9.3f}{flops_with / 1e9:>8.2f}{rate_with:>9.2f}")
print(f"speed-up: {speedup:.1f}x   ratio of FLOPs: {flops_ratio:.0f}x")
