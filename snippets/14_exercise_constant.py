import numpy as np

from attn import layer_norm, rms_norm

x = np.full(4, 2.0)  # a token whose four features are all 2
ln, rms = layer_norm(x), rms_norm(x)
print("LayerNorm:", ln.round(4))
print("RMSNorm:  ", rms.round(4))
