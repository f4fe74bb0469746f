# %% code
import numpy as np
import torch
import torch.nn.functional as F

from attn import KVCache, cached_self_attention, causal_mask, init_multi_head, multi_head_attention


def split(t, h):
    """(..., t, d_model) -> (..., h, t, d_k)."""
    return t.unflatten(-1, (h, -1)).transpose(-3, -2)


def decode_step(x_new, W_q, W_k, W_v, W_o, h, cache):
    """One new token: x_new (1, d_model), cache (keys, values),
    (h, t, d_k) each -> out (1, d_model), and the cache with
    the new key and value appended, (h, t + 1, d_k)."""
    # (h, 1, d_k) each
    q, k, v = (split(x_new @ W, h) for W in (W_q, W_k, W_v))
    keys = torch.cat([cache[0], k], dim=-2)  # (h, t + 1, d_k)
    values = torch.cat([cache[1], v], dim=-2)
    scores = q @ keys.transpose(-2, -1) / q.shape[-1] ** 0.5
    # (h, 1, t + 1): no mask needed
    weights = scores.softmax(dim=-1)
    return (weights @ values).transpose(-3, -2).flatten(-2) @ W_o, (keys, values)


seed, n, d_model, h = 0, 6, 16, 4
rng = np.random.default_rng(seed)
# (n, d_model): a prompt of n - 1 tokens, then one new token.
x = rng.standard_normal((n, d_model))
params = init_multi_head(rng, d_model)
W = [torch.from_numpy(params[name]) for name in ("W_q", "W_k", "W_v", "W_o")]

prompt, new = torch.from_numpy(x[:-1]), torch.from_numpy(x[-1:])
# (h, n - 1, d_k) each
cache = (split(prompt @ W[1], h), split(prompt @ W[2], h))
out, (keys, values) = decode_step(new, *W, h, cache)  # (1, d_model)

print(f"cache after the step: keys {tuple(keys.shape)}, values {tuple(values.shape)}")

# %% checks
attn_cache = KVCache(heads=h, d_k=d_model // h, capacity=n)
cached_self_attention(x[:-1], params, h, attn_cache)  # the prompt fills attn's cache
same_64 = np.allclose(out.numpy(), cached_self_attention(x[-1:], params, h, attn_cache), rtol=0, atol=1e-12)
full_pass = multi_head_attention(x, x, params, h, mask=causal_mask(n))[-1:]  # (1, d_model): no cache
same_full = np.allclose(out.numpy(), full_pass, rtol=0, atol=1e-12)

x32 = torch.from_numpy(x.astype(np.float32))
W32 = [w.float() for w in W]
out_32, _ = decode_step(x32[-1:], *W32, h, (split(x32[:-1] @ W32[1], h), split(x32[:-1] @ W32[2], h)))
params32 = {name: w.astype(np.float32) for name, w in params.items()}
cache32 = KVCache(heads=h, d_k=d_model // h, capacity=n, dtype=np.float32)
cached_self_attention(x[:-1].astype(np.float32), params32, h, cache32)
same_32 = np.allclose(
    out_32.numpy(), cached_self_attention(x[-1:].astype(np.float32), params32, h, cache32), rtol=0, atol=1e-5
)

q = split(new @ W[0], h)  # (h, 1, d_k)
via_kernel = F.scaled_dot_product_attention(q, keys, values).transpose(-3, -2).flatten(-2) @ W[3]  # (1, d_model)
same_builtin = torch.allclose(out, via_kernel, rtol=0, atol=1e-12)
assert same_64, "the PyTorch step must equal attn.cached_self_attention in float64 (to 1e-12)"
assert same_full, "the PyTorch step must equal the last row of a full causal pass (to 1e-12)"
assert same_32, "the PyTorch step must equal attn in float32 (to 1e-5)"
assert same_builtin, "the PyTorch step must equal F.scaled_dot_product_attention (to 1e-12)"
