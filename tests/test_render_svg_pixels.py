"""The web page's board is the chat's picture: for positions of both games, the board's SVG
drawn by a real Chromium at the PNG's size has the pixels of the PNG's board.

Both draw each piece from one description (`render.shapes`), so they differ only where one is
smoothed and the other is not: the tile game's PNGs are drawn supersampled, Die Verbotene
Stadt's not at all, and a font rasteriser hints letters its own way. Differences are measured
over 9 x 9 patches: that noise stays low, and a piece drawn otherwise on one side, even a small
one (a dragon's seal, an official's cap), stands out: two tests below show it does.

What the page draws around the pieces is its own and left out: the grid's coordinates, the
last tile's ring, Die Verbotene Stadt's frame, and the badges the PNG puts on rooms just closed.
"""

from __future__ import annotations

import base64
import io
import random
from collections.abc import Iterator
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

import pytest
from PIL import Image, ImageChops, ImageDraw, ImageFilter
from playwright.async_api import Page

import render.forbidden_city.table as fc_table
import render.verbotene_stadt.art as vs_art
from engine.forbidden_city import Game, Tile
from engine.forbidden_city.position import score
from engine.forbidden_city.view import ClosedRoom, SeatView, TableCell
from engine.verbotene_stadt import Game as StadtGame
from engine.verbotene_stadt.actions import OFFICIALS
from engine.verbotene_stadt.board import Board
from engine.verbotene_stadt.players import choose_greedy
from engine.verbotene_stadt.position import parse_position
from engine.verbotene_stadt.view import SeatView as StadtView
from render.forbidden_city import art as fc_art
from render.forbidden_city import images
from render.forbidden_city import palette as fc_pal
from render.forbidden_city import svg as fc_svg
from render.forbidden_city.table import last_placed, outline_width
from render.verbotene_stadt import svg as vs_svg
from render.verbotene_stadt import table as vs_table
from render.verbotene_stadt.panel import CELL as SQUARE
from tests.browser import chromium
from tests.views import to_play
from tests.vs_positions import small_game

POSITIONS = Path(__file__).parent / "positions"
PATCH = 9  # pixels a side
# The worst patch's mean difference (the largest of R, G, B per pixel) each game allows. Smooth
# against sharp edges and hinted letters come to 21-40 for the tile game and 44-48 for Die
# Verbotene Stadt (every edge of its PNGs is a stair); dragons without their seal make 94-112,
# officials without their caps 146-183.
MOST = {"forbidden city": 60, "verbotene stadt": 80}
# Three advisors on a tile are in no stack (a tile holds one or two), but the pictures draw
# them: one tile of each seat, square and split, and a dragon in a split tile's second part.
SHOWCASE = """\
players: purple yellow red blue
start: advanced
at 3 -1 purple .#..W+3A
at 3 0 yellow ....P/aG+3A@2
at 3 1 red #...G\\W+3A
at -3 0 blue ....P+3A
at -3 1 blue a...W/G+D@2
"""


@dataclass(frozen=True)
class Difference:
    most: float  # the worst patch's mean difference
    largest: int  # the largest difference of a pixel
    mean: float  # the mean difference of a pixel
    where: tuple[int, int]  # the worst patch's middle, in the board's pixels


def difference(png: Image.Image, drawn: Image.Image) -> Difference:
    r, g, b = ImageChops.difference(png, drawn).split()
    each = ImageChops.lighter(ImageChops.lighter(r, g), b)
    values = each.get_flattened_data()
    patches = each.filter(ImageFilter.BoxBlur(PATCH // 2))
    most = patches.getextrema()[1]
    where = next(
        (x, y)
        for y in range(patches.height)
        for x in range(patches.width)
        if patches.getpixel((x, y)) == most
    )
    return Difference(float(most), max(values), sum(values) / len(values), where)  # type: ignore[arg-type]


# The PNGs' letters are drawn large and shrunk (the tile game's) or hinted by FreeType: a
# browser's hinting of its own would move their tops by a pixel.
PAGE_STYLE = "body{margin:0}svg{display:block}text{text-rendering:geometricPrecision}"


def _font_faces() -> str:
    """The PNGs' own text face, for the page the test draws in (a reader's has its own)."""
    faces = []
    for weight, name in ((400, "NotoSans-Regular-subset.ttf"), (700, "NotoSans-Bold-subset.ttf")):
        data = base64.b64encode(resources.files("render").joinpath("fonts", name).read_bytes())
        faces.append(
            f"@font-face{{font-family:'Noto Sans';font-weight:{weight};"
            f"src:url(data:font/ttf;base64,{data.decode()})}}"
        )
    return "".join(faces)


async def shot(
    page: Page, svg: str, box: tuple[float, float, float, float], size: tuple[int, int]
) -> Image.Image:
    """`svg` drawn by Chromium: its `box` (left, top, width, height in its units) filling a
    picture of `size`."""
    width, height = size
    await page.set_viewport_size({"width": width, "height": height})
    await page.set_content(f"<!doctype html><style>{_font_faces()}{PAGE_STYLE}</style>{svg}")
    await page.eval_on_selector(
        "svg",
        "(svg, [box, width, height]) => { svg.setAttribute('viewBox', box); "
        "svg.setAttribute('width', width); svg.setAttribute('height', height); }",
        [" ".join(f"{v:g}" for v in box), width, height],
    )
    await page.evaluate("document.fonts.ready.then(() => true)")
    png = await page.screenshot(clip={"x": 0, "y": 0, "width": width, "height": height})
    return Image.open(io.BytesIO(png)).convert("RGB")


# The tile game


def position_view(text: str) -> SeatView:
    """A position file's table as everyone sees it after its play (`tests/positions`)."""
    scored = score(text)
    plays = [line.split() for line in text.splitlines() if line.startswith("play ")]
    assert len(plays) <= 1, "one play: the rooms closed are its own"
    moves = [f"{words[1]},{words[2]}@0" for words in plays]
    table = [
        TableCell(
            x=x,
            y=y,
            kind=placed.kind,
            code=placed.tile.code if placed.tile is not None else placed.edges,
            owner=scored.players[placed.owner] if placed.owner is not None else None,
        )
        for (x, y), placed in sorted(scored.board.cells.items(), key=lambda kv: kv[0][::-1])
    ]
    rooms = [
        ClosedRoom(move=0, colour=e.colour, value=e.value, cells=e.cells, paid=e.paid)
        for e in scored.closed
    ]
    return SeatView(
        players=scored.players, start="beginner", seat=None, to_play=None, coins=scored.coins,
        tiles_left=dict.fromkeys(scored.players, 0), table=table, hand=None, legal_moves=[],
        moves=moves, played=[words[4] for words in plays], rooms=rooms, over=False,
        winners=[], revealed={}, bonus={},
    )  # fmt: skip


def tile_views() -> Iterator[tuple[str, SeatView]]:
    """The position files, the showcase, and seeded games of both starts: from the seat to
    play's view in the middle (the board is everyone's), from the table's at the end."""
    for path in sorted(POSITIONS.glob("*.pos")):
        yield path.stem, position_view(path.read_text(encoding="utf-8"))
    # and the temple in a room the last move closed: no play closes one on its own
    temple = ClosedRoom(move=0, colour="temple", value=1, cells=[(0, 0, 0)], paid={})
    showcase = position_view(SHOWCASE)
    yield "showcase", showcase.model_copy(update={"moves": ["3,-1@0"], "rooms": [temple]})
    for start, seed, shown in (("advanced", 5, (12, 45)), ("beginner", 2, (30,))):
        game = Game(4, start, seed=seed)
        rng = random.Random(seed)
        while not game.is_over:
            if len(game.moves) in shown:
                yield f"{start} {seed}, move {len(game.moves)}", to_play(game)
            game.play(rng.choice(game.legal_moves()))
        yield f"{start} {seed}, the end", game.view(None)


TILE_VIEWS = list(tile_views())


def tile_pieces(view: SeatView) -> set[str]:
    """What kinds of piece a table shows."""
    shown = {f"{kind} closed" for kind, rooms in (("just", fc_table.last_closed(view)),
             ("before", view.rooms)) if rooms}  # fmt: skip
    if any(x == cell.x and y == cell.y and cell.kind == "temple" for room in view.rooms
           for x, y, _ in room.cells for cell in view.table):  # fmt: skip
        shown.add("temple closed")
    for cell in view.table:
        shown.add(cell.kind)
        if cell.kind not in ("tile", "start") or not cell.code:
            continue
        tile = Tile.parse(cell.code)
        split = " on a split tile" if tile.diagonal else ""
        if tile.dragon:
            shown.add("dragon" + split)
        elif tile.advisors and cell.owner is not None:
            shown.add(f"{tile.advisors} advisors{split}")
            shown.add(fc_pal.SHAPE[cell.owner])
        if tile.diagonal:
            shown.add("split with an archway" if tile.diagonal_arch else "split by a wall")
        if "a" in tile.edges:
            shown.add("archway")
    return shown


def test_the_tile_positions_show_every_piece() -> None:
    shown = set().union(*(tile_pieces(view) for _, view in TILE_VIEWS))
    assert shown >= {
        "tile", "start", "temple", "garden", "archway", "split by a wall",
        "split with an archway", "dragon", "dragon on a split tile", "1 advisors",
        "2 advisors", "3 advisors", "1 advisors on a split tile", "3 advisors on a split tile",
        "circle", "square", "triangle", "diamond", "just closed", "before closed",
        "temple closed",
    }  # fmt: skip


async def tile_difference(
    page: Page, view: SeatView, monkeypatch: pytest.MonkeyPatch, svg: str | None = None
) -> Difference:
    """The board's grid in the table PNG against the page's board (or `svg`), drawn at its
    cell size, the last tile's ring left out of both."""
    with monkeypatch.context() as patched:
        patched.setattr(fc_table, "_badge", lambda *args: None)
        picture = images.table_image(view).convert("RGB")
    layout = images.plan(view, None, "table").layout
    b, cell = layout.bounds, layout.cell
    width, height = b.cols * cell, b.rows * cell
    png = picture.crop((layout.left, layout.top, layout.left + width, layout.top + height))
    units = (fc_svg.BAND, fc_svg.BAND, b.cols * fc_svg.CELL, b.rows * fc_svg.CELL)
    drawn = await shot(page, svg or fc_svg.board_svg(view), units, png.size)
    assert drawn.size == png.size
    placed = last_placed(view)
    if placed is not None:
        x0, y0, x1, y1 = layout.cell_box(placed.x, placed.y)
        x0, y0, x1, y1 = x0 - layout.left, y0 - layout.top, x1 - layout.left, y1 - layout.top
        reach = outline_width(cell)
        ring = Image.new("L", png.size, 0)
        ImageDraw.Draw(ring).rectangle((x0 - reach, y0 - reach, x1 + reach, y1 + reach), 255)
        ImageDraw.Draw(ring).rectangle((x0 + reach, y0 + reach, x1 - reach, y1 - reach), 0)
        drawn.paste(png, (0, 0), ring)
    return difference(png, drawn)


async def test_the_page_draws_the_tile_game_as_its_pictures_do(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    found = {}
    async with chromium() as browser:
        page = await browser.new_page()
        for name, view in TILE_VIEWS:
            found[name] = await tile_difference(page, view, monkeypatch)
    worst = max(found.items(), key=lambda item: item[1].most)
    assert worst[1].most <= MOST["forbidden city"], worst
    assert all(d.mean < 3 for d in found.values()), found


async def test_a_dragon_drawn_without_its_seal_on_one_side_is_caught(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The page's dragons lose their seal, as they had before: the comparison finds one."""
    name, view = TILE_VIEWS[0]
    dragon = next(c for c in view.table if c.code and Tile.parse(c.code).dragon)
    drawn = fc_art._dragon
    with monkeypatch.context() as patched:
        patched.setattr(fc_art, "_dragon", lambda cx, cy, r: list(drawn(cx, cy, r))[:1])
        patched.setattr(fc_svg, "_cell_svg", fc_svg._cell_svg.__wrapped__)  # none cached
        sealless = fc_svg.board_svg(view)
    async with chromium() as browser:
        found = await tile_difference(await browser.new_page(), view, monkeypatch, sealless)
    assert found.most > MOST["forbidden city"], (name, found)
    layout = images.plan(view, None, "table").layout
    left, top, right, bottom = layout.cell_box(dragon.x, dragon.y)
    x, y = found.where[0] + layout.left, found.where[1] + layout.top
    assert left <= x < right and top <= y < bottom, (found, dragon)


# Die Verbotene Stadt


def stadt_views() -> Iterator[tuple[str, StadtView, Board]]:
    """The small board of the game tests after a move, the rulebook's puzzle, and a seeded
    game on the default board at its start, middle (a move into a pavilion) and end."""
    game = small_game(["KK", "GG"])
    seat = game.to_act[0].seat
    game.play(seat, game.legal_actions(seat)[0])
    yield "small board", game.view(None), game.board
    puzzle = parse_position((POSITIONS / "vs_puzzle.txt").read_text(encoding="utf-8"))
    assert puzzle.open is not None
    exiled = [code for code in OFFICIALS if code not in puzzle.at][: puzzle.exiled]
    game = StadtGame.from_position(
        2, officials=puzzle.at, open_pavilion=puzzle.open, bribes=["GG", "RB"], exiled=exiled,
        board=puzzle.board,
    )  # fmt: skip
    yield "puzzle", game.view(None), puzzle.board
    game = StadtGame(4, seed=8)
    rng = random.Random(8)
    actions = 0
    while not game.is_over:
        if actions in (5, 45, 125):
            yield f"seed 8, action {actions}", game.view(None), game.board
        seat = game.to_act[0].seat
        game.play(seat, choose_greedy(game, seat, rng))
        actions += 1
    yield "seed 8, the end", game.view(None), game.board


STADT_VIEWS = list(stadt_views())


def test_the_stadt_positions_show_every_piece() -> None:
    kinds = {board.kind((x, y)) for _, _, board in STADT_VIEWS
             for x in range(board.width) for y in range(board.height)}  # fmt: skip
    assert {"#", "s", "g", "."} <= kinds and any(k.isdigit() for k in kinds)
    views = [view for _, view, _ in STADT_VIEWS]
    assert all(view.open_pavilion is not None for view in views)
    assert any(0 < k < 3 for view in views for k in view.pile_sizes.values())
    assert any(v.last_move is not None and v.last_move.entered is not None for v in views)
    worn = {colour for view in views for code in view.officials for colour in code}
    assert worn == set("RYBGK")


async def stadt_difference(
    page: Page, view: StadtView, board: Board, svg: str | None = None
) -> Difference:
    """The board inside its frame in the table PNG against the page's board (or `svg`)."""
    ox, oy = vs_art.board_origin()
    inset = 3  # the frame's half within the board (`art.frame`)
    left, top = ox + inset, oy + inset
    width, height = board.width * SQUARE - 2 * inset, board.height * SQUARE - 2 * inset
    png = vs_table.table_image(view, board=board).convert("RGB")
    png = png.crop((left, top, left + width, top + height))
    box = (left, top, width, height)
    drawn = await shot(page, svg or vs_svg.board_svg(view, board=board), box, png.size)
    return difference(png, drawn)


async def test_the_page_draws_die_verbotene_stadt_as_its_pictures_do() -> None:
    found = {}
    async with chromium() as browser:
        page = await browser.new_page()
        for name, view, board in STADT_VIEWS:
            found[name] = await stadt_difference(page, view, board)
    worst = max(found.items(), key=lambda item: item[1].most)
    assert worst[1].most <= MOST["verbotene stadt"], worst
    assert all(d.mean < 3 for d in found.values()), found


async def test_an_official_drawn_without_its_cap_on_one_side_is_caught(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The page's officials lose their caps: the comparison finds one."""
    name, view, board = STADT_VIEWS[-1]
    drawn = vs_art.pawn
    with monkeypatch.context() as patched:
        patched.setattr(vs_art, "pawn", lambda *args: drawn(*args)[:1])  # the robe alone
        capless = vs_svg.board_svg(view, board=board)
    async with chromium() as browser:
        found = await stadt_difference(await browser.new_page(), view, board, capless)
    assert found.most > MOST["verbotene stadt"], (name, found)
    ox, oy = vs_art.board_origin()
    x, y = found.where[0] + ox + 3, found.where[1] + oy + 3
    pawns = [vs_art.centre(sq) for sq in view.officials.values()]
    assert any(abs(x - cx) <= 15 and abs(y - cy) <= 17 for cx, cy in pawns), found
