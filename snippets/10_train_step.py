import numpy as np

from attn import Config, adam_step, init_adam, init_transformer, learning_rate, loss_and_gradients

config = Config(vocab=12, d_model=32, h=2, d_ff=64, N=1, p_drop=0.1, eps_ls=0.1, pad=11)
rng = np.random.default_rng(1)
params = init_transformer(rng, config)
state = init_adam(params)

digits = rng.integers(0, 10, (64, 6))  # (batch, n): the sources
target = np.concatenate([np.full((64, 1), 10), digits[:, ::-1]], axis=1)  # (batch, n + 1): BOS, reversed

losses = []
for step in range(1, 11):  # ten steps on the same batch
    loss, grads = loss_and_gradients(params, digits, target, config, rng)
    params, state = adam_step(params, grads, state, learning_rate(step, config.d_model, 100))
    losses.append(loss)
print("loss at steps 1 to 10:", np.round(losses, 2))
