"""The benchmarks' tests: a package, so that a module may share its name with one of tests/attn (test_training)."""
