import numpy as np

from attn import Config, greedy_generate, init_decoder_only

# The model of 11_teacher_forcing.py: same words, seed and sizes.
words = "<s> the cat sat on mat a dog ran to it .".split()
seed = 11
vocab, d_model, h, d_ff, N = len(words), 16, 4, 64, 2
# No token is padding.
config = Config(vocab, d_model, h, d_ff, N, pad=None)
params = init_decoder_only(np.random.default_rng(seed), config)

prompt = [words.index("<s>"), words.index("the")]
steps = 8
# Without a cache: a full causal pass over the whole sequence
# for every new token.
tokens_full, logits_full = greedy_generate(params, prompt, config, steps, use_cache=False)
# With a cache: the prompt once, then one token per step.
tokens_cached, logits_cached = greedy_generate(params, prompt, config, steps, use_cache=True)

max_abs_diff = np.abs(logits_cached - logits_full).max()
text = " ".join(words[t] for t in tokens_cached)
print(f"generated: {text}")
print(f"logits per step: {logits_cached.shape}")
same_tokens = np.array_equal(tokens_cached, tokens_full)
assert same_tokens, "the cache must not change the generated tokens"
assert max_abs_diff <= 1e-12, "logits with and without the cache must agree to 1e-12 (float64 rounding)"
