import numpy as np

from attn import adam_step, init_adam

# Gradients of very different sizes, Adam with the paper's beta1, beta2, eps (section 5.3).
g = np.array([1e3, 1.0, -1e-3, 1e-9, 0.0])
lr = 1e-3
params = {"w": np.zeros_like(g)}

new, state = adam_step(params, {"w": g}, init_adam(params), lr=lr)
first_step = new["w"] - params["w"]  # how far each entry moved
in_units_of_lr = first_step / lr
again, _ = adam_step(new, {"w": g}, state, lr=lr)  # the same gradient once more
second_step = (again["w"] - new["w"]) / lr
eps = 1e-9  # adam_step's default, the paper's
predicted = -g / (np.abs(g) + eps) + 0.0  # m_hat = g and v_hat = g^2 after one step (+ 0.0: no -0.0)
as_predicted = bool(np.allclose(in_units_of_lr, predicted, rtol=0, atol=1e-12))
assert as_predicted, "Adam's first step must be -lr g / (|g| + eps) (to 1e-12 learning rates)"

print(f"gradient:               {g}")
print(f"first step / lr:        {in_units_of_lr.round(6)}")
print(f"-g / (|g| + eps):       {predicted.round(6)}")
print(f"second step, same g:    {second_step.round(6)}")
