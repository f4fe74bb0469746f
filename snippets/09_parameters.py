from attn import Config, parameter_counts

vocab = 37000  # "a shared source-target vocabulary of about 37000 tokens" (section 5.1)
base = Config(vocab=vocab, d_model=512, h=8, d_ff=2048, N=6)
big = Config(vocab=vocab, d_model=1024, h=16, d_ff=4096, N=6)
base_counts, big_counts = parameter_counts(base), parameter_counts(big)
table_3 = {"base": 65_000_000, "big": 213_000_000}  # the paper's "params x 10^6" column

print(f"{'':14}{'base':>13}{'big':>13}")
for part in ("embedding", "attention", "feed_forward", "layer_norm", "total"):
    print(f"{part:14}{base_counts[part]:>13,}{big_counts[part]:>13,}")
base_total, big_total = base_counts["total"], big_counts["total"]
base_gap, big_gap = base_total - table_3["base"], big_total - table_3["big"]
print(f"{'minus Table 3':14}{base_gap:>+13,}{big_gap:>+13,}")
base_shortfall, base_layer_norm = -base_gap, base_counts["layer_norm"]
