# Sharing one (vocab, d_model) matrix between the input embedding, the output embedding and the
# pre-softmax projection (Vaswani et al. 2017, section 3.4; Press and Wolf 2017).
vocab, d_model = 37_000, 512  # the paper's shared English-German vocabulary, base width
one = vocab * d_model
saved_two_of_three = 2 * one  # three matrices become one
print(f"one embedding matrix: {one:,} parameters; tying three into one saves {saved_two_of_three:,}")
