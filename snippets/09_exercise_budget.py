import numpy as np

from attn import Config, count_parameters, init_decoder_layer, init_encoder_layer, parameter_counts

# The base model's sizes (Table 3) and the vocabulary this page uses for it.
d_model, d_ff, N, vocab = 512, 2048, 6, 37000
rng = np.random.default_rng(0)
encoder_layer_count = count_parameters(init_encoder_layer(rng, d_model, d_ff))  # from the real arrays
decoder_layer_count = count_parameters(init_decoder_layer(rng, d_model, d_ff))

rule_encoder = 4 * d_model**2 + 2 * d_model * d_ff  # W_q, W_k, W_v, W_o + W_1, W_2: 12 d^2 at d_ff = 4 d
rule_decoder = rule_encoder + 4 * d_model**2  # plus the cross-attention: 16 d^2
left_out = encoder_layer_count - rule_encoder  # FFN biases d_ff + d_model, two LayerNorms 4 d_model
rule_share = [rule_encoder / encoder_layer_count, rule_decoder / decoder_layer_count]

counts = parameter_counts(Config(vocab=vocab, d_model=d_model, d_ff=d_ff, N=N))
stacks = N * (encoder_layer_count + decoder_layer_count)
stacks_agree = stacks == counts["total"] - counts["embedding"]
assert stacks_agree, "the layers counted from their arrays must agree with attn.parameter_counts"
embedding, total = counts["embedding"], counts["total"]
embedding_share = embedding / total

print(f"encoder layer: {encoder_layer_count:,}  12 d^2 = {rule_encoder:,}  left out: {left_out:,}")
print(f"decoder layer: {decoder_layer_count:,}  16 d^2 = {rule_decoder:,}")
print(f"the rule's share of each: {np.round(rule_share, 4).tolist()}")
print(f"{N} + {N} layers: {stacks:,}  embedding: {embedding:,}  total: {total:,}")
print(f"embedding share: {embedding_share:.3f}")
