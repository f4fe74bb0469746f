import json

from attn import kv_cache_bytes

# Four of the shapes in Brown et al. (2020), Table 2.1: layers N, d_model, heads h. All four
# use multi-head attention and a 2048-token context; fewer key/value heads, and longer
# contexts, are what-ifs: what the same shape would store.
shapes = {
    "GPT-3 Small": (12, 768, 12),
    "GPT-3 Medium": (24, 1024, 16),
    "GPT-3 6.7B": (32, 4096, 32),
    "GPT-3 175B": (96, 12288, 96),
}
contexts = [2**p for p in range(7, 16)]  # 128 .. 32768 tokens
itemsize = 2  # 16-bit keys and values


def size(b):
    """Bytes as the widget prints them: 3 significant digits, in MiB below 1 GiB."""
    return f"{b / 2**30:.3g} GiB" if b >= 2**30 else f"{b / 2**20:.3g} MiB"


models = []
for name, (N, d_model, h) in shapes.items():
    groups = [g for g in range(1, h + 1) if h % g == 0]  # key/value heads that split h evenly
    cache = [[kv_cache_bytes(N, n, d_model, h, g, itemsize) for n in contexts] for g in groups]  # (groups, contexts)
    models.append(
        {
            "name": name,
            "N": N,
            "d_model": d_model,
            "h": h,
            "groups": groups,
            "bytes": cache,
            "shown": [[size(b) for b in row] for row in cache],
        }
    )

with open("kv_cache.json", "w") as f:
    json.dump({"contexts": contexts, "itemsize": itemsize, "models": models}, f)
