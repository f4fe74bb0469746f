import numpy as np

from attn.cost import sequential_steps

seed = 0
n, d = 50, 8  # 50 tokens, a hidden state 8 wide
rng = np.random.default_rng(seed)
X = rng.standard_normal((n, d))  # (n, d): one input vector per token
W_x = rng.standard_normal((d, d)) / np.sqrt(d)  # input -> state
W_h = rng.standard_normal((d, d)) / np.sqrt(d)  # state -> state

# An untrained Elman network, h_t = tanh(x_t W_x + h_{t-1} W_h), read left to right.
# Alongside the state we carry d h_t / d x_1: how much token 1 can still move the state.
h = np.zeros(d)
steps = 0  # state updates, each of which waits for the one before
updates_after_first = 0
slopes = []  # tanh's slope at every update after the first, one (d,) row each
for t in range(n):
    h = np.tanh(X[t] @ W_x + h @ W_h)  # (d,): cannot start before the previous h exists
    slope = 1 - h**2  # (d,): tanh's derivative at this step
    if t == 0:
        reach_first = W_x * slope  # (d, d): d h_1 / d x_1
        start = np.linalg.norm(reach_first)  # token 1's effect right after it is read
    else:
        reach_first = (reach_first @ W_h) * slope  # (d, d): one more update to pass through
        updates_after_first += 1
        slopes.append(slope)
    steps += 1
reach_last = W_x * slope  # (d, d): d h_n / d x_n, the newest token's direct effect
assert steps == sequential_steps(n, "recurrent"), "one update per token, one after another"

first_to_last = np.linalg.norm(reach_first)
last_to_last = np.linalg.norm(reach_last)

# How much each update keeps, on average, and where the loss comes from.
per_update = (first_to_last / start) ** (1 / updates_after_first)  # geometric mean factor
mean_slope = np.mean(slopes)  # tanh's slope, averaged over the updates and the state's entries
linear_reach = W_x @ np.linalg.matrix_power(W_h, updates_after_first)  # the same path without tanh
linear_per_update = (np.linalg.norm(linear_reach) / np.linalg.norm(W_x)) ** (1 / updates_after_first)
spectral_radius = max(abs(np.linalg.eigvals(W_h)))  # what repeated products of W_h tend to keep
spectral_norm = np.linalg.norm(W_h, 2)  # the most W_h can stretch one vector in one update
assert per_update < linear_per_update, "tanh's slope shrinks the signal further"

print("sequential state updates: recurrent", steps, " attention", sequential_steps(n, "attention"))
print("updates between token 1 and the last state:", updates_after_first)
print(f"size of d h_n / d x_1: {first_to_last:.1e}")
print(f"size of d h_n / d x_n: {last_to_last:.2f}")
print(f"kept per update: {per_update:.2f} (without tanh: {linear_per_update:.2f})  mean tanh slope: {mean_slope:.2f}")
print(f"W_h: spectral radius {spectral_radius:.2f}, spectral norm {spectral_norm:.2f}")
