"""attn: self-attention in pure numpy, written to be read next to the site.

The public API is the table ``_PUBLIC`` below, listed once: each submodule with
the names it defines. ``__all__``, the lazy loader and ``dir(attn)`` are all
derived from it, so a new public function is one entry there.

Every public name is loaded lazily (PEP 562): ``import attn`` imports no
submodule, and ``from attn import softmax`` imports only ``attn.core`` (and the
kernels it calls). The lazy loading is what keeps the site's snippet cache
precise: the checker records every file a snippet reads and reruns the snippet
when one of them changes, so a snippet that imports one function of attn must
not read, and depend on, every module of the package.

``attn.kernels`` holds the fast paths behind scaled_dot_product_attention and
blockwise_attention; it is importable but not public API (see its docstring),
and neither are the shared building blocks ``attn.core.dot_product_weights``
(the attention weights, with an optional additive bias) and
``attn.position.position_rows``.

Taught on: docs/02-one-head-by-hand.md
"""

_PUBLIC = {
    "core": ("softmax", "scaled_dot_product_attention", "causal_mask", "padding_mask"),
    "blockwise": ("blockwise_attention", "plain_attention"),
    "multihead": ("split_heads", "merge_heads", "multi_head_attention", "attention_head"),
    "position": ("positional_encoding",),
    "layers": ("layer_norm", "feed_forward", "encoder_layer", "decoder_layer"),
    "init": (
        "init_attention",
        "init_multi_head",
        "init_feed_forward",
        "init_layer_norm",
        "init_encoder_layer",
        "init_decoder_layer",
    ),
    "params": ("count_parameters",),
    "cost": (
        "attention_flops",
        "recurrent_flops",
        "attention_crossover",
        "sequential_steps",
        "score_matrix_bytes",
        "score_block_bytes",
        "projection_flops",
        "attention_layer_flops",
        "attention_weights_bytes",
    ),
    "embedding": ("embed", "embed_backward", "output_logits", "output_logits_backward"),
    "loss": ("log_softmax", "smoothed_targets", "cross_entropy", "cross_entropy_backward"),
    "backward": (
        "softmax_backward",
        "attention_backward",
        "multi_head_attention_backward",
        "layer_norm_backward",
        "feed_forward_backward",
    ),
    "training": (
        "dropout",
        "dropout_backward",
        "encoder_layer_forward",
        "encoder_layer_backward",
        "decoder_layer_forward",
        "decoder_layer_backward",
    ),
    "model": (
        "Config",
        "init_transformer",
        "init_decoder_only",
        "encode",
        "decode",
        "forward",
        "forward_decoder_only",
        "new_caches",
        "decoder_only_step",
        "loss_and_gradients",
        "decoder_only_loss_and_gradients",
        "attention_weights",
        "decoder_only_attention_weights",
        "parameter_counts",
    ),
    "optim": ("learning_rate", "init_adam", "adam_step"),
    "greedy": ("greedy_decode", "greedy_generate"),
    "sampling": ("with_temperature", "top_k", "top_p", "next_distribution", "sample_generate"),
    "bpe": ("pair_counts", "merge_pair", "learn_bpe", "bpe_encode", "bpe_decode"),
    "kvcache": ("KVCache", "cached_self_attention", "kv_cache_bytes", "token_flops"),
    "grouped": ("attend_in_groups", "grouped_query_attention", "mean_pool_kv_heads"),
    "absolute": ("init_learned_positions", "learned_positions"),
    "relative": ("relative_offsets", "relative_attention"),
    "rope": ("apply_rope", "rope_frequencies"),
    "alibi": ("alibi_slopes", "alibi_bias", "alibi_attention"),
    "prenorm": ("pre_norm_layer", "pre_norm_stack", "post_norm_stack"),
    "rmsnorm": ("rms_norm", "rms_norm_backward"),
    "glu": ("gelu", "silu", "gelu_feed_forward", "swiglu_feed_forward", "init_swiglu"),
    "llama": ("init_llama_block", "rope_grouped_attention", "llama_block"),
    "sizes": ("llama_d_ff", "decoder_parameter_counts"),
    "moe": (
        "init_moe",
        "route_top_k",
        "load_balancing_loss",
        "expert_capacity",
        "within_capacity",
        "moe_feed_forward",
    ),
    "window": ("sliding_window_mask", "receptive_field", "RollingKVCache"),
    "sparse": ("strided_mask", "fixed_mask", "strided_pairs"),
    "rope_scaling": (
        "interpolated_frequencies",
        "ntk_frequencies",
        "yarn_ramp",
        "yarn_frequencies",
        "yarn_logit_factor",
    ),
    "flashio": (
        "flash_block_sizes",
        "standard_hbm_accesses",
        "flash_hbm_accesses",
        "HBM",
        "standard_attention_io",
        "flash_attention_io",
        "weights_from_logsumexp",
    ),
}

__all__ = [name for module in _PUBLIC for name in _PUBLIC[module]]

_SUBMODULE_OF = {name: module for module in _PUBLIC for name in _PUBLIC[module]}

_SUBMODULES = (*_PUBLIC, "kernels")


def __getattr__(name: str) -> object:
    """Import the submodule that defines ``name`` on first use (PEP 562) -> the attribute."""
    if name in _SUBMODULE_OF:
        submodule = __import__(f"{__name__}.{_SUBMODULE_OF[name]}", fromlist=[name])
        return getattr(submodule, name)
    if name in _SUBMODULES:
        return __import__(f"{__name__}.{name}", fromlist=["__name__"])
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    """Public names and submodules, without importing anything -> sorted names."""
    return sorted(set(globals()) | set(__all__) | set(_SUBMODULES))
