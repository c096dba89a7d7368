"""Every option of every command line says what it does (`--help`)."""

from __future__ import annotations

import argparse
from collections.abc import Callable

import pytest

from bot.__main__ import parser as bot_parser
from engine.ai.__main__ import parser as ai_parser
from engine.forbidden_city.__main__ import parser as forbidden_city_parser
from engine.verbotene_stadt.__main__ import parser as verbotene_stadt_parser
from render.__main__ import parser as render_parser

PARSERS = {
    "bot": bot_parser,
    "render": render_parser,
    "engine.forbidden_city": forbidden_city_parser,
    "engine.verbotene_stadt": verbotene_stadt_parser,
    "engine.ai": ai_parser,
}


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


def _subcommands(parser: argparse.ArgumentParser) -> list[str]:
    """The names of the command's subcommands, at every depth."""
    names = []
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                names += [name, *(f"{name} {n}" for n in _subcommands(sub))]
    return names


@pytest.mark.parametrize("made", PARSERS.values(), ids=PARSERS.keys())
def test_every_option_has_a_help_text(made: Callable[[], argparse.ArgumentParser]) -> None:
    assert _silent(made()) == []


@pytest.mark.parametrize(
    ("made", "commands"),
    [
        (
            forbidden_city_parser,
            ["score", "rotate", "catalogue", "play", "bench", "simulate", "replay"],
        ),
        (
            verbotene_stadt_parser,
            ["board", "moves", "reach", "score", "play", "simulate", "bench", "replay"],
        ),
        (ai_parser, ["arena", "tournament"]),
    ],
    ids=["engine.forbidden_city", "engine.verbotene_stadt", "engine.ai"],
)
def test_the_walk_reaches_every_engine_subcommand(
    made: Callable[[], argparse.ArgumentParser], commands: list[str]
) -> None:
    assert _subcommands(made()) == commands


def test_a_missing_help_text_is_found() -> None:
    made = argparse.ArgumentParser()
    made.add_argument("--said", help="has one")
    sub = made.add_subparsers(dest="command")
    quiet = sub.add_parser("quiet")
    quiet.add_argument("file")
    quiet.add_argument("--games", type=int)
    assert _silent(made) == ["quiet file", "quiet --games"]


def test_the_bots_help_lists_its_commands_and_not_the_load_runs_worker() -> None:
    shown = bot_parser().format_help()
    assert "SUPPRESS" not in shown and "load-worker" not in shown
    for command in ("bench", "load", "ratings"):
        assert f"    {command} " in shown
    assert bot_parser().parse_args(["load-worker", "--redis", "redis://x", "--port", "1"])
