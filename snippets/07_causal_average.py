# %% average
import numpy as np

from attn import softmax

n = 4
A = np.tril(np.ones((n, n)))  # 1 where key j <= query i
A = A / A.sum(axis=1, keepdims=True)  # each row: an average of what it sees
print("A =\n", A.round(2))
print("A @ [2, 6, 4, 0] =", A @ np.array([2.0, 6.0, 4.0, 0.0]))  # running means
scores = np.where(A > 0, 0.0, -np.inf)  # equal scores, -inf above the diagonal
print("softmax(scores) == A everywhere:", np.array_equal(softmax(scores), A))
