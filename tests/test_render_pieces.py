"""Pieces of a tile-game picture pasted from caches (the coordinate bands, the legal spots) are
the very pixels drawing them in place gives: at every cell size, where a label spills out of
its band, and where a spot's cell is not bare."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest
from PIL import Image

import render.forbidden_city.images as images
import render.forbidden_city.table as table
from engine.forbidden_city import Game
from engine.forbidden_city.view import SeatView
from render import paint
from render.forbidden_city.spots import spots
from render.forbidden_city.table import Bounds


def _positions() -> Iterator[tuple[str, SeatView, Bounds | None]]:
    """A seeded game at its start, middle and end of play, and a late board shown in wider
    bounds (as a replay shows it), so the cells are 48 and 40 pixels and labels reach -14."""
    game = Game(4, seed=5)
    rng = random.Random(5)
    while not game.is_over:
        if len(game.moves) in (0, 30, 70):
            yield f"move {len(game.moves)}", game.view(game.current), None
        game.play(rng.choice(game.legal_moves()))
    seen = game.view(None)
    yield "48-pixel cells", seen, Bounds(-13, -13, 26, 26)
    yield "40-pixel cells", seen, Bounds(-14, -14, 31, 31)


def _drawn(seen: SeatView, shown: Bounds | None) -> list[Image.Image]:
    pictures = [images.table_image(seen, shown=shown)]
    if not seen.over and seen.to_play == seen.seat:
        pictures.append(images.private_image(seen))
    return pictures


@pytest.mark.parametrize("name, seen, shown", list(_positions()), ids=lambda v: str(v)[:20])
def test_cached_pieces_are_the_pixels_drawn_in_place(
    name: str, seen: SeatView, shown: Bounds | None, monkeypatch: pytest.MonkeyPatch
) -> None:
    spilled: list[bool] = []
    strip = table._strip

    def watched(*args: object) -> Image.Image | None:
        made = strip(*args)  # type: ignore[arg-type]
        spilled.append(made is None)
        return made

    with monkeypatch.context() as patched:
        patched.setattr(table, "_strip", watched)
        pasted = _drawn(seen, shown)
    with monkeypatch.context() as patched:  # no band, no spot from a cache
        patched.setattr(table, "_strip", lambda *args: None)
        patched.setattr(table, "_split", lambda *args: None)
        in_place = _drawn(seen, shown)
    assert spilled and not all(spilled), name  # bands were pasted
    if shown == Bounds(-14, -14, 31, 31):
        assert any(spilled), "labels of three characters spill out of 40-pixel cells' bands"
    for cached, drawn in zip(pasted, in_place, strict=True):
        assert cached.tobytes() == drawn.tobytes(), name


def test_a_spot_on_a_cell_that_is_not_bare_is_drawn_over_what_is_there() -> None:
    """A room's badge may lie across a legal spot: the spot is drawn on it, not pasted with
    the bare cell around it."""
    game = Game(4, seed=5)
    rng = random.Random(5)
    while len(game.moves) < 40:
        game.play(rng.choice(game.legal_moves()))
    mine = game.view(game.current)
    p = images.plan(mine, None, "private")
    spot = spots(mine)[0]
    canvas = images.private_image(mine)
    left, top = p.layout.cell_box(spot.x, spot.y)[:2]
    canvas.paste(0, (left + 2, top + 2, left + 6, top + 6))  # something on the cell
    before = canvas.copy()
    table._spot(canvas, paint.Draw(canvas), p.layout, spot)
    corner = canvas.crop((left + 2, top + 2, left + 6, top + 6))
    assert corner.tobytes() == before.crop((left + 2, top + 2, left + 6, top + 6)).tobytes()
