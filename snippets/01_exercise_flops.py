from attn.cost import attention_flops, attention_layer_flops, projection_flops, recurrent_flops

d = 1024  # the width of the paper's big model
n = 4096  # a long document

mix = attention_flops(n, d)  # scores and mix: 4 n^2 d
projections = projection_flops(n, d)  # W^Q, W^K, W^V, W^O: 8 n d^2
layer = attention_layer_flops(n, d)  # the two together
elman = recurrent_flops(n, d)  # a whole Elman layer: 4 n d^2
d_ff = 4 * d  # the feed-forward width of a whole block, as in the paper's models


def ffn_flops(m):
    """FLOPs of the block's feed-forward network over m tokens: x W_1, then hidden W_2."""
    return 2 * 2 * m * d * d_ff  # 4 m d d_ff = 16 m d^2


mix_over_projections = mix / projections  # 4 n^2 d / 8 n d^2 = n / (2 d)
layer_over_elman = layer / elman  # (8 n d^2 + 4 n^2 d) / 4 n d^2 = 2 + n / d

# Where the score-and-mix catches up with the projections: the smallest n with mix >= projections.
mix_reaches_projections_at = next(m for m in range(1, 8 * d) if attention_flops(m, d) >= projection_flops(m, d))
# ... and the rest of the block, projections plus feed-forward: 4 n^2 d = 24 n d^2 at n = 6 d.
mix_reaches_block_at = next(
    m for m in range(1, 8 * d) if attention_flops(m, d) >= projection_flops(m, d) + ffn_flops(m)
)
block_crossover_in_widths = mix_reaches_block_at / d

print(f"d = {d}, n = {n}")
print(f"score-and-mix: {mix}  projections: {projections}  ratio: {mix_over_projections}")
print(f"attention layer / Elman layer: {layer_over_elman}")
print(f"score-and-mix first reaches the projections at n = {mix_reaches_projections_at}")
print(f"... and projections plus feed-forward (d_ff = {d_ff}) at n = {mix_reaches_block_at}")
print(f"that is {block_crossover_in_widths} d")
