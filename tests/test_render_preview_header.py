"""A preview's header names its mover, whose move it shows before they confirm it, not the
player who would be next: "Move 3 · Bob to play", Bob's row lit."""

from __future__ import annotations

from PIL import Image

import render.forbidden_city as render
from engine.forbidden_city import Game
from render.forbidden_city import palette as pal
from render.forbidden_city.header import ENTRY_H, ENTRY_MIN_W, PAD, TITLE_H
from tests.pixels import RGB, near


def _row_ground(image: Image.Image, seat: int, seats: int) -> RGB:
    """The ground of a player's row in the header, just inside its top edge."""
    columns = max(1, min(seats, (image.width - PAD) // ENTRY_MIN_W))
    entry_w = (image.width - PAD * 2) // columns
    row, col = divmod(seat, columns)
    left, top = PAD + col * entry_w, TITLE_H + PAD // 2 + row * ENTRY_H
    colour = image.convert("RGB").getpixel((left + entry_w // 2, top + 4))
    assert isinstance(colour, tuple)
    return colour[0], colour[1], colour[2]


def test_a_preview_is_headed_by_its_mover() -> None:
    game = Game(2, seed=4)
    for _ in range(2):
        game.play(game.legal_moves()[0])
    mover = game.current
    names = {"purple": "Ann", "yellow": "Bob"}
    mine = game.view(mover)
    before = render.private_image(mine, names)  # "Move 3 · <mover> to play", as it stands
    preview = render.preview_image(mine, mine.legal_moves[0], names)
    band = (0, 0, before.width, TITLE_H)
    assert preview.width == before.width
    assert preview.crop(band).tobytes() == before.crop(band).tobytes()
    players = mine.players
    lit = players.index(mover)
    assert near(_row_ground(preview, lit, len(players)), pal.ROW_TURN)
    assert near(_row_ground(preview, 1 - lit, len(players)), pal.HEADER)
