import numpy as np

from attn import learning_rate

d_model, warmup_steps = 512, 4000  # the base model (section 3.1), the warm-up of section 5.3
steps = np.arange(1, 100_001)  # the base model trained for 100,000 steps (section 5.2)
rates = np.array([learning_rate(int(step), d_model, warmup_steps) for step in steps])

halfway, four_times = warmup_steps // 2, 4 * warmup_steps  # the steps compared below
peak_step = int(steps[rates.argmax()])
peak = rates.max()
rate_halfway, rate_four_times, rate_last = rates[halfway - 1], rates[four_times - 1], rates[-1]
print(f"peak: {peak:.3e} at step {peak_step}")
print(f"(d_model * warmup_steps)^-0.5 = {(d_model * warmup_steps) ** -0.5:.3e}")
print(
    f"step 1: {rates[0]:.3e}  step {halfway}: {rate_halfway:.3e}"
    f"  step {four_times}: {rate_four_times:.3e}  step {steps[-1]}: {rate_last:.3e}"
)
assert np.allclose(rates[:warmup_steps], steps[:warmup_steps] * rates[0]), "the warm-up must be linear"
assert np.isclose(rates[four_times - 1], peak / 2), "past the peak, the rate must halve when the step quadruples"
