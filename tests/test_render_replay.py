"""A replay as a chat plays it: one frame size and one scale for the whole game, the board
centred, every frame drawn edge to edge (no frame tucked in a corner of a larger one)."""

from __future__ import annotations

import io
import random

import pytest
from PIL import GifImagePlugin, Image, ImageChops

from bot.games import At
from bot.games.forbidden_city import MODULE as FC
from bot.games.verbotene_stadt import MODULE as VS
from engine.forbidden_city import Game as FcGame
from engine.forbidden_city.players import choose_greedy
from engine.verbotene_stadt.cards import ALL_CARDS
from engine.verbotene_stadt.game import Game as VsGame
from engine.verbotene_stadt.players import choose_simple
from engine.verbotene_stadt.view import SeatView
from render.forbidden_city.table import bounds, cell_size

AT = At(lang="en", channel_id="room1", users={}, names={})
RGB = tuple[int, int, int]
TABLE: RGB = (44, 56, 62)  # the Forbidden City table cloth
GRID: RGB = (58, 73, 80)  # its faint lines between empty cells
LAST: RGB = (0, 229, 255)  # the ring around the last tile placed
PANEL: RGB = (50, 58, 68)  # the Verbotene Stadt panel


def decoded(gif: bytes, mode: str = "RGB") -> list[Image.Image]:
    """Each frame as a viewer shows it, what came before included (in RGBA, a pixel left
    transparent shows the chat behind)."""
    shown = Image.open(io.BytesIO(gif))
    assert isinstance(shown, GifImagePlugin.GifImageFile)
    out = []
    for k in range(shown.n_frames):
        shown.seek(k)
        out.append(shown.convert(mode))
    return out


def _mask(image: Image.Image, colour: RGB, top: int) -> Image.Image:
    """White where the image below row `top` is exactly `colour`, black elsewhere."""
    below = image.crop((0, top, image.width, image.height))
    r, g, b = ImageChops.difference(below, Image.new("RGB", below.size, colour)).split()
    off = ImageChops.lighter(ImageChops.lighter(r, g), b)  # 0 only where all three match
    return off.point(lambda v: 255 if v == 0 else 0)


def _box(image: Image.Image, colour: RGB, top: int) -> tuple[int, int, int, int]:
    """The bounding box (right and bottom exclusive) of `colour` below row `top`."""
    found = _mask(image, colour, top).getbbox()
    assert found is not None, colour
    left, upper, right, lower = found
    return left, upper + top, right, lower + top


def _grid(image: Image.Image, top: int) -> tuple[int, int, int, int]:
    """The outer lines of the board's grid below row `top`: left, top, right, bottom. They run
    the whole board's length (the cells along its edges stay empty), unlike a stray pixel of a
    label's edge in the grid's colour."""
    mask = _mask(image, GRID, top)
    columns = list(mask.resize((mask.width, 1), Image.Resampling.BOX).tobytes())
    rows = list(mask.resize((1, mask.height), Image.Resampling.BOX).tobytes())
    xs = [x for x, v in enumerate(columns) if v >= 0.9 * max(columns)]
    ys = [y for y, v in enumerate(rows) if v >= 0.9 * max(rows)]
    return xs[0], ys[0] + top, xs[-1], ys[-1] + top


def _header_bottom(image: Image.Image) -> int:
    """The first row of the table below the header: the left edge is the table cloth from
    there down."""
    y = image.height - 1
    while y > 0 and image.getpixel((0, y - 1)) == TABLE:
        y -= 1
    return y


def _flat_blocks(image: Image.Image, parts: int = 4) -> list[tuple[int, int]]:
    """The blocks of a `parts` x `parts` division of the image that hold one colour alone."""
    w, h = image.width // parts, image.height // parts
    flat = []
    for i in range(parts):
        for j in range(parts):
            block = image.crop((i * w, j * h, (i + 1) * w, (j + 1) * h))
            if len(block.getcolors(1 << 16) or ()) <= 1:
                flat.append((i, j))
    return flat


@pytest.fixture(scope="module")
def fc_replay() -> tuple[list[Image.Image], int]:
    """A whole 4-player game between greedy players, replayed from its record as `/fc replay`
    sends it: its frames and how many views it showed."""
    game = FcGame(4, seed=3)
    rng = random.Random(3)
    while not game.is_over:
        game.play(choose_greedy(game, rng))
    views = FC.replay_views(FC.dump(game))
    # the table grows past a scale step during the game: drawn alone, its cells would shrink
    assert cell_size(bounds(views[0])) > cell_size(bounds(views[-1]))
    return decoded(FC.replay_image(AT, views)), len(views)


def test_every_frame_of_a_replay_has_one_size(fc_replay: tuple[list[Image.Image], int]) -> None:
    frames, views = fc_replay
    assert len(frames) == views
    assert len({frame.size for frame in frames}) == 1


def test_the_last_tile_is_the_same_size_in_every_frame(
    fc_replay: tuple[list[Image.Image], int],
) -> None:
    """The board's scale does not jump as the table grows: the ring round the tile just placed
    (a cell and its border) measures the same from the first move to the last."""
    frames, _ = fc_replay
    rings = set()
    for frame in frames[1:]:
        left, top, right, bottom = _box(frame, LAST, _header_bottom(frame))
        rings.add(max(right - left, bottom - top))  # a room's badge may hide part of one side
    assert len(rings) == 1, rings


def test_the_board_is_centred_in_every_frame(fc_replay: tuple[list[Image.Image], int]) -> None:
    """The grid's margins left and right match, and so do those above it (below the header) and
    below it."""
    frames, _ = fc_replay
    for k, frame in enumerate(frames):
        header = _header_bottom(frame)
        left, top, right, bottom = _grid(frame, header)
        assert right - left > frame.width // 2, k  # the board, not a stray line
        assert abs(left - (frame.width - 1 - right)) <= 2, (k, left, right, frame.width)
        assert abs((top - header) - (frame.height - 1 - bottom)) <= 2, (k, top, bottom, header)


def test_no_frame_leaves_a_large_blank_region(fc_replay: tuple[list[Image.Image], int]) -> None:
    frames, _ = fc_replay
    for k, frame in enumerate(frames):
        assert _flat_blocks(frame) == [], k


def _stadt_views() -> list[SeatView]:
    """Two public views of a Verbotene Stadt game: early on, and with every card in one hand
    (three rows of cards, a taller image)."""
    game = VsGame(4, seed=11)
    rng = random.Random(11)
    first = game.view(None)
    while len(game.exiled) < 6 or game.to_act[0].kind != "move":
        turn = game.to_act[0]
        game.play(turn.seat, choose_simple(game, turn.seat, rng))
    late = VsGame.from_position(
        4,
        officials=game.at,
        open_pavilion=game.open or 1,
        bribes=game.bribes,
        hands=[list(ALL_CARDS), [], [], []],
        exiled=game.exiled,
    )
    return [first, late.view(None)]


def test_a_stadt_replay_draws_every_frame_at_the_tallest_frames_height() -> None:
    """A frame before the hands grew is drawn as tall as the last, its panel down to the
    bottom: not a shorter image padded below."""
    views = _stadt_views()
    frames = decoded(VS.replay_image(AT, views))
    assert len(frames) == 2 and frames[0].size == frames[1].size
    first = frames[0]
    panel_left = 14 * 2 + 22 + 15 * 40
    assert first.getpixel((panel_left + 20, first.height - 14 - 12)) == PANEL
    assert _flat_blocks(first) == []
