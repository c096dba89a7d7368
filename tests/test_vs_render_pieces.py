"""Officials pasted from a cache of officials drawn alone are the very pixels drawing them in
place gives: on the board, on the last move's path, ringed as a bribe, on the exile terrace,
and in a seat's panel; one too small for its letters is drawn in place."""

from __future__ import annotations

import random
import types
from collections.abc import Iterator

import pytest
from PIL import Image

import render.verbotene_stadt.table as table
from engine.verbotene_stadt import Game
from engine.verbotene_stadt.players import choose_greedy
from engine.verbotene_stadt.view import SeatView
from render import paint
from render.verbotene_stadt import palette as pal


def _views() -> Iterator[tuple[str, SeatView]]:
    """A seeded game's public view and the view of the seat to act, every 40 actions."""
    game = Game(4, seed=8)
    rng = random.Random(8)
    actions = 0
    while not game.is_over:
        turn = game.to_act[0]
        if actions % 40 == 5:
            yield f"action {actions}, table", game.view(None)
            yield f"action {actions}, {turn.seat}", game.view(turn.seat)
        game.play(turn.seat, choose_greedy(game, turn.seat, rng))
        actions += 1


VIEWS = list(_views())


def _in_place(view: SeatView, monkeypatch: pytest.MonkeyPatch) -> Image.Image:
    with monkeypatch.context() as patched:  # no official from the cache
        patched.setattr(table, "_pawns", types.SimpleNamespace(get=lambda key, make: None))
        return table.table_image(view)


def test_the_views_show_officials_on_the_path_in_exile_and_as_a_bribe() -> None:
    assert any(v.last_move is not None for _, v in VIEWS)
    assert any(v.exiled for _, v in VIEWS)
    assert any(v.bribe is not None and v.bribe in v.officials for _, v in VIEWS)


@pytest.mark.parametrize("name, view", VIEWS, ids=[name for name, _ in VIEWS])
def test_pasted_officials_are_the_pixels_drawn_in_place(
    name: str, view: SeatView, monkeypatch: pytest.MonkeyPatch
) -> None:
    pasted = table.table_image(view)
    assert pasted.tobytes() == _in_place(view, monkeypatch).tobytes(), name


def test_an_official_too_small_for_its_letters_is_drawn_in_place() -> None:
    canvas = paint.canvas((60, 60), pal.BACKGROUND, pal.palette_image())
    assert table._lone_pawn(canvas, "RG", 6) is None
    assert table._lone_pawn(canvas, "RG", table.PAWN_R) is not None
    drawn = canvas.copy()
    table.draw_pawn(canvas, (30, 30), "RG", 6)
    table._draw_pawn(drawn, (30, 30), "RG", 6)
    assert canvas.tobytes() == drawn.tobytes()
    assert canvas.getextrema() != drawn.copy().crop((0, 0, 1, 1)).getextrema()  # it drew
