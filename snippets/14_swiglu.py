# %% activations
import numpy as np

from attn import gelu, gelu_feed_forward, init_feed_forward, init_swiglu, llama_d_ff, silu, swiglu_feed_forward

a = np.array([-3.0, -1.0, 0.0, 1.0, 3.0])
print("a:      ", a)
print("ReLU:   ", np.maximum(a, 0))
print("GELU:   ", gelu(a).round(3))
print("Swish:  ", silu(a).round(3))

# %% networks
rng = np.random.default_rng(0)
x = rng.standard_normal((5, 16))  # (n, d_model)
y_gelu = gelu_feed_forward(x, init_feed_forward(rng, 16, 64))  # W_1, b_1, W_2, b_2
y_swiglu = swiglu_feed_forward(x, init_swiglu(rng, 16, 42))  # W, V, W_2: two thirds of 64, rounded
print("GELU network:  ", x.shape, "->", y_gelu.shape)
print("SwiGLU network:", x.shape, "->", y_swiglu.shape)

# %% budget
d_model = 4096  # Llama 2 7B
d_ff_relu = 4 * d_model  # the paper's ratio
relu_params = 2 * d_model * d_ff_relu  # W_1 and W_2, biases aside
d_ff_same = 2 * d_ff_relu / 3  # three matrices of this width cost what two of d_ff_relu do
swiglu_same = 3 * d_model * d_ff_same
d_ff_llama = llama_d_ff(d_model, multiple_of=256)  # rounded up to a multiple of 256
swiglu_llama = 3 * d_model * d_ff_llama
llama_over_relu = swiglu_llama / relu_params
llama_extra_pct = 100 * (llama_over_relu - 1)  # how much more than ReLU's budget, in percent
assert swiglu_same == relu_params
print(f"ReLU,   d_ff = {d_ff_relu}: {relu_params:,} parameters")
print(f"SwiGLU, d_ff = 8/3 d_model = {d_ff_same:.1f}: {swiglu_same:,.0f}")
print(f"SwiGLU, d_ff = {d_ff_llama} (Llama 2 7B): {swiglu_llama:,}, {llama_extra_pct:.2f}% more than ReLU's")
