# %% forward
import numpy as np

from attn import (
    Config,
    count_parameters,
    decoder_only_loss_and_gradients,
    forward_decoder_only,
    greedy_generate,
    init_decoder_only,
    init_transformer,
    parameter_counts,
)

config = Config(vocab=12, d_model=16, h=2, d_ff=32, N=2, pad=0)
rng = np.random.default_rng(0)
params = init_decoder_only(rng, config)  # {"embedding", "layers": N masked self-attention layers}

tokens = np.array([[1, 5, 7, 2, 9, 4]])  # (batch, n): one sequence, prompt and continuation alike
logits = forward_decoder_only(params, tokens, config)  # (batch, n, vocab): row i predicts token i+1

# Training reads tokens[:, :-1] and is scored on tokens[:, 1:].
loss, grads = decoder_only_loss_and_gradients(params, tokens, config)
continued, _ = greedy_generate(params, tokens[:, :3], config, steps=3, use_cache=False)  # (batch, 3 + 3)

print("tokens:", tokens.shape, " logits:", logits.shape)
print(f"loss: {loss:.3f}  gradients for {len(grads['layers'])} layers and the embedding")
print("continued, untrained:", continued[0])

# %% count
decoder_only_count = count_parameters(params)
encoder_decoder_count = count_parameters(init_transformer(rng, config))
counted = [parameter_counts(config, decoder_only=True)["total"], parameter_counts(config)["total"]]
print("parameters, decoder-only:", decoder_only_count, " encoder-decoder:", encoder_decoder_count)
print("counted from the sizes alone:", *counted)
