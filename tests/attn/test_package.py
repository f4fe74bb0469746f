"""The attn package as a whole: lazy imports, the public API, house style, no input mutation,
docstring examples that run as shown, and a page that uses every public function.
"""

import ast
import doctest
import importlib
import inspect
import json
import pkgutil
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import attn

ROOT = Path(__file__).resolve().parents[2]

PACKAGE = ROOT / "attn"

SOURCES = sorted(PACKAGE.glob("*.py"))

PAGES = {
    "docs/01-what-it-replaced.md",
    "docs/02-one-head-by-hand.md",
    "docs/03-queries-keys-values.md",
    "docs/04-why-scale.md",
    "docs/05-multi-head.md",
    "docs/06-position.md",
    "docs/07-full-block.md",
    "docs/08-cost.md",
    "docs/09-whole-model.md",
    "docs/10-training.md",
    "docs/11-generating-text.md",
    "docs/12-positions-after-2017.md",
    "docs/13-real-language.md",
    "docs/14-modern-decoder.md",
    "docs/15-long-context.md",
    "docs/implementation-notes.md",  # how the library's own kernels are laid out
}

ALLOWED_IMPORTS = {"numpy", "math", "typing", "dataclasses"}  # numpy and a little of the standard library


def attn_modules_after(statement):
    """The attn modules in sys.modules after running ``statement`` in a fresh interpreter."""
    listing = "sorted(m for m in sys.modules if m.split('.')[0] == 'attn' and not m.startswith('attn._'))"
    code = f"{statement}\nimport json, sys\nprint(json.dumps({listing}))"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True)
    return json.loads(result.stdout)


# ---------------------------------------------------------- lazy imports --


@pytest.mark.parametrize(
    "statement, expected",
    [
        ("import attn", ["attn"]),
        ("from attn import softmax", ["attn", "attn.core", "attn.kernels"]),
        ("import attn.core", ["attn", "attn.core", "attn.kernels"]),
        ("from attn import positional_encoding", ["attn", "attn.position"]),
        ("from attn import count_parameters", ["attn", "attn.params"]),
        ("from attn.cost import score_matrix_bytes", ["attn", "attn.cost"]),
        ("from attn import multi_head_attention", ["attn", "attn.core", "attn.kernels", "attn.multihead"]),
        ("import attn; attn.blockwise_attention", ["attn", "attn.blockwise", "attn.core", "attn.kernels"]),
        ("import attn.kernels", ["attn", "attn.kernels"]),
    ],
)
def test_imports_are_lazy(statement, expected):
    assert attn_modules_after(statement) == expected


def test_import_attn_does_not_even_import_numpy():
    code = "import sys, attn; print('numpy' in sys.modules)"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True)
    assert result.stdout.strip() == "False"


def test_all_names_resolve_and_dir_lists_them():
    assert len(attn.__all__) == len(set(attn.__all__))
    for name in attn.__all__:
        assert callable(getattr(attn, name))
    assert set(attn.__all__) <= set(dir(attn))
    assert {"core", "blockwise", "multihead", "position", "layers", "init", "params", "cost"} <= set(dir(attn))
    assert attn.core.softmax is attn.softmax


def test_unknown_attribute_raises():
    with pytest.raises(AttributeError):
        attn.no_such_function  # noqa: B018


def test_star_import_gives_exactly_all():
    namespace = {}
    exec("from attn import *", namespace)
    assert set(namespace) - {"__builtins__"} == set(attn.__all__)


def test_contract_signatures():
    """The names and parameters page authors rely on."""
    expected = {
        "softmax": ["x", "axis"],
        "scaled_dot_product_attention": ["q", "k", "v", "mask", "return_weights"],
        "causal_mask": ["n"],
        "padding_mask": ["lengths", "n"],
        "blockwise_attention": ["q", "k", "v", "mask", "block_size", "key_block_size"],
        "plain_attention": ["q", "k", "v", "mask"],
        "split_heads": ["x", "h"],
        "merge_heads": ["x"],
        "multi_head_attention": ["x_q", "x_kv", "params", "h", "mask", "return_weights"],
        "positional_encoding": ["n", "d_model", "base", "dtype"],
        "layer_norm": ["x", "gamma", "beta", "eps"],
        "feed_forward": ["x", "params"],
        "encoder_layer": ["x", "params", "h", "mask"],
        "decoder_layer": ["y", "memory", "params", "h", "self_mask", "memory_mask"],
        "init_attention": ["rng", "d_model", "d_k", "d_v"],
        "init_multi_head": ["rng", "d_model"],
        "init_feed_forward": ["rng", "d_model", "d_ff"],
        "init_encoder_layer": ["rng", "d_model", "d_ff"],
        "init_decoder_layer": ["rng", "d_model", "d_ff"],
        "count_parameters": ["params"],
        "attention_flops": ["n", "d"],
        "recurrent_flops": ["n", "d"],
        "score_matrix_bytes": ["n", "itemsize"],
        "attention_crossover": ["d"],
        "projection_flops": ["n", "d"],
        "attention_layer_flops": ["n", "d"],
        "attention_weights_bytes": ["n", "h", "batch", "layers", "itemsize"],
    }
    for name, parameters in expected.items():
        assert list(inspect.signature(getattr(attn, name)).parameters) == parameters, name


# ----------------------------------------------------------- house style --


@pytest.mark.parametrize("name", attn.__all__)
def test_docstring_names_its_page_and_shapes(name):
    doc = inspect.getdoc(getattr(attn, name))
    pages = re.findall(r"^Taught on: (\S+)$", doc, flags=re.MULTILINE)
    assert len(pages) == 1 and pages[0] in PAGES, name
    assert "->" in doc, f"{name}: the docstring must state what it returns (shapes for arrays)"
    assert (ROOT / pages[0]).name == Path(pages[0]).name


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: p.name)
def test_module_style(path):
    source = path.read_text()
    tree = ast.parse(source)
    # imports: numpy, the stdlib's math / typing, and sibling modules only
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            assert all(alias.name in ALLOWED_IMPORTS for alias in node.names), path.name
        if isinstance(node, ast.ImportFrom) and node.level == 0:
            assert node.module in ALLOWED_IMPORTS, path.name
    # no printing, no global random state
    calls = {ast.unparse(node.func) for node in ast.walk(tree) if isinstance(node, ast.Call)}
    assert "print" not in calls, path.name
    assert not any(
        re.match(r"np\.random\.(seed|rand|randn|random|normal|uniform|choice|shuffle|permutation)$", c) for c in calls
    )
    # no mutable default arguments
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for default in node.args.defaults + [d for d in node.args.kw_defaults if d is not None]:
                assert not isinstance(default, (ast.List, ast.Dict, ast.Set, ast.Call)), f"{path.name}:{node.name}"
    # nothing but definitions and constants at module level: no code runs on import
    for node in tree.body:
        allowed = (ast.Import, ast.ImportFrom, ast.FunctionDef, ast.ClassDef, ast.Assign, ast.AnnAssign)
        is_docstring = isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)
        assert is_docstring or isinstance(node, allowed), f"{path.name}:{node.lineno}"
        if isinstance(node, ast.Assign):
            assert not any(isinstance(n, ast.Call) for n in ast.walk(node.value)), f"{path.name}:{node.lineno}"
    # every reshape carries a trailing shape comment
    for number, line in enumerate(source.splitlines(), 1):
        if ".reshape(" in line and not line.lstrip().startswith("#"):
            assert re.search(r"\s#\s*\([^#]*\)\s*$", line), f"{path.name}:{number}: {line.strip()}"
    # every public function states what it returns
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and not node.name.startswith("_"):
            assert "->" in (ast.get_docstring(node) or ""), f"{path.name}:{node.name}"


def public_calls(rng):
    """One call per public function, on arrays the test owns: name -> (function, args, kwargs)."""
    n, d_model, h, d_ff = 5, 8, 2, 16
    x = rng.standard_normal((2, n, d_model))
    memory = rng.standard_normal((2, n + 1, d_model))
    q, k, v = rng.standard_normal((2, n, 4)), rng.standard_normal((2, n + 2, 4)), rng.standard_normal((2, n + 2, 3))
    mask = rng.random((2, n, n + 2)) < 0.6
    scores = rng.standard_normal((3, 4))
    scores[0, 1] = -np.inf
    mha = attn.init_multi_head(rng, d_model)
    head = attn.init_attention(rng, d_model, d_k=4)
    ffn = attn.init_feed_forward(rng, d_model, d_ff)
    encoder = attn.init_encoder_layer(rng, d_model, d_ff)
    decoder = attn.init_decoder_layer(rng, d_model, d_ff)
    gamma, beta = rng.standard_normal(d_model), rng.standard_normal(d_model)
    lengths = np.array([5, 2])
    return {
        "softmax": (attn.softmax, (scores,), {}),
        "scaled_dot_product_attention": (attn.scaled_dot_product_attention, (q, k, v, mask), {"return_weights": True}),
        "causal_mask": (attn.causal_mask, (n,), {}),
        "padding_mask": (attn.padding_mask, (lengths, n), {}),
        "blockwise_attention": (attn.blockwise_attention, (q, k, v, mask), {"block_size": 2, "key_block_size": 3}),
        "plain_attention": (attn.plain_attention, (q, k, v, mask), {}),
        "split_heads": (attn.split_heads, (x, h), {}),
        "merge_heads": (attn.merge_heads, (attn.split_heads(x.copy(), h),), {}),
        "multi_head_attention": (attn.multi_head_attention, (x, memory, mha, h), {"return_weights": True}),
        "attention_head": (attn.attention_head, (x, memory, head), {}),
        "positional_encoding": (attn.positional_encoding, (n, d_model), {}),
        "layer_norm": (attn.layer_norm, (x, gamma, beta), {}),
        "feed_forward": (attn.feed_forward, (x, ffn), {}),
        "encoder_layer": (attn.encoder_layer, (x, encoder, h, attn.padding_mask(lengths, n)), {}),
        "decoder_layer": (attn.decoder_layer, (x, memory, decoder, h), {}),
        "init_attention": (attn.init_attention, (rng, d_model), {}),
        "init_multi_head": (attn.init_multi_head, (rng, d_model), {}),
        "init_feed_forward": (attn.init_feed_forward, (rng, d_model, d_ff), {}),
        "init_layer_norm": (attn.init_layer_norm, (d_model,), {}),
        "init_encoder_layer": (attn.init_encoder_layer, (rng, d_model, d_ff), {}),
        "init_decoder_layer": (attn.init_decoder_layer, (rng, d_model, d_ff), {}),
        "count_parameters": (attn.count_parameters, (encoder,), {}),
        "attention_flops": (attn.attention_flops, (n, d_model), {}),
        "recurrent_flops": (attn.recurrent_flops, (n, d_model), {}),
        "attention_crossover": (attn.attention_crossover, (d_model,), {}),
        "sequential_steps": (attn.sequential_steps, (n, "recurrent"), {}),
        "score_matrix_bytes": (attn.score_matrix_bytes, (n,), {}),
        "score_block_bytes": (attn.score_block_bytes, (2, 3), {}),
        "projection_flops": (attn.projection_flops, (n, d_model), {}),
        "attention_layer_flops": (attn.attention_layer_flops, (n, d_model), {}),
        "attention_weights_bytes": (attn.attention_weights_bytes, (n, h, 2, 3), {}),
        **model_calls(rng),
        **_later_calls(rng, x, mha, encoder, h),
    }


def model_calls(rng):
    """One call per public function of the whole model, its training and its backward passes."""
    config = attn.Config(vocab=7, d_model=8, h=2, d_ff=16, N=1, pad=0)
    model = attn.init_transformer(rng, config)
    decoder_only = attn.init_decoder_only(rng, config)
    source, target = rng.integers(1, 7, (2, 5)), rng.integers(1, 7, (2, 4))
    source[0, -1] = 0
    x, memory, d = rng.standard_normal((2, 4, 8)), rng.standard_normal((2, 5, 8)), rng.standard_normal((2, 4, 8))
    q, k, v = rng.standard_normal((2, 4, 4)), rng.standard_normal((2, 5, 4)), rng.standard_normal((2, 5, 3))
    logits = rng.standard_normal((2, 4, 7))
    encoder, decoder = attn.init_encoder_layer(rng, 8, 16), attn.init_decoder_layer(rng, 8, 16)
    _, encoder_cache = attn.encoder_layer_forward(x, encoder, 2, None, 0.1, np.random.default_rng(1))
    _, decoder_cache = attn.decoder_layer_forward(
        x, memory, decoder, 2, attn.causal_mask(4), None, 0.1, np.random.default_rng(1)
    )
    keep = rng.random((2, 4, 8)) < 0.9
    grads = attn.loss_and_gradients(model, source, target, config)[1]
    return {
        "embed": (attn.embed, (target, model["embedding"]), {}),
        "embed_backward": (attn.embed_backward, (d, target, model["embedding"]), {}),
        "output_logits": (attn.output_logits, (x, model["embedding"]), {}),
        "output_logits_backward": (attn.output_logits_backward, (logits, x, model["embedding"]), {}),
        "log_softmax": (attn.log_softmax, (logits,), {}),
        "smoothed_targets": (attn.smoothed_targets, (target, 7), {}),
        "cross_entropy": (attn.cross_entropy, (logits, target), {"pad": 0}),
        "cross_entropy_backward": (attn.cross_entropy_backward, (logits, target), {"pad": 0}),
        "softmax_backward": (attn.softmax_backward, (logits, attn.softmax(logits)), {}),
        "attention_backward": (
            attn.attention_backward,
            (rng.standard_normal((2, 4, 3)), q, k, v, rng.random((2, 4, 5)) < 0.6),
            {},
        ),
        "multi_head_attention_backward": (
            attn.multi_head_attention_backward,
            (d, x, memory, encoder["self_attn"], 2),
            {},
        ),
        "layer_norm_backward": (attn.layer_norm_backward, (d, x, rng.standard_normal(8)), {}),
        "feed_forward_backward": (attn.feed_forward_backward, (d, x, encoder["ffn"]), {}),
        "dropout": (attn.dropout, (x, 0.1, rng), {}),
        "dropout_backward": (attn.dropout_backward, (d, keep, 0.1), {}),
        "encoder_layer_forward": (attn.encoder_layer_forward, (x, encoder, 2), {"p_drop": 0.1, "rng": rng}),
        "encoder_layer_backward": (attn.encoder_layer_backward, (d, encoder_cache, encoder, 2), {"p_drop": 0.1}),
        "decoder_layer_forward": (attn.decoder_layer_forward, (x, memory, decoder, 2), {"p_drop": 0.1, "rng": rng}),
        "decoder_layer_backward": (
            attn.decoder_layer_backward,
            (d, decoder_cache, decoder, 2, attn.causal_mask(4)),
            {"p_drop": 0.1},
        ),
        "Config": (attn.Config, (7,), {}),
        "init_transformer": (attn.init_transformer, (rng, config), {}),
        "init_decoder_only": (attn.init_decoder_only, (rng, config), {}),
        "encode": (attn.encode, (model, source, config), {}),
        "decode": (attn.decode, (model, target, memory, source, config), {}),
        "forward": (attn.forward, (model, source, target, config), {}),
        "forward_decoder_only": (attn.forward_decoder_only, (decoder_only, target, config), {}),
        "loss_and_gradients": (attn.loss_and_gradients, (model, source, target, config, rng), {}),
        "decoder_only_loss_and_gradients": (
            attn.decoder_only_loss_and_gradients,
            (decoder_only, target, config, rng),
            {},
        ),
        "attention_weights": (attn.attention_weights, (model, source, target, config), {}),
        "decoder_only_attention_weights": (attn.decoder_only_attention_weights, (decoder_only, target, config), {}),
        "sample_generate": (
            attn.sample_generate,
            (decoder_only, target[0, :2], config, 2, np.random.default_rng(1)),
            {"temperature": 0.8, "k": 3, "p": 0.9},
        ),
        "parameter_counts": (attn.parameter_counts, (config,), {}),
        "learning_rate": (attn.learning_rate, (10, 8), {"warmup_steps": 4}),
        "init_adam": (attn.init_adam, (model,), {}),
        "adam_step": (attn.adam_step, (model, grads, attn.init_adam(model), 0.01), {}),
        "greedy_decode": (attn.greedy_decode, (model, source, config, 3, 1), {}),
        "greedy_generate": (attn.greedy_generate, (decoder_only, target, config, 2), {"use_cache": False}),
        "new_caches": (attn.new_caches, (decoder_only, config, 3), {}),
        "decoder_only_step": (
            attn.decoder_only_step,
            (decoder_only, target[0, :2], config, attn.new_caches(decoder_only, config, 2)),
            {},
        ),
    }


def _later_calls(rng, x, mha, encoder, h):
    """The calls of the generation and position modules (same contract as the table above)."""
    d_model, d_k = mha["W_q"].shape[0], mha["W_q"].shape[0] // h
    q4, k4 = rng.standard_normal((2, h, 5, d_k)), rng.standard_normal((2, 1, 5, d_k))
    table = attn.init_learned_positions(rng, 6, d_model)
    w_k, w_v = rng.standard_normal((5, d_k)), rng.standard_normal((5, d_k))
    return {
        "KVCache": (attn.KVCache, (h, d_k, 4), {}),
        "cached_self_attention": (attn.cached_self_attention, (x[0, :3], mha, h, attn.KVCache(h, d_k, 3)), {}),
        "kv_cache_bytes": (attn.kv_cache_bytes, (2, 5, d_model, h), {"groups": 1}),
        "token_flops": (attn.token_flops, (5, d_model, 16, True), {}),
        "attend_in_groups": (attn.attend_in_groups, (q4, k4, k4, attn.causal_mask(5)), {}),
        "grouped_query_attention": (attn.grouped_query_attention, (x, x, attn.mean_pool_kv_heads(mha, h, 1), h, 1), {}),
        "mean_pool_kv_heads": (attn.mean_pool_kv_heads, (mha, h, 1), {}),
        "init_learned_positions": (attn.init_learned_positions, (rng, 6, d_model), {}),
        "learned_positions": (attn.learned_positions, (table, 4), {}),
        "relative_offsets": (attn.relative_offsets, (4, 5, 2), {}),
        "relative_attention": (attn.relative_attention, (q4, q4, q4, w_k, w_v), {"return_weights": True}),
        "apply_rope": (attn.apply_rope, (q4, np.arange(5)), {}),
        "alibi_slopes": (attn.alibi_slopes, (h,), {}),
        "alibi_bias": (attn.alibi_bias, (5, attn.alibi_slopes(h)), {}),
        "alibi_attention": (attn.alibi_attention, (q4, q4, q4, attn.alibi_slopes(h)), {"return_weights": True}),
        "pre_norm_layer": (attn.pre_norm_layer, (x, encoder, h), {}),
        "pre_norm_stack": (attn.pre_norm_stack, (x, [encoder, encoder], h, attn.init_layer_norm(d_model)), {}),
        "post_norm_stack": (attn.post_norm_stack, (x, [encoder], h), {}),
        "rope_frequencies": (attn.rope_frequencies, (d_k,), {}),
        "with_temperature": (attn.with_temperature, (x, 0.7), {}),
        "top_k": (attn.top_k, (attn.softmax(x), 3), {}),
        "top_p": (attn.top_p, (attn.softmax(x), 0.8), {}),
        "next_distribution": (attn.next_distribution, (x, 0.7), {"k": 3, "p": 0.8}),
        "pair_counts": (attn.pair_counts, (rng.integers(0, 3, 20),), {}),
        "merge_pair": (attn.merge_pair, (rng.integers(0, 3, 20), (1, 1), 3), {}),
        "learn_bpe": (attn.learn_bpe, (rng.integers(0, 3, 20), 3, 3), {}),
        "bpe_encode": (attn.bpe_encode, (rng.integers(0, 3, 20), [(1, 1), (0, 3)], 3), {}),
        "bpe_decode": (attn.bpe_decode, (np.array([4, 3, 0]), [(1, 1), (0, 3)], 3), {}),
        **_decoder_calls(rng, x),
        **_long_context_calls(rng),
    }


def _decoder_calls(rng, x):
    """The calls of the modern decoder block and the mixture of experts (same contract as above)."""
    d_model = x.shape[-1]
    block = attn.init_llama_block(rng, d_model, 4, 2, 12)
    moe = attn.init_moe(rng, d_model, 6, 4)
    chosen, _, probs = attn.route_top_k(x[0].copy(), moe["router"], 2)
    return {
        "rms_norm": (attn.rms_norm, (x, rng.standard_normal(d_model)), {}),
        "rms_norm_backward": (attn.rms_norm_backward, (x + 1, x, rng.standard_normal(d_model)), {}),
        "gelu": (attn.gelu, (x,), {}),
        "silu": (attn.silu, (x,), {}),
        "gelu_feed_forward": (attn.gelu_feed_forward, (x, attn.init_feed_forward(rng, d_model, 12)), {}),
        "swiglu_feed_forward": (attn.swiglu_feed_forward, (x, block["ffn"]), {}),
        "init_swiglu": (attn.init_swiglu, (rng, d_model, 12), {}),
        "init_llama_block": (attn.init_llama_block, (rng, d_model, 4, 2, 12), {}),
        "rope_grouped_attention": (attn.rope_grouped_attention, (x, block["self_attn"], 4, 2), {}),
        "llama_block": (attn.llama_block, (x, block, 4, 2), {"positions": np.arange(5) + 3}),
        "llama_d_ff": (attn.llama_d_ff, (d_model, 4), {}),
        "decoder_parameter_counts": (attn.decoder_parameter_counts, (11, d_model, 2, 4, 2, 12), {}),
        "init_moe": (attn.init_moe, (rng, d_model, 6, 4), {}),
        "route_top_k": (attn.route_top_k, (x, moe["router"], 2), {}),
        "load_balancing_loss": (attn.load_balancing_loss, (probs, chosen), {}),
        "expert_capacity": (attn.expert_capacity, (10, 4, 1.25), {"k": 2}),
        "within_capacity": (attn.within_capacity, (chosen, 4, 2), {}),
        "moe_feed_forward": (attn.moe_feed_forward, (x, moe, 2), {"capacity_factor": 1.0}),
    }


def _long_context_calls(rng):
    """The calls of the long-context modules (same contract as the tables above)."""
    q, k, v = rng.standard_normal((3, 6, 4))
    return {
        "sliding_window_mask": (attn.sliding_window_mask, (6, 2), {}),
        "receptive_field": (attn.receptive_field, (attn.sliding_window_mask(6, 2), 3), {}),
        "RollingKVCache": (attn.RollingKVCache, (2, 4, 2), {}),
        "strided_mask": (attn.strided_mask, (6, 2), {}),
        "fixed_mask": (attn.fixed_mask, (6, 3), {"c": 2}),
        "strided_pairs": (attn.strided_pairs, (6, 2), {}),
        "interpolated_frequencies": (attn.interpolated_frequencies, (8, 4), {}),
        "ntk_frequencies": (attn.ntk_frequencies, (8, 4), {}),
        "yarn_ramp": (attn.yarn_ramp, (8, 64), {}),
        "yarn_frequencies": (attn.yarn_frequencies, (8, 4, 64), {}),
        "yarn_logit_factor": (attn.yarn_logit_factor, (4,), {}),
        "flash_block_sizes": (attn.flash_block_sizes, (4, 32), {}),
        "standard_hbm_accesses": (attn.standard_hbm_accesses, (6, 4), {}),
        "flash_hbm_accesses": (attn.flash_hbm_accesses, (6, 4, 32), {}),
        "HBM": (attn.HBM, (), {}),
        "standard_attention_io": (attn.standard_attention_io, (q, k, v), {}),
        "flash_attention_io": (attn.flash_attention_io, (q, k, v, 32), {}),
        "weights_from_logsumexp": (attn.weights_from_logsumexp, (q, k, np.zeros(6)), {}),
    }


def arrays_in(value):
    """Every numpy array inside a nested dict / list / tuple."""
    if isinstance(value, np.ndarray):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from arrays_in(item)
    elif isinstance(value, (list, tuple)):
        for item in value:
            yield from arrays_in(item)


# ----------------------------------------------------------- no mutation --


def test_every_public_function_is_in_the_mutation_table(rng):
    assert set(public_calls(rng)) == set(attn.__all__)


@pytest.mark.parametrize("name", attn.__all__)
def test_no_function_mutates_its_inputs(rng, name):
    function, args, kwargs = public_calls(rng)[name]
    inputs = list(arrays_in((args, kwargs)))
    copies = [a.copy() for a in inputs]
    for a in inputs:
        a.flags.writeable = False  # any in-place write to a caller's array raises
    function(*args, **kwargs)
    for a, before in zip(inputs, copies, strict=True):
        np.testing.assert_array_equal(a, before)


MODULES = [f"attn.{info.name}" for info in pkgutil.iter_modules(attn.__path__)]

FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE


def docstring_examples():
    """Every docstring with examples in every attn module (each run with its own module's globals)."""
    finder = doctest.DocTestFinder()
    tests = []
    for name in MODULES:
        tests += [test for test in finder.find(importlib.import_module(name)) if test.examples]
    return sorted(tests, key=lambda test: test.name)


@pytest.mark.parametrize("test", docstring_examples(), ids=lambda test: test.name)
def test_docstring_example_runs_as_shown(test):
    report = []
    runner = doctest.DocTestRunner(optionflags=FLAGS)
    result = runner.run(test, out=report.append, clear_globs=True)
    assert result.failed == 0, "".join(report)


@pytest.mark.parametrize("name", attn.__all__)
def test_every_public_function_shows_an_example(name):
    doc = inspect.getdoc(getattr(attn, name))
    examples = doctest.DocTestParser().get_examples(doc)
    assert examples, f"attn.{name}: add a tiny runnable example (>>> ...) with its shapes"
    assert any(example.want for example in examples), f"attn.{name}: the example must show a result"


def test_the_examples_are_found():
    """The finder sees every module and a good number of examples (a broken finder would pass vacuously)."""
    assert {"attn.core", "attn.kernels", "attn._validate", "attn.blockwise", "attn.layers"} <= set(MODULES)
    assert len(docstring_examples()) >= len(attn.__all__)


def _page_and_snippets(page: Path) -> str:
    section = page.stem.split("-", 1)[0]
    snippets = sorted((ROOT / "snippets").glob(f"{section}_*.py"))
    return page.read_text(encoding="utf-8") + "".join(s.read_text(encoding="utf-8") for s in snippets)


@pytest.mark.parametrize("name", attn.__all__)
def test_each_public_function_names_a_page_that_uses_it(name):
    pages = re.findall(r"Taught on: (docs/[\w.-]+\.md)", inspect.getdoc(getattr(attn, name)) or "")
    assert pages, f"attn.{name} names no page ('Taught on: docs/PAGE.md')"
    for page in pages:
        path = ROOT / page
        assert path.is_file(), f"attn.{name} names {page}, which does not exist"
        assert re.search(rf"\b{name}\b", _page_and_snippets(path)), f"{page} never mentions attn.{name}"
