import numpy as np

from attn import count_parameters, init_encoder_layer, token_flops

d_model, d_ff = 512, 2048  # the paper's base model: d_ff = 4 d_model
d = d_model
layer = init_encoder_layer(np.random.default_rng(0), d_model, d_ff)  # real arrays, counted below
attention = count_parameters(layer["self_attn"])  # W_q, W_k, W_v, W_o: (d, d) each
feed_forward = count_parameters(layer["ffn"])  # W_1 (d, d_ff), b_1, W_2 (d_ff, d), b_2
norms = count_parameters([layer["norm1"], layer["norm2"]])  # gamma and beta, twice
total = count_parameters(layer)
attention_pct, ffn_pct = 100 * attention / total, 100 * feed_forward / total

# Forward FLOPs for one token (2 per multiply-add): every weight matrix is used once per token,
# then the token's query reads n keys and n values (4 n d over all heads).
weight_flops = 2 * (attention + feed_forward - (d_ff + d))  # biases are additions, not products
lengths = [512, 3072, 8192]
mixing = [4 * n * d for n in lengths]
share_pct = [100 * m / (weight_flops + m) for m in mixing]  # of the token's FLOPs in the layer
crossover = weight_flops // (4 * d)  # n at which the two are equal
assert attention == 4 * d * d, "attention's weights are not 4 d^2"
assert feed_forward == 8 * d * d + d_ff + d, "the feed-forward parameters are not 8 d^2 + d_ff + d"
assert weight_flops == 24 * d * d, "the weights' FLOPs per token are not 24 d^2"
assert all(
    token_flops(n, d_model, d_ff, cached=True) == weight_flops + m for n, m in zip(lengths, mixing, strict=True)
), "attn.token_flops disagrees with the count above"

print(f"one encoder layer, d_model = {d_model}, d_ff = {d_ff}, counted from its arrays")
print(f"attention     {attention:>9,} = 4 d^2")
print(f"feed-forward  {feed_forward:>9,} = 8 d^2 + d_ff + d")
print(f"layer norms   {norms:>9,}")
print(f"total         {total:>9,}: attention {attention_pct:.1f}%, feed-forward {ffn_pct:.1f}%")
print(f"FLOPs per token, weights: {weight_flops:,} = 24 d^2")
print(f"{'n':>6} {'4 n d':>12} {'share of the token':>19}")
for n, m, s in zip(lengths, mixing, share_pct, strict=True):
    print(f"{n:>6} {m:>12,} {s:>18.1f}%")
print(f"equal at n = {crossover} = 6 d_model")
