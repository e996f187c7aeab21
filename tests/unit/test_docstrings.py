"""Every example in stc's docstrings runs and prints what it shows (doctest)."""

from __future__ import annotations

import doctest
import importlib
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[2]
PACKAGES = ("compiler", "dialects", "passes", "runtime", "tools")


def modules_with_examples() -> list[str]:
    """The modules whose source holds a `>>>` example, by their `stc.` names."""
    names = []
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            if ">>> " not in path.read_text(encoding="utf-8"):
                continue
            parts = path.relative_to(ROOT).with_suffix("").parts
            names.append(".".join(("stc", *parts[:-1])) if parts[-1] == "__init__" else ".".join(("stc", *parts)))
    return names


@pytest.mark.parametrize("name", modules_with_examples())
def test_docstring_examples_hold(name: str):
    module = importlib.import_module(name)
    tests = [test for test in doctest.DocTestFinder().find(module, name) if test.examples]
    assert tests, f"{name} shows `>>>` but holds no docstring example"
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    for test in tests:
        runner.run(test)
    assert runner.summarize(verbose=False).failed == 0
