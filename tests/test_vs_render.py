"""The Verbotene Stadt table image, probed by pixels with colours written out here (not read from
render/verbotene_stadt/palette.py), so a wrong colour in the palette is caught."""

from __future__ import annotations

import io
import random

import pytest
from PIL import Image, ImageChops

from engine.verbotene_stadt.game import Game
from engine.verbotene_stadt.players import choose_simple
from render.verbotene_stadt import square_box, table_image, table_png
from tests.pixels import picture

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
    assert picture(table_png(other.view(None), NAMES)) == picture(table_png(game.view(None), NAMES))
    seat = picture(table_png(other.view("north"), NAMES))
    assert seat != picture(table_png(game.view("north"), NAMES))


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


def _light(rgb: object) -> bool:
    assert isinstance(rgb, tuple)
    return all(c > 120 for c in rgb[:3])


def test_the_board_is_numbered_along_x_and_y_as_the_menus_name_squares() -> None:
    """Menus name squares `x,y`: a number stands above every column and left of every row."""
    image = table_image(Game(2, seed=1).view(None), NAMES).convert("RGB")
    for k in range(15):
        x0, y0, x1, _ = square_box((k, 0))
        above = [
            image.getpixel((x, y)) for x in range(x0 + 8, x1 - 8) for y in range(y0 - 22, y0 - 6)
        ]
        assert any(_light(p) for p in above), f"no number over column {k}"
        x0, y0, _, y1 = square_box((0, k))
        left = [
            image.getpixel((x, y)) for x in range(x0 - 24, x0 - 6) for y in range(y0 + 8, y1 - 8)
        ]
        assert any(_light(p) for p in left), f"no number left of row {k}"


def test_every_pavilions_card_marks_keep_clear_of_its_walls() -> None:
    """The marks of the cards left are what changes when a pile empties; they must lie inside
    the pavilion, at least 7 pixels from any side that is a wall (pavilion 8 once touched it)."""
    game = Game(2, seed=1)
    board = game.board
    full = game.view(None)
    for number, squares in board.pavilions.items():
        empty = full.model_copy(update={"pile_sizes": {**full.pile_sizes, number: 0}})
        a = table_image(full, NAMES).convert("RGB")
        b = table_image(empty, NAMES).convert("RGB")
        box = ImageChops.difference(a, b).getbbox()
        assert box is not None, number
        left, top, right, bottom = box
        for px, py in ((left, top), (right - 1, top), (left, bottom - 1), (right - 1, bottom - 1)):
            inside = [sq for sq in squares if _within(square_box(sq), px, py)]
            assert inside, (number, (px, py))
            x0, y0, x1, y1 = square_box(inside[0])
            sx, sy = inside[0]
            gaps = {"N": py - y0, "S": y1 - py, "W": px - x0, "E": x1 - px}
            steps = {"N": (0, -1), "S": (0, 1), "W": (-1, 0), "E": (1, 0)}
            for side, (dx, dy) in steps.items():
                if (sx + dx, sy + dy) not in squares:
                    assert gaps[side] >= 7, (number, side, gaps[side])


def _within(box: tuple[int, int, int, int], x: int, y: int) -> bool:
    return box[0] <= x < box[2] and box[1] <= y < box[3]


def test_a_one_square_move_is_framed_where_it_began_and_ended() -> None:
    """A path of one square is a line hidden under the pawn: its two squares are framed."""
    view = _midgame(11).view(None)
    assert view.last_move is not None
    code = view.last_move.official
    start = view.officials[code]
    step = next(
        (x, y)
        for x, y in ((start[0] + 1, start[1]), (start[0] - 1, start[1]), (start[0], start[1] + 1))
        if (x, y) not in view.officials.values() and Game(2, seed=1).board.kind((x, y)) != "#"
    )
    moved = view.last_move.model_copy(update={"path": [start, step], "entered": None})
    shown = view.model_copy(
        update={"last_move": moved, "officials": {**view.officials, code: step}}
    )
    image = table_image(shown, NAMES).convert("RGB")
    for sq in (start, step):
        x0, y0, _, _ = square_box(sq)
        # the frame's top side, left of the pawn
        pixel = image.getpixel((x0 + 6, y0 + 3))
        assert isinstance(pixel, tuple)
        assert _is(pixel, "path"), (sq, pixel)


class Drawn:
    """Every text the table image writes, with its colour."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        import render.fonts
        import render.verbotene_stadt.table as table

        self.texts: list[tuple[str, tuple[int, ...]]] = []
        real = render.fonts.stamp

        def stamp(
            image: Image.Image,
            xy: object,
            text: str,
            size: int,
            fill: tuple[int, ...],
            **kw: object,
        ) -> None:
            self.texts.append((text, fill))
            real(image, xy, text, size, fill, **kw)  # type: ignore[arg-type]

        monkeypatch.setattr(table, "stamp", stamp)

    def colour_of(self, text: str) -> tuple[int, ...]:
        found = [fill for drawn, fill in self.texts if drawn == text]
        assert found, (text, [drawn for drawn, _ in self.texts])
        return found[0]


def _team_game_over() -> Game:
    game = Game(4, seed=4, teams=True)
    rng = random.Random(1)
    while not game.is_over:
        turn = game.to_act[0]
        game.play(turn.seat, choose_simple(game, turn.seat, rng))
    return game


def test_the_team_game_shows_partners_and_their_totals(monkeypatch: pytest.MonkeyPatch) -> None:
    game = _team_game_over()
    drawn = Drawn(monkeypatch)
    table_image(game.view(None), NAMES)
    north, east, south, west = game.players
    points = dict(zip(game.players, (game.points()[s] for s in game.players), strict=True))
    team1 = points[north] + points[south]
    team2 = points[east] + points[west]
    texts = [text for text, _ in drawn.texts]
    for name in ("Ann · team 1", "Chloé · team 1", "Bob · team 2", "Dmitri · team 2"):
        assert name in texts
    for team, partners, total in ((1, "Ann & Chloé", team1), (2, "Bob & Dmitri", team2)):
        said = "1 pt" if total == 1 else f"{total} pts"
        assert f"Team {team} ({partners}): {said}" in texts


def test_points_are_counted_in_words_one_point_and_many(monkeypatch: pytest.MonkeyPatch) -> None:
    game = Game(4, seed=4)
    north, east, south, west = game.players
    seen = game.view(None).model_copy(update={"points": {north: 1, east: 0, south: 2, west: 11}})
    drawn = Drawn(monkeypatch)
    table_image(seen, NAMES)
    texts = [text for text, _ in drawn.texts]
    assert "1 pt" in texts and "1 pts" not in texts
    assert {"0 pts", "2 pts", "11 pts"} <= set(texts)


def test_the_final_image_singles_out_the_winners_in_gold(monkeypatch: pytest.MonkeyPatch) -> None:
    game = Game(3, seed=2)
    rng = random.Random(2)
    while not game.is_over:
        turn = game.to_act[0]
        game.play(turn.seat, choose_simple(game, turn.seat, rng))
    names = {"north": "Ann", "east": "Bob", "south": "Chloé"}
    winners = set(game.ended.winners if game.ended else ())
    assert winners and winners != set(game.players)
    drawn = Drawn(monkeypatch)
    table_image(game.view(None), names)
    for seat in game.players:
        gold = _is(drawn.colour_of(names[seat]), "gold")
        assert gold == (seat in winners), seat


def test_the_legend_says_what_roofs_and_yellow_and_grey_squares_mean(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    drawn = Drawn(monkeypatch)
    table_image(Game(2, seed=1).view(None), NAMES)
    texts = [t for t, _ in drawn.texts]
    assert "Roof: no official goes here" in texts
    assert "From these squares a slide goes one square" in texts
