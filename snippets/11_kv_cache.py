# %% setup
import numpy as np

import attn

# The model, prompt and generated tokens of 11_generate.py.
words = "<s> the cat sat on mat a dog ran to it .".split()
seed = 11
vocab, d_model, h, d_ff, N = len(words), 16, 4, 64, 2
# No token is padding.
config = attn.Config(vocab, d_model, h, d_ff, N, pad=None)
params = attn.init_decoder_only(np.random.default_rng(seed), config)
prompt = [words.index("<s>"), words.index("the")]
tokens, _ = attn.greedy_generate(params, prompt, config, steps=8)
n, n_prompt = len(tokens), len(prompt)

# %% cache
# One empty KVCache per layer.
caches = attn.new_caches(params, config, capacity=n)
# (n_prompt, vocab): the prompt in one call.
first = attn.decoder_only_step(params, tokens[:n_prompt], config, caches)
# One at a time.
rest = []
for i in range(n_prompt, n):
    token = tokens[i : i + 1]
    step = attn.decoder_only_step(params, token, config, caches)
    rest.append(step)
stepped = np.concatenate([first, *rest])  # (n, vocab)
# (n, vocab): one pass over everything.
full = attn.forward_decoder_only(params, tokens, config)

# One key per head and position.
cache_shape = caches[0].k.shape  # (h, n, d_k)
print(f"positions stored per layer: {[cache.length for cache in caches]}")
print(f"keys of layer 0: {cache_shape}  values: {caches[0].v.shape}")

# %% check
stored = sum(cache.nbytes for cache in caches)  # bytes of every layer's k and v buffers
itemsize = caches[0].k.itemsize  # 8: float64
formula = 2 * N * n * d_model * itemsize  # keys and values, N layers, n positions, d_model wide
assert np.abs(stepped - full).max() <= 1e-12, "every cached row must equal the full pass's (to 1e-12)"
assert attn.kv_cache_bytes(N, n, d_model, h) == stored == formula, "the cache must hold 2 N n d_model numbers"
print(f"cache bytes: {stored}  (2 N n d_model x {itemsize} bytes)")
