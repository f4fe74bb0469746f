"""The docstring examples of the whole-model modules run as shown."""

import doctest
import importlib

import pytest

MODULES = ["attn.embedding", "attn.loss", "attn.backward", "attn.training", "attn.model", "attn.optim", "attn.greedy"]
FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE


@pytest.mark.parametrize("module", MODULES)
def test_docstring_examples_run_as_shown(module):
    tests = [test for test in doctest.DocTestFinder().find(importlib.import_module(module)) if test.examples]
    assert tests, f"{module} has no examples"
    for test in tests:
        report = []
        result = doctest.DocTestRunner(optionflags=FLAGS).run(test, out=report.append, clear_globs=True)
        assert result.failed == 0, "".join(report)
