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
for t in range(n):
    h = np.tanh(X[t] @ W_x + h @ W_h)  # (d,): cannot start before the previous h exists
    slope = 1 - h**2  # (d,): tanh's derivative at this step
    if t == 0:
        reach_first = W_x * slope  # (d, d): d h_1 / d x_1
    else:
        reach_first = (reach_first @ W_h) * slope  # (d, d): one more update to pass through
        updates_after_first += 1
    steps += 1
reach_last = W_x * slope  # (d, d): d h_n / d x_n, the newest token's direct effect

recurrent_steps = sequential_steps(n, "recurrent")  # the library's count, from Table 1
attention_steps = sequential_steps(n, "attention")
first_to_last = np.linalg.norm(reach_first)
last_to_last = np.linalg.norm(reach_last)

print("recurrent: state updates, one after another:", steps)
print("attn.cost.sequential_steps(n, 'recurrent'):", recurrent_steps)
print("attn.cost.sequential_steps(n, 'attention'):", attention_steps)
print("updates between token 1 and the last state:", updates_after_first)
print(f"size of d h_n / d x_1: {first_to_last:.1e}")
print(f"size of d h_n / d x_n: {last_to_last:.2f}")
