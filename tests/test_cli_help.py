"""Every option of every command line says what it does (`--help`)."""

from __future__ import annotations

import argparse
from collections.abc import Callable

import pytest

from bot.__main__ import parser as bot_parser
from render.__main__ import parser as render_parser


def _silent(parser: argparse.ArgumentParser) -> list[str]:
    """Options and arguments, of the command and its subcommands, without a help text."""
    missing = []
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                missing += [f"{name} {m}" for m in _silent(sub)]
        elif not action.help:
            missing.append("/".join(action.option_strings) or action.dest)
    return missing


@pytest.mark.parametrize("made", [bot_parser, render_parser])
def test_every_option_has_a_help_text(made: Callable[[], argparse.ArgumentParser]) -> None:
    assert _silent(made()) == []
