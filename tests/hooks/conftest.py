"""Shared fixtures for the tests of the MkDocs hooks (hooks/, one test module per hook)."""

import importlib.util
from pathlib import Path

import pytest

HOOKS = Path(__file__).resolve().parents[2] / "hooks"


@pytest.fixture(scope="session")
def load_hook():
    """``load_hook(name)`` -> the module hooks/NAME.py, loaded by path as MkDocs loads it."""

    def load(name: str):
        spec = importlib.util.spec_from_file_location(f"hooks_{name}", HOOKS / f"{name}.py")
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        return module

    return load
