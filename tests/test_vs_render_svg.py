"""Die Verbotene Stadt's board as SVG, for the web page: each official under its column's
number and beside its row's, the cards left in each pavilion, the open pavilion ringed, the
last move's path; the same drawing from every seat's view (no bribe is ringed); no style."""

from __future__ import annotations

import random
from xml.etree import ElementTree

import pytest

from bot.games.verbotene_stadt import VerboteneStadt
from engine.verbotene_stadt import Game
from render.verbotene_stadt.svg import board_svg

NS = "{http://www.w3.org/2000/svg}"


def _played(actions: int, seed: int) -> Game:
    game = VerboteneStadt().new_game(3, {}, seed)
    rng = random.Random(seed)
    for _ in range(actions):
        if game.is_over:
            break
        seat = game.to_act[0].seat
        game.play(seat, rng.choice(game.legal_actions(seat)))
    return game


@pytest.mark.parametrize(("actions", "seed"), [(0, 1), (10, 2), (40, 3), (80, 4)])
def test_the_svg_draws_the_views_board(actions: int, seed: int) -> None:
    view = _played(actions, seed).view(None)
    drawing = ElementTree.fromstring(board_svg(view, "The table"))
    texts = [
        (e.text, float(e.get("x", 0)), float(e.get("y", 0))) for e in drawing.iter(NS + "text")
    ]
    top = min(y for _, _, y in texts)
    columns = {t: x for t, x, y in texts if y == top}  # the numbers above the board
    left = min(x for _, x, _ in texts)
    rows = {t: y for t, x, y in texts if x == left}  # the numbers left of it
    pawns = {e.get("data-official"): e for e in drawing.iter(NS + "g") if e.get("data-official")}
    assert set(pawns) == set(view.officials)
    for code, (x, y) in view.officials.items():
        disc = pawns[code].find(NS + "circle")
        assert disc is not None
        assert float(disc.get("cx", 0)) == columns[str(x)], code
        assert float(disc.get("cy", 0)) == pytest.approx(rows[str(y)], abs=0.5), code
    filled: dict[int, int] = {}
    for card in drawing.iter(NS + "rect"):
        if card.get("data-card") and card.get("fill") != "none":
            number = int(card.get("data-card", 0))
            filled[number] = filled.get(number, 0) + 1
    assert {n: k for n, k in view.pile_sizes.items() if k} == filled
    opened = [e.get("data-open") for e in drawing.iter() if e.get("data-open")]
    assert opened == ([] if view.open_pavilion is None else [str(view.open_pavilion)])
    paths = [e.get("data-path") for e in drawing.iter() if e.get("data-path")]
    moved = view.last_move
    assert paths == ([] if moved is None or len(moved.path) < 2 else [moved.official])
    assert not any(e.get("style") for e in drawing.iter())


def test_every_seat_sees_the_same_board() -> None:
    game = _played(30, 7)
    public = board_svg(game.view(None))
    assert all(board_svg(game.view(seat)) == public for seat in game.players)
