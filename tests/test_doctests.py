"""The examples in the package's docstrings run, and say what they show (``doctest``)."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import stress_tui

MODULES = sorted(
    info.name
    for info in pkgutil.walk_packages(stress_tui.__path__, "stress_tui.")
    if not info.name.endswith("__main__")
)


def _tests(name: str) -> list[doctest.DocTest]:
    module = importlib.import_module(name)
    return [test for test in doctest.DocTestFinder().find(module) if test.examples]


@pytest.mark.parametrize("name", MODULES)
def test_the_examples_in_a_module_s_docstrings_hold(name: str) -> None:
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    for test in _tests(name):
        runner.run(test)
    assert runner.failures == 0, f"{name}: {runner.failures} doctest examples failed"


def test_there_are_examples_in_every_layer() -> None:
    layers: dict[str, int] = {}
    for name in MODULES:
        layer = name.split(".")[1]
        layers[layer] = layers.get(layer, 0) + sum(len(t.examples) for t in _tests(name))
    assert all(layers.get(layer, 0) > 0 for layer in ("core", "players", "storage", "cli")), layers
