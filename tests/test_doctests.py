"""The `>>>` examples in docstrings run, and say what is true.

Every module of `engine/`, `render/` and `bot/` whose text holds an example is imported and
its examples run, as python-chess runs its own: an example that no longer holds fails here,
with doctest's report naming it. (Few of `bot/`'s hold one: a module that starts things on
import must not.)
"""

from __future__ import annotations

import doctest
import importlib
import io

import pytest

from tests.procs import ROOT

FOLDERS = ("engine", "render", "bot")
AT_LEAST = 40  # examples run, all modules together: the walk did find them


def _modules() -> list[str]:
    found = []
    for folder in FOLDERS:
        for path in sorted((ROOT / folder).rglob("*.py")):
            if ">>>" in path.read_text():
                parts = path.relative_to(ROOT).with_suffix("").parts
                found.append(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return found


def _run(name: str) -> doctest.TestResults:
    module = importlib.import_module(name)
    out = io.StringIO()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    for test in doctest.DocTestFinder().find(module):
        runner.run(test, out=out.write)
    result = runner.summarize(verbose=False)
    assert result.failed == 0, out.getvalue()
    return result


@pytest.mark.parametrize("name", _modules())
def test_the_examples_hold(name: str) -> None:
    assert _run(name).attempted > 0, f"{name} has `>>>` in its text but no example doctest runs"


def test_the_examples_are_found() -> None:
    modules = _modules()
    assert len(modules) >= 6
    assert sum(_run(name).attempted for name in modules) >= AT_LEAST
