"""Docstring examples: every public function shows one, and every example in attn runs as shown."""

import doctest
import importlib
import inspect
import pkgutil

import pytest

import attn

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
