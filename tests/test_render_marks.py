"""What the images must say, checked on pixels against the design's own colours (written out
here, not read from render.palette, so a changed palette entry is caught): the preview reads
as a preview, closed rooms stay closed, spot numbers, dragons, room values, distinct seats."""

from __future__ import annotations

import random
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

import render.forbidden_city as render
from bot.service import GameService
from engine.forbidden_city import Game, Place, RoomClosed
from engine.forbidden_city.preview import after
from tests.pixels import RGB, decode, near, pixel
from tests.tables import load_game
from tests.test_names import service
from tests.test_render import at, table_with
from tests.test_service import CHANNEL, current_user, seated, who

__all__ = ["service"]

# The design's colours (docs/gallery-*.png).
SEATS: dict[str, RGB] = {
    "purple": (142, 68, 173),
    "yellow": (244, 196, 40),
    "red": (214, 52, 44),
    "blue": (44, 110, 216),
}
LAST_RING: RGB = (0, 229, 255)
GOLD: RGB = (236, 190, 72)
INK: RGB = (28, 24, 22)
AMBER: RGB = (255, 160, 0)
BADGE: RGB = (24, 24, 28)
DRAGON: RGB = (196, 58, 40)
FLOOR: dict[str, RGB] = {"G": (132, 186, 110), "P": (240, 166, 182), "W": (247, 242, 228)}
SEAM: dict[str, RGB] = {"G": (104, 156, 86), "P": (208, 134, 150), "W": (206, 198, 180)}
LETTER = {"green": "G", "pink": "P", "white": "W"}
DIGITS_FONT = Path(render.__file__).parent.parent / "fonts" / "NotoSans-Bold-subset.ttf"


# ------------------------------------------------------------------ reading numbers, OCR-free


def ink_mask(
    image: Image.Image, box: tuple[int, int, int, int], ink: RGB, tolerance: int = 70
) -> Image.Image:
    """Pixels of `box` near `ink`, as a 1-bit image cropped to them."""
    crop = image.crop(box)
    mask = Image.new("1", crop.size, 0)
    for y in range(crop.height):
        for x in range(crop.width):
            if near(pixel(crop, x, y), ink, tolerance):
                mask.putpixel((x, y), 1)
    found = mask.getbbox()
    assert found is not None, "no ink"
    return mask.crop(found)


def first_word(mask: Image.Image, gap: int = 4) -> Image.Image:
    """The left part of `mask` up to the first run of `gap` empty columns."""
    columns = [any(mask.getpixel((x, y)) for y in range(mask.height)) for x in range(mask.width)]
    end, empty = 0, 0
    for x, filled in enumerate(columns):
        empty = 0 if filled else empty + 1
        if filled:
            end = x + 1
        if empty >= gap:
            break
    word = mask.crop((0, 0, end, mask.height))
    found = word.getbbox()
    assert found is not None
    return word.crop(found)


def _reference(text: str) -> Image.Image:
    face = ImageFont.truetype(str(DIGITS_FONT), 60)
    canvas = Image.new("1", (60 * len(text) + 20, 100), 0)
    ImageDraw.Draw(canvas).text((10, 10), text, font=face, fill=1)
    found = canvas.getbbox()
    assert found is not None
    return canvas.crop(found)


def read_number(mask: Image.Image, candidates: range) -> int:
    """The candidate whose digits, drawn in Noto Sans Bold and scaled to the ink's box, agree
    with the most pixels of `mask`; a wrong aspect costs as much as wrong pixels."""

    def score(n: int) -> float:
        ref = _reference(str(n))
        side = (48, 48)
        a, b = mask.resize(side), ref.resize(side)
        agree = sum(a.getpixel((x, y)) == b.getpixel((x, y)) for x in range(48) for y in range(48))
        aspect = abs(mask.width / mask.height - ref.width / ref.height)
        return agree / (48 * 48) - aspect

    return max(candidates, key=score)


# ------------------------------------------------------------------ preview


def _gold_rows(image: Image.Image) -> int:
    """Rows at least 80% gold: a band across the image."""
    rows = 0
    for y in range(image.height):
        gold = sum(near(pixel(image, x, y), GOLD, 8) for x in range(0, image.width, 4))
        rows += gold >= 0.8 * len(range(0, image.width, 4))
    return rows


def _ring(image: Image.Image, box: tuple[int, int, int, int]) -> list[RGB]:
    left, top, right, _ = box
    return [pixel(image, x, top) for x in range(left, right)]


def test_the_preview_has_a_band_across_and_a_dashed_ring() -> None:
    game = Game(4, seed=3)
    move = game.legal_moves()[0]
    assert isinstance(move, Place)
    mine = game.view(game.current)
    preview = decode(render.preview_png(mine, move))
    game.play(move)
    played = decode(render.table_png(game.view(None)))
    assert _gold_rows(preview) >= 20 and _gold_rows(played) == 0
    ring = _ring(preview, render.cell_box(after(mine, move), move.x, move.y, view="preview"))
    assert not any(near(p, LAST_RING, 30) for p in ring)  # never the played move's ring
    gold = sum(near(p, GOLD, 20) for p in ring)
    dark = sum(sum(p) < 120 for p in ring)
    assert gold > len(ring) / 4 and dark > len(ring) / 4  # dashes
    solid = _ring(played, render.cell_box(game.view(None), move.x, move.y))
    assert all(near(p, LAST_RING, 6) for p in solid[3:-3])


async def test_the_preview_button_shows_the_preview_image(service: GameService) -> None:
    table = await seated(service, ["ann", "bob"])
    game = load_game(table)
    spot = render.spots(game.view(game.current))[0]
    data = f"fc:pv:{CHANNEL}:0:{spot.x},{spot.y}@{spot.rotations[0]}"
    reply = await service.press(who(current_user(table)), data)
    assert reply.ok, reply.private
    image = reply.private[0].image
    assert image is not None and _gold_rows(decode(image)) >= 20


# ------------------------------------------------------------------ closed rooms


def _closed_then_quiet() -> tuple[Game, RoomClosed]:
    """A game where a room closed and then a move closed nothing."""
    rng = random.Random(5)
    game = Game(4, seed=5)
    while True:
        result = game.play(rng.choice(game.legal_moves()))
        if result.closed and result.closed[0].colour in LETTER:
            room = result.closed[0]
            break
    while True:
        trial = Game.from_json(game.to_json())
        choice = rng.choice(trial.legal_moves())
        if not trial.play(choice).closed:
            game.play(choice)
            return game, room


def _stripes(image: Image.Image, box: tuple[int, int, int, int], colour: RGB) -> int:
    """Pixels of `colour` inside a cell, away from its edges (where the seams are)."""
    left, top, right, bottom = box
    inset = (right - left) // 5
    return sum(
        near(pixel(image, px, py), colour, 6)
        for px in range(left + inset, right - inset)
        for py in range(top + inset, bottom - inset)
    )


def test_a_closed_room_stays_visibly_closed_after_later_moves() -> None:
    game, room = _closed_then_quiet()
    image = decode(render.table_png(game.view(None)))
    seam = SEAM[LETTER[room.colour]]
    marked = 0
    for x, y, _ in room.cells:
        placed = game.board.cells[(x, y)]
        if placed.tile is not None and not placed.tile.diagonal:
            marked += _stripes(image, render.cell_box(game.view(None), x, y), seam) > 30
    assert marked >= 1
    open_cells = [
        (x, y)
        for (x, y), placed in game.board.cells.items()
        if placed.tile is not None
        and not placed.tile.diagonal
        and placed.tile.colours[0] == LETTER[room.colour]
        and not any(
            (x, y) == (cx, cy)
            for result in game.results
            for r in result.closed
            for cx, cy, _ in r.cells
        )
    ]
    assert open_cells
    for cell in open_cells:
        assert _stripes(image, render.cell_box(game.view(None), *cell), seam) < 10, cell


# ------------------------------------------------------------------ spots, dragons, values, seats


def test_each_spot_shows_its_own_number() -> None:
    for game in (Game(4, seed=9), _closed_then_quiet()[0]):
        image = decode(render.private_png(game.view(game.current)))
        found = render.spots(game.view(game.current))
        assert len(found) >= 5
        for spot in found:
            box = render.cell_box(game.view(game.current), spot.x, spot.y, view="private")
            size = box[2] - box[0]
            cx, cy = at(box, 0.5, 0.5)
            cy -= size * 0.08 if size >= 48 else 0
            r = round(size * 0.19)  # inside the white disc (radius 0.3)
            disc = (round(cx - r), round(cy - r), round(cx + r), round(cy + r))
            number = read_number(ink_mask(image, disc, INK), range(1, len(found) + 10))
            assert number == spot.number, spot


def test_a_dragon_is_a_red_seal_with_a_gold_ring() -> None:
    game = table_with({(2, 0): ("....W+D", 0), (-2, 0): ("....W", 1)})
    image = decode(render.table_png(game.view(None)))
    box = render.cell_box(game.view(None), 2, 0)
    size = box[2] - box[0]
    cx, cy = at(box, 0.5, 0.5)
    assert near(pixel(image, cx + size * 0.13, cy), DRAGON, 12)
    for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):  # the ring, at about 0.18 of a cell
        ring = [pixel(image, cx + size * k * dx, cy + size * k * dy) for k in (0.17, 0.18, 0.19)]
        assert any(near(p, GOLD, 12) for p in ring), (dx, dy)
    glyph = sum(
        near(pixel(image, cx + dx, cy + dy), GOLD, 40)
        for dx in range(-size // 8, size // 8)
        for dy in range(-size // 8, size // 8)
    )
    assert glyph > size // 2  # the strokes of 龍
    plain = render.cell_box(game.view(None), -2, 0)
    assert near(pixel(image, *at(plain, 0.5, 0.5)), FLOOR["W"])


def test_the_badge_of_a_closed_room_shows_its_value() -> None:
    rng = random.Random(5)
    game = Game(4, seed=5)
    checked = 0
    while checked < 3 and not game.is_over:
        result = game.play(rng.choice(game.legal_moves()))
        if len(result.closed) != 1:
            continue
        room = result.closed[0]
        image = decode(render.table_png(game.view(None)))
        quiet = decode(render.table_png(game.view(None), highlight_last=False))
        boxes = [render.cell_box(game.view(None), x, y) for x, y, _ in room.cells]
        cell = boxes[0][2] - boxes[0][0]
        near_room = (
            max(0, min(b[0] for b in boxes) - cell),
            max(0, min(b[1] for b in boxes) - cell),
            min(image.width, max(b[2] for b in boxes) + cell),
            min(image.height, max(b[3] for b in boxes) + cell),
        )
        badge = [
            (x, y)
            for x in range(near_room[0], near_room[2])
            for y in range(near_room[1], near_room[3])
            if near(pixel(image, x, y), BADGE, 3) and not near(pixel(quiet, x, y), BADGE, 3)
        ]
        assert len(badge) > 100
        left, top = min(x for x, _ in badge), min(y for _, y in badge)
        bottom = max(y for _, y in badge)
        h = bottom - top  # inside the amber rim; the value comes first
        value_box = (left + h // 4, top + h // 5, left + h * 3 // 2, bottom - h // 5)
        amber = first_word(ink_mask(image, value_box, AMBER, 30))
        assert read_number(amber, range(1, 40)) == room.value
        checked += 1
    assert checked == 3


def test_seats_have_the_design_colours_and_stay_apart() -> None:
    cells = {(2, 0): 0, (-2, 0): 1, (0, -2): 2, (0, 2): 3}
    game = table_with({cell: ("....W+1A", seat) for cell, seat in cells.items()})
    image = decode(render.table_png(game.view(None)))
    seen: dict[str, RGB] = {}
    for cell, seat in cells.items():
        colour = game.players[seat]
        seen[colour] = pixel(image, *at(render.cell_box(game.view(None), *cell), 0.5, 0.5))
        assert near(seen[colour], SEATS[colour], 10), colour
    for a in seen:
        for b in seen:
            if a < b:
                assert sum(abs(p - q) for p, q in zip(seen[a], seen[b], strict=True)) > 120, (a, b)


def test_a_room_badge_never_covers_the_temple() -> None:
    """Rooms beside the temple (seen: a pink room above it, "2 unpaid") once put their badge
    over it. Games where such rooms close: no badge pixel lands on the temple's cell."""
    seen = 0
    for seed in (1, 3, 14):
        game = Game(2 + seed % 3, seed=seed)
        rng = random.Random(seed)
        while not game.is_over:
            result = game.play(rng.choice(game.legal_moves()))
            view = game.view(None)
            temple = next(cell for cell in view.table if cell.kind == "temple")
            tx, ty = temple.x, temple.y
            beside = [
                room
                for room in result.closed
                if any(abs(x - tx) + abs(y - ty) == 1 for x, y, _ in room.cells)
            ]
            if not beside:
                continue
            seen += 1
            image = decode(render.table_png(view))
            quiet = decode(render.table_png(view, highlight_last=False))
            left, top, right, bottom = render.cell_box(view, tx, ty)
            covered = [
                (x, y)
                for x in range(left, right)
                for y in range(top, bottom)
                if near(pixel(image, x, y), BADGE, 3) and not near(pixel(quiet, x, y), BADGE, 3)
            ]
            assert covered == [], (seed, len(view.moves), len(covered))
    assert seen >= 3
