"""attn: self-attention in pure numpy, written to be read next to the site.

Every public name is loaded lazily (PEP 562): ``import attn`` imports no
submodule, and ``from attn import softmax`` imports only ``attn.core``, so a
site snippet depends only on the modules it really uses.

    attn.core       softmax, scaled_dot_product_attention, causal_mask, padding_mask
    attn.blockwise  blockwise_attention, plain_attention
    attn.multihead  split_heads, merge_heads, multi_head_attention, attention_head
    attn.position   positional_encoding
    attn.layers     layer_norm, feed_forward, encoder_layer, decoder_layer
    attn.init       init_attention, init_multi_head, init_feed_forward,
                    init_layer_norm, init_encoder_layer, init_decoder_layer
    attn.params     count_parameters
    attn.cost       attention_flops, recurrent_flops, attention_crossover,
                    sequential_steps, score_matrix_bytes, score_block_bytes,
                    projection_flops, attention_layer_flops,
                    attention_weights_bytes

    attn.embedding  embed, output_logits (and their backward passes)
    attn.loss       log_softmax, smoothed_targets, cross_entropy, cross_entropy_backward
    attn.backward   softmax_backward, attention_backward, multi_head_attention_backward,
                    layer_norm_backward, feed_forward_backward
    attn.training   dropout, encoder_layer_forward, decoder_layer_forward (and backward)
    attn.model      Config, init_transformer, init_decoder_only, encode, decode, forward,
                    forward_decoder_only, loss_and_gradients,
                    decoder_only_loss_and_gradients, attention_weights, parameter_counts
    attn.optim      learning_rate, init_adam, adam_step
    attn.greedy     greedy_decode, greedy_continue
    attn.kvcache    KVCache, cached_self_attention, kv_cache_bytes, token_flops
    attn.grouped    attend_in_groups, grouped_query_attention, mean_pool_kv_heads
    attn.causal_lm  init_causal_lm, causal_lm_logits, causal_lm_step, new_caches,
                    greedy_generate
    attn.absolute   init_learned_positions, learned_positions
    attn.relative   relative_offsets, relative_attention
    attn.rope       apply_rope
    attn.alibi      alibi_slopes, alibi_bias, alibi_attention
    attn.prenorm    pre_norm_layer, pre_norm_stack, post_norm_stack

    attn.kernels    the fast paths behind scaled_dot_product_attention and
                    blockwise_attention (not public API; see its docstring)

Taught on: docs/02-one-head-by-hand.md
"""

_SUBMODULE_OF = {
    "softmax": "core",
    "scaled_dot_product_attention": "core",
    "causal_mask": "core",
    "padding_mask": "core",
    "blockwise_attention": "blockwise",
    "plain_attention": "blockwise",
    "split_heads": "multihead",
    "merge_heads": "multihead",
    "multi_head_attention": "multihead",
    "attention_head": "multihead",
    "positional_encoding": "position",
    "layer_norm": "layers",
    "feed_forward": "layers",
    "encoder_layer": "layers",
    "decoder_layer": "layers",
    "init_attention": "init",
    "init_multi_head": "init",
    "init_feed_forward": "init",
    "init_layer_norm": "init",
    "init_encoder_layer": "init",
    "init_decoder_layer": "init",
    "count_parameters": "params",
    "attention_flops": "cost",
    "recurrent_flops": "cost",
    "attention_crossover": "cost",
    "sequential_steps": "cost",
    "score_matrix_bytes": "cost",
    "score_block_bytes": "cost",
    "projection_flops": "cost",
    "attention_layer_flops": "cost",
    "attention_weights_bytes": "cost",
    "embed": "embedding",
    "embed_backward": "embedding",
    "output_logits": "embedding",
    "output_logits_backward": "embedding",
    "log_softmax": "loss",
    "smoothed_targets": "loss",
    "cross_entropy": "loss",
    "cross_entropy_backward": "loss",
    "softmax_backward": "backward",
    "attention_backward": "backward",
    "multi_head_attention_backward": "backward",
    "layer_norm_backward": "backward",
    "feed_forward_backward": "backward",
    "dropout": "training",
    "dropout_backward": "training",
    "encoder_layer_forward": "training",
    "encoder_layer_backward": "training",
    "decoder_layer_forward": "training",
    "decoder_layer_backward": "training",
    "Config": "model",
    "init_transformer": "model",
    "init_decoder_only": "model",
    "encode": "model",
    "decode": "model",
    "forward": "model",
    "forward_decoder_only": "model",
    "loss_and_gradients": "model",
    "decoder_only_loss_and_gradients": "model",
    "attention_weights": "model",
    "parameter_counts": "model",
    "learning_rate": "optim",
    "init_adam": "optim",
    "adam_step": "optim",
    "greedy_decode": "greedy",
    "greedy_continue": "greedy",
    "KVCache": "kvcache",
    "cached_self_attention": "kvcache",
    "kv_cache_bytes": "kvcache",
    "token_flops": "kvcache",
    "attend_in_groups": "grouped",
    "grouped_query_attention": "grouped",
    "mean_pool_kv_heads": "grouped",
    "init_causal_lm": "causal_lm",
    "causal_lm_logits": "causal_lm",
    "causal_lm_step": "causal_lm",
    "new_caches": "causal_lm",
    "greedy_generate": "causal_lm",
    "init_learned_positions": "absolute",
    "learned_positions": "absolute",
    "relative_offsets": "relative",
    "relative_attention": "relative",
    "apply_rope": "rope",
    "alibi_slopes": "alibi",
    "alibi_bias": "alibi",
    "alibi_attention": "alibi",
    "pre_norm_layer": "prenorm",
    "pre_norm_stack": "prenorm",
    "post_norm_stack": "prenorm",
}

__all__ = [
    "softmax",
    "scaled_dot_product_attention",
    "causal_mask",
    "padding_mask",
    "blockwise_attention",
    "plain_attention",
    "split_heads",
    "merge_heads",
    "multi_head_attention",
    "attention_head",
    "positional_encoding",
    "layer_norm",
    "feed_forward",
    "encoder_layer",
    "decoder_layer",
    "init_attention",
    "init_multi_head",
    "init_feed_forward",
    "init_layer_norm",
    "init_encoder_layer",
    "init_decoder_layer",
    "count_parameters",
    "attention_flops",
    "recurrent_flops",
    "attention_crossover",
    "sequential_steps",
    "score_matrix_bytes",
    "score_block_bytes",
    "projection_flops",
    "attention_layer_flops",
    "attention_weights_bytes",
    "embed",
    "embed_backward",
    "output_logits",
    "output_logits_backward",
    "log_softmax",
    "smoothed_targets",
    "cross_entropy",
    "cross_entropy_backward",
    "softmax_backward",
    "attention_backward",
    "multi_head_attention_backward",
    "layer_norm_backward",
    "feed_forward_backward",
    "dropout",
    "dropout_backward",
    "encoder_layer_forward",
    "encoder_layer_backward",
    "decoder_layer_forward",
    "decoder_layer_backward",
    "Config",
    "init_transformer",
    "init_decoder_only",
    "encode",
    "decode",
    "forward",
    "forward_decoder_only",
    "loss_and_gradients",
    "decoder_only_loss_and_gradients",
    "attention_weights",
    "parameter_counts",
    "learning_rate",
    "init_adam",
    "adam_step",
    "greedy_decode",
    "greedy_continue",
    "KVCache",
    "cached_self_attention",
    "kv_cache_bytes",
    "token_flops",
    "attend_in_groups",
    "grouped_query_attention",
    "mean_pool_kv_heads",
    "init_causal_lm",
    "causal_lm_logits",
    "causal_lm_step",
    "new_caches",
    "greedy_generate",
    "init_learned_positions",
    "learned_positions",
    "relative_offsets",
    "relative_attention",
    "apply_rope",
    "alibi_slopes",
    "alibi_bias",
    "alibi_attention",
    "pre_norm_layer",
    "pre_norm_stack",
    "post_norm_stack",
]

_SUBMODULES = (
    "core",
    "blockwise",
    "multihead",
    "position",
    "layers",
    "init",
    "params",
    "cost",
    "kernels",
    "embedding",
    "loss",
    "backward",
    "training",
    "model",
    "optim",
    "greedy",
    "kvcache",
    "grouped",
    "causal_lm",
    "absolute",
    "relative",
    "rope",
    "alibi",
    "prenorm",
)


def __getattr__(name):
    """Import the submodule that defines ``name`` on first use (PEP 562)."""
    if name in _SUBMODULE_OF:
        submodule = __import__(f"{__name__}.{_SUBMODULE_OF[name]}", fromlist=[name])
        return getattr(submodule, name)
    if name in _SUBMODULES:
        return __import__(f"{__name__}.{name}", fromlist=["__name__"])
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__():
    """Public names and submodules, without importing anything."""
    return sorted(set(globals()) | set(__all__) | set(_SUBMODULES))
