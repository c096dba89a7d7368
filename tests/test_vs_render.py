"""The Verbotene Stadt table image, probed by pixels with colours written out here (not read from
render/verbotene_stadt/palette.py), so a wrong colour in the palette is caught."""

from __future__ import annotations

import io
import random

import pytest
from PIL import Image

from engine.verbotene_stadt.game import Game
from engine.verbotene_stadt.players import choose_simple
from render.verbotene_stadt import square_box, table_image, table_png

NAMES = {"north": "Ann", "east": "Bob", "south": "Chloé", "west": "Dmitri"}


def _midgame(seed: int, exiled: int = 4) -> Game:
    game = Game(4, seed=seed)
    rng = random.Random(seed)
    while not game.is_over and (
        len(game.exiled) < exiled or game.to_act[0].kind != "move" or not game.moves_made
    ):
        turn = game.to_act[0]
        game.play(turn.seat, choose_simple(game, turn.seat, rng))
    return game


def _centre(sq: tuple[int, int]) -> tuple[int, int]:
    x0, y0, x1, y1 = square_box(sq)
    return (x0 + x1) // 2, (y0 + y1) // 2


def _is(rgb: tuple[int, ...], name: str) -> bool:
    r, g, b = rgb[:3]
    return {
        "R": r > 150 and g < 90 and b < 90,
        "Y": r > 200 and g > 160 and b < 90,
        "B": b > 150 and r < 90,
        "G": g > 110 and r < 90 and b < 120,
        "K": r < 60 and g < 60 and b < 60,
        "gold": r > 230 and 150 < g < 225 and b < 60,
        "magenta": r > 200 and g < 110 and b > 120,
        "path": b > 200 and r < 60 and 100 < g < 200,
    }[name]


@pytest.fixture(scope="module")
def game() -> Game:
    return _midgame(11)


def test_every_official_is_a_pawn_in_its_robe_colour_on_its_square(game: Game) -> None:
    image = table_image(game.view(None), NAMES).convert("RGB")
    assert len(game.at) == 25 - len(game.exiled)
    for code, sq in game.at.items():
        cx, cy = _centre(sq)
        # the robe: left and right of the letters, inside the disc
        robe = image.getpixel((cx - 11, cy + 2))
        assert isinstance(robe, tuple)
        assert _is(robe, code[1]), (code, sq, robe)
        hat = image.getpixel((cx, cy - 14))
        assert isinstance(hat, tuple)
        assert _is(hat, code[0]), (code, sq, hat)


def test_the_open_pavilion_and_no_other_is_ringed_in_gold(game: Game) -> None:
    image = table_image(game.view(None), NAMES).convert("RGB")
    board = game.board
    for number, squares in board.pavilions.items():
        ringed = False
        for sq in squares:
            x0, y0, x1, y1 = square_box(sq)
            for px, py in ((x0 + 1, (y0 + y1) // 2), (x1 - 1, (y0 + y1) // 2)):
                pixel = image.getpixel((px, py))
                assert isinstance(pixel, tuple)
                ringed |= _is(pixel, "gold")
        assert ringed == (number == game.open), number


def test_only_the_private_image_shows_the_bribe(game: Game) -> None:
    bribe = game.bribes[0]
    assert bribe is not None and bribe in game.at
    cx, cy = _centre(game.at[bribe])
    public = table_image(game.view(None), NAMES).convert("RGB")
    private = table_image(game.view("north"), NAMES).convert("RGB")
    ring = (cx + 17, cy)
    private_pixel = private.getpixel(ring)
    public_pixel = public.getpixel(ring)
    assert isinstance(private_pixel, tuple) and isinstance(public_pixel, tuple)
    assert _is(private_pixel, "magenta")
    assert not _is(public_pixel, "magenta")


def test_the_public_image_is_the_same_whatever_the_secret_bribes() -> None:
    """Two games alike in all but the players' bribes draw the same channel image."""
    game = _midgame(5)
    other = game.copy()
    on_board = sorted(set(game.at) - {b for b in game.bribes if b})
    other.bribes = [on_board[i] for i in range(len(game.players))]
    assert other.bribes != game.bribes
    assert table_png(other.view(None), NAMES) == table_png(game.view(None), NAMES)
    assert table_png(other.view("north"), NAMES) != table_png(game.view("north"), NAMES)


def test_the_last_move_is_drawn_as_a_path(game: Game) -> None:
    view = game.view(None)
    assert view.last_move is not None
    image = table_image(view, NAMES).convert("RGB")
    pawns = [_centre(sq) for sq in game.at.values()]
    seen = 0
    for first, second in zip(view.last_move.path, view.last_move.path[1:], strict=False):
        (ax, ay), (bx, by) = _centre(first), _centre(second)
        for k in range(1, 20):
            x, y = ax + (bx - ax) * k // 20, ay + (by - ay) * k // 20
            if all(abs(x - px) > 17 or abs(y - py) > 17 for px, py in pawns):
                pixel = image.getpixel((x, y))
                assert isinstance(pixel, tuple)
                seen += 1
                assert _is(pixel, "path"), (first, second, (x, y), pixel)
    assert seen > 0


def test_the_png_is_small_and_readable() -> None:
    png = table_png(_midgame(3).view("east"), NAMES)
    image = Image.open(io.BytesIO(png))
    assert image.format == "PNG"
    assert image.width >= 900 and image.height >= 600
    assert len(png) < 250_000
