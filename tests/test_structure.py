"""The bot stays easy to live in: small modules, classes and functions (docs/architecture.md).

A module over 400 lines, a class over 300 or a function over 60 in `bot/` fails here, so a
room that grows too big is split when it grows, not later.
"""

from __future__ import annotations

import ast

from tests.procs import ROOT

LIMITS = {"module": 400, "class": 300, "function": 60}


def _sizes() -> list[tuple[str, str, int]]:
    found = []
    for path in sorted((ROOT / "bot").rglob("*.py")):
        text = path.read_text()
        name = str(path.relative_to(ROOT))
        found.append(("module", name, len(text.splitlines())))
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.ClassDef):
                kind = "class"
            elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                kind = "function"
            else:
                continue
            assert node.end_lineno is not None
            found.append((kind, f"{name}:{node.name}", node.end_lineno - node.lineno + 1))
    return found


def test_no_module_class_or_function_in_bot_is_too_long() -> None:
    sizes = _sizes()
    assert len([s for s in sizes if s[0] == "module"]) > 30  # the walk saw the bot
    too_long = [
        f"{kind} {name}: {lines} lines" for kind, name, lines in sizes if lines > LIMITS[kind]
    ]
    assert too_long == []


def test_the_service_is_a_package_whose_modules_say_what_they_own() -> None:
    service = ROOT / "bot" / "service"
    modules = sorted(service.glob("*.py"))
    assert len(modules) >= 8
    for path in modules:
        docstring = ast.get_docstring(ast.parse(path.read_text()))
        assert docstring, f"{path.name} has no docstring saying what it owns"
