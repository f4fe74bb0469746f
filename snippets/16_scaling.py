import numpy as np

# One weight matrix W (d_in, d_out) applied to t tokens: forward Y = X W, backward
# dX = dY W^T and dW = X^T dY. Each product does t d_in d_out multiply-adds, 2 FLOPs each.
rng = np.random.default_rng(0)
t, d_in, d_out = 8, 16, 32
X, W, dY = rng.standard_normal((t, d_in)), rng.standard_normal((d_in, d_out)), rng.standard_normal((t, d_out))
shapes = [(X, W), (dY, W.T), (X.T, dY)]  # forward, then the two backward products
flops = [2 * a.shape[0] * a.shape[1] * b.shape[1] for a, b in shapes]
per_weight_and_token = sum(flops) / (W.size * t)  # forward 2 + backward 4
assert flops[1] == flops[2] == flops[0] and per_weight_and_token == 6

# Compute-optimal training: C = 6 N D with D = 20 N tokens (Hoffmann et al. 2022).
tokens_per_parameter = 20
N_chinchilla, D_chinchilla = 70e9, 1.4e12  # parameters, tokens (their Table 1)
C = 6 * N_chinchilla * D_chinchilla  # FLOPs
ratio_chinchilla = D_chinchilla / N_chinchilla
N_opt = np.sqrt(C / (6 * tokens_per_parameter))  # C = 6 N (20 N) = 120 N^2
N_gpt3, D_gpt3 = 175e9, 300e9  # GPT-3: parameters, tokens (Brown et al. 2020)
C_gpt3 = 6 * N_gpt3 * D_gpt3
ratio_gpt3 = D_gpt3 / N_gpt3
N_opt_gpt3 = np.sqrt(C_gpt3 / (6 * tokens_per_parameter))
N_opt_b, N_opt_gpt3_b = round(N_opt / 1e9), round(N_opt_gpt3 / 1e9)  # to the billion

print(
    f"FLOPs per weight and token: forward {flops[0] // (W.size * t)}, backward"
    f" {(flops[1] + flops[2]) // (W.size * t)}, total {per_weight_and_token:.0f}"
)
print(
    f"Chinchilla: C = 6 N D = {C:.2e} FLOPs, {ratio_chinchilla:.0f} tokens per parameter,"
    f" compute-optimal N at 20 = {N_opt_b:.0f}B"
)
print(
    f"GPT-3: C = {C_gpt3:.2e} FLOPs, {ratio_gpt3:.1f} tokens per parameter,"
    f" compute-optimal N at 20 = {N_opt_gpt3_b:.0f}B"
)
