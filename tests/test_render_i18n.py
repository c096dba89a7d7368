"""Translated texts, the tile-in-hand image, font coverage and the bounded image caches."""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir
from PIL import Image, ImageChops

import render.forbidden_city as render
from engine.forbidden_city import Game, Place, Tile
from engine.forbidden_city.catalogue import catalogue
from render import leaderboard
from render.__main__ import played
from render.fonts import (
    FALLBACK_FILES,
    PLACEHOLDER,
    TEXT,
    TEXT_CACHE_BYTES,
    _covers,
    _face_of,
    _masks,
    font,
    runs,
    stamp,
    text_width,
)
from render.forbidden_city import palette as pal
from render.forbidden_city.header import TITLE_H, last_move_text, name_of
from render.forbidden_city.tiles import ART_CACHE_BYTES, cell_art, wall_width
from render.memo import ImageCache, image_bytes
from render.verbotene_stadt import texts as vs_texts
from tests.pixels import RGB, decode, near, pixel

FAKE_FRENCH = {
    "Move {n} · {who} to play": "Coup {n} · au tour de {who}",
    "to play": "à jouer",
    "purple": "violet",
    "{who} placed a tile at {x},{y}.": "{who} a posé une tuile en {x},{y}.",
    "Your tile, {who}: turns clockwise": "Ta tuile, {who} : sens horaire",
}


def fake_french(message: str) -> str:
    return FAKE_FRENCH.get(message, message)


def colours_in(image: Image.Image) -> set[RGB]:
    found: set[RGB] = set()
    for _, colour in image.getcolors(1 << 20) or []:
        assert isinstance(colour, tuple)
        found.add((colour[0], colour[1], colour[2]))
    return found


# ------------------------------------------------------------------------------ translation


def test_translation_changes_the_header_and_english_is_unchanged_after() -> None:
    game = played(9, 20)
    english = render.table_image(game.view(None))
    french = render.table_image(game.view(None), tr=fake_french)
    band = (0, 0, english.width, TITLE_H)
    assert ImageChops.difference(english.crop(band), french.crop(band)).getbbox() is not None
    again = render.table_image(game.view(None))  # the text cache is keyed on the drawn text
    assert again.tobytes() == english.tobytes()


def test_placeholders_are_filled_after_translation() -> None:
    game = Game(4, seed=3)
    move = game.legal_moves()[0]
    assert isinstance(move, Place)
    game.play(move)
    text = last_move_text(game.view(None), None, fake_french)
    assert text.startswith(f"Violet a posé une tuile en {move.x},{move.y}.")
    assert name_of(None, "purple", fake_french) == "Violet"
    assert name_of({"purple": "Ann"}, "purple", fake_french) == "Ann"


def test_every_text_drawn_is_a_listed_message() -> None:
    asked: list[str] = []

    def record(message: str) -> str:
        asked.append(message)
        return message

    mid = played(9, 20)
    render.table_png(mid.view(None), tr=record)
    render.private_png(mid.view(mid.current), tr=record)
    render.hand_png(mid.view(mid.players[(mid.turn + 1) % 4]), tr=record)
    render.preview_png(mid.view(mid.current), mid.legal_moves()[0], tr=record)
    render.end_png(played(7).view(None), tr=record)
    render.table_png(Game(3, start="advanced", seed=2).view(None), tr=record)
    assert asked and set(asked) <= set(render.MESSAGES)


def test_messages_are_what_pybabel_extracts() -> None:
    """The bot's catalogue gets these ids from `pybabel extract`; MESSAGES must say the same."""
    package = Path(render.__file__).parent.parent  # all of render/
    found = {m for _, _, m, _, _ in extract_from_dir(package, [("**.py", "python")])}
    both = (*render.MESSAGES, *vs_texts.MESSAGES, *leaderboard.MESSAGES)
    assert found == set(both)
    assert len(render.MESSAGES) == len(set(render.MESSAGES))
    assert len(vs_texts.MESSAGES) == len(set(vs_texts.MESSAGES))
    for message in both:  # every placeholder is one of the names we fill
        message.format(
            n=1,
            who="",
            winners="",
            x=0,
            y=0,
            tile="",
            value=0,
            paid="",
            coins="",
            bonus=0,
            name="",
            team=1,
            a="",
            b="",
            points="",
        )


# ------------------------------------------------------------------------------ tile in hand


def _hand_game() -> Game:
    """Each seat holds `#...W+1A`: a white room walled on the north, one advisor."""
    return Game(4, seed=1, stacks=[["#...W+1A", "....G", "....P"]] * 4)


@pytest.mark.parametrize("colour", ["yellow", "red"])
def test_hand_image_shows_the_four_turns_of_a_waiting_seat(colour: str) -> None:
    game = _hand_game()
    assert game.current != colour
    image = decode(render.hand_png(game.view(colour)))
    for turn in range(4):
        left, top, right, bottom = render.hand_tile_box(turn)
        size = right - left
        inset = wall_width(size) / 2
        sides = [
            (left + size / 2, top + inset),  # north
            (right - 1 - inset, top + size / 2),  # east
            (left + size / 2, bottom - 1 - inset),  # south
            (left + inset, top + size / 2),  # west
        ]
        for side, (x, y) in enumerate(sides):
            expected = pal.WALL if side == turn else pal.FLOOR["W"]  # the wall turns clockwise
            assert near(pixel(image, x, y), expected), (turn, side)
        assert near(pixel(image, left + size / 2, top + size / 2), pal.SEAT[colour], 10)
    band = image.crop((0, 0, image.width, render.hand_tile_box(0)[1]))
    assert pal.SEAT[colour] in colours_in(band)  # the seat's marker
    labels = image.crop((0, bottom, image.width, bottom + 30))
    assert pal.TEXT in colours_in(labels)  # @0-@3
    caption = image.crop((0, bottom + 30, image.width, image.height))
    assert pal.MUTED in colours_in(caption) and pal.LAST not in colours_in(caption)


def test_hand_caption_is_bright_for_the_seat_to_move_and_hand_needs_a_live_game() -> None:
    game = _hand_game()
    image = decode(render.hand_png(game.view(game.current), {"purple": "Ann"}, tr=fake_french))
    bottom = render.hand_tile_box(0)[3]
    assert pal.LAST in colours_in(image.crop((0, bottom + 30, image.width, image.height)))
    with pytest.raises(ValueError):
        render.hand_png(played(7).view("purple"))
    with pytest.raises(ValueError):
        render.hand_png(game.view(None))


# ------------------------------------------------------------------------------ fonts

NOTDEF_PROBE = "\ue000"  # Private Use: in no font, ours or the host's Noto and DejaVu


def _glyph(char: str, bold: bool) -> bytes:
    mask = font(24, bold).getmask(char)
    return bytes(mask) + bytes(str(mask.size), "ascii")


@pytest.mark.parametrize("bold", [False, True])
def test_names_in_extended_latin_greek_and_cyrillic_have_real_glyphs(bold: bool) -> None:
    notdef = _glyph(NOTDEF_PROBE, bold)
    sample = "ŁłŚśŻżĆćŃńĄąĘęŘřŮůĚěŠšČčĞğİıŞşŐőŰűȘșȚțΑΩαωάΔДдЖжЯяЁёЇїЄєҐґЎў„“”«»…‹›–—€"
    missing = [c for c in sample if _glyph(c, bold) == notdef]
    assert not missing
    assert _glyph("\u4e00", bold) == notdef  # the probe is right: a CJK ideograph is .notdef


def test_a_cyrillic_name_is_drawn_not_boxed() -> None:
    game = Game(4, seed=1)
    header = (0, TITLE_H, 640, TITLE_H + 60)  # the seat entries
    cyrillic = decode(render.table_png(game.view(None), {"yellow": "Дмитрий"})).crop(header)
    boxes = decode(render.table_png(game.view(None), {"yellow": NOTDEF_PROBE * 7})).crop(header)
    unnamed = decode(render.table_png(game.view(None), {"yellow": " "})).crop(header)
    assert ImageChops.difference(cyrillic, boxes).getbbox() is not None  # not .notdef boxes
    drawn = ImageChops.difference(cyrillic, unnamed).getbbox()
    assert drawn is not None and drawn[2] - drawn[0] > 40  # visible ink, a name's width


def test_the_probe_is_in_no_font_and_drawn_as_the_placeholder() -> None:
    assert runs(NOTDEF_PROBE * 3) == ((TEXT, PLACEHOLDER * 3),)


@pytest.fixture
def no_host_fonts(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Only the shipped fonts: the host's (fonts-noto-core has Thai, Georgian...) hidden."""

    def forget() -> None:  # what was found, and drawn, with the host's fonts
        _face_of.cache_clear()
        runs.cache_clear()
        text_width.cache_clear()
        _masks.clear()

    monkeypatch.setattr("render.fonts._system_fonts", lambda: ())
    forget()
    yield
    monkeypatch.undo()
    forget()


SHIPPED_NAMES = {  # a name, and the subset that must draw it
    "thai": ("NotoSansThai-Bold-subset.woff2", "สมชาย"),
    "thai marks": ("NotoSansThai-Bold-subset.woff2", "น้ำผึ้ง"),
    "georgian": ("NotoSansGeorgian-Bold-subset.woff2", "გიორგი"),
    "armenian": ("NotoSansArmenian-Bold-subset.woff2", "Արամ"),
    "ethiopic": ("NotoSansEthiopic-Bold-subset.woff2", "አበበ"),
}


def _ink(text: str) -> Image.Image:
    canvas = Image.new("RGB", (400, 60), (0, 0, 0))
    stamp(canvas, (4, 30), text, 24, (255, 255, 255), bold=True, anchor="lm")
    return canvas


@pytest.mark.usefixtures("no_host_fonts")
@pytest.mark.parametrize("script", list(SHIPPED_NAMES))
def test_thai_georgian_armenian_and_ethiopic_names_are_drawn_by_the_shipped_fonts(
    script: str,
) -> None:
    file, name = SHIPPED_NAMES[script]
    assert file in FALLBACK_FILES
    assert runs(name) == ((file, name),)  # one run, by our subset: no placeholder
    for char in name:
        assert _covers(file, char), f"{char!r} is .notdef in {file}"
    image = _ink(name)
    box = image.getbbox()
    assert box is not None and box[2] - box[0] > 30  # visible ink, a name's width
    for other in (PLACEHOLDER * len(name), NOTDEF_PROBE * len(name)):
        assert ImageChops.difference(image, _ink(other)).getbbox() is not None, other


# ------------------------------------------------------------------------------ memory


def test_image_cache_keeps_within_its_byte_budget_dropping_the_oldest() -> None:
    cache: ImageCache[Image.Image] = ImageCache(44_000, image_bytes)
    made: list[int] = []

    def get(n: int) -> None:
        def make() -> Image.Image:
            made.append(n)
            return Image.new("RGB", (50, 50))  # 10,000 bytes, plus 1,000 of overhead

        cache.get(n, make)

    for n in range(10):
        get(n)
        assert cache.total <= 44_000
    assert len(cache) == 4
    get(9)
    assert len(made) == 10  # a hit: nothing drawn
    get(0)
    assert len(made) == 11 and made[-1] == 0  # long dropped: drawn again


def test_a_named_cache_tells_the_bytes_it_holds() -> None:
    """What a load run prints beside its memory curve: each shared cache's bytes, by name."""
    from render import memo

    cache: ImageCache[Image.Image] = ImageCache(44_000, image_bytes, "probe")
    try:
        assert memo.held()["probe"] == 0
        cache.get(1, lambda: Image.new("L", (100, 20)))  # 2,000 bytes, plus 1,000 of overhead
        cache.get(2, lambda: Image.new("RGB", (10, 10)))  # 400 bytes, plus 1,000
        assert memo.held()["probe"] == 4_400
        assert {"text", "text on a ground", "tile art"} <= set(memo.held())
    finally:
        memo._NAMED.pop("probe")


def test_tile_art_cache_stays_within_its_budget() -> None:
    """Every tile of a 4-player game, turned four ways, plain, hatched and paid, at four sizes,
    for an RGB canvas (3 bytes a pixel, the palette's 1): about 90 MB unbounded."""
    from render import memo
    from render.forbidden_city.tiles import _art

    asked = 0
    for seat, stack in catalogue(4).items():
        for code in stack:
            tile = Tile.parse(code)
            for turn, size, (lit, done) in itertools.product(
                range(4), (96, 80, 64, 48), (((), ()), ((0,), ()), ((), (0,)))
            ):
                owner = seat if tile.advisors else None
                cell_art("tile", tile.rotated(turn).code, owner, size, lit, done, mode="RGB")
                asked += 1
                assert _art.total <= ART_CACHE_BYTES
    assert len(_art) < asked * 0.6  # it did drop some
    # Every image cache of a process, full: what its memory may owe them at most.
    assert sum(cache.budget for cache in memo._NAMED.values()) <= 64 << 20
    assert ART_CACHE_BYTES + TEXT_CACHE_BYTES <= 48 << 20


def test_a_preview_caption_speaks_of_a_move_not_played_yet(monkeypatch: pytest.MonkeyPatch) -> None:
    """Before Confirm, the header must not say the tile was placed, nor a room closed."""
    import render.fonts as render_fonts
    import render.forbidden_city.header as header

    written: list[str] = []
    real = render_fonts.stamp

    def stamp(
        image: Image.Image, xy: tuple[float, float], text: str, *args: object, **kw: object
    ) -> None:
        written.append(text)
        real(image, xy, text, *args, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(header, "stamp", stamp)
    game = Game(2, seed=1)
    rng = random.Random(1)
    while True:  # a move that closes a room, so the caption has a room to speak of
        closing = [
            move
            for move in game.legal_moves()
            if isinstance(move, Place) and game.copy().play(move).closed
        ]
        if closing:
            break
        game.play(rng.choice(game.legal_moves()))
    move = closing[0]
    render.preview_png(game.view(game.current), move, {"purple": "Ann"})
    caption = " ".join(written)
    assert f"Not played yet: Ann would place a tile at {move.x},{move.y}." in caption
    assert "It would close" in caption
    assert "placed" not in caption and "Closed" not in caption
