# %% average
import numpy as np

from attn import softmax

n = 4
A = np.tril(np.ones((n, n)))  # 1 where j <= i
A /= A.sum(axis=1, keepdims=True)  # rows sum to 1
print("A =\n", A.round(2))
x = np.array([2.0, 6.0, 4.0, 0.0])
print("A @ x =", A @ x)  # running means
S = np.where(A > 0, 0.0, -np.inf)  # equal scores
W = softmax(S)  # -inf above the diagonal: 0
print("softmax(S) equals A:", np.array_equal(W, A))
