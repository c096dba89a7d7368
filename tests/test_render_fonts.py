"""Names in every script a chat user may have: real glyphs, colour emoji, never a box, never an
empty name, one line whatever the name holds; and the fonts stay small."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from PIL import Image, ImageChops, ImageDraw

import render.forbidden_city as render
from engine.forbidden_city import Game
from render.fonts import TEXT, font, runs, stamp
from render.forbidden_city.header import TITLE_H
from tests.pixels import decode

SAMPLES = {
    "latin": "Łukasz Šťastný",
    "greek": "Δημήτρης",
    "cyrillic": "Дмитрий",
    "chinese": "李小龍",
    "japanese": "さくら 桜",
    "korean": "김민준",
    "arabic": "محمد",
    "hebrew": "דוד",
    "devanagari": "देवनागरी",
    "emoji": "😀🐉👍",
    "symbols": "★☆♥♡☯①■✓✿",
}
SIZE = 24
NO_GLYPH = "\U0010fffd"  # mapped by no font


def drawn(text: str) -> Image.Image:
    """`text` as the images draw it, white on black."""
    canvas = Image.new("RGB", (40 * SIZE, 2 * SIZE), (0, 0, 0))
    stamp(canvas, (4, SIZE), text, SIZE, (255, 255, 255), bold=True, anchor="lm")
    return canvas


def box_glyph() -> Image.Image:
    """The text font's own .notdef glyph (blank in our subset, a box in most fonts), drawn by
    Pillow directly: what a missing character used to look like."""
    canvas = Image.new("RGB", (40 * SIZE, 2 * SIZE), (0, 0, 0))
    ImageDraw.Draw(canvas).text(
        (4, SIZE), NO_GLYPH, font=font(SIZE, bold=True), fill=(255, 255, 255), anchor="lm"
    )
    return canvas


def same(a: Image.Image, b: Image.Image) -> bool:
    return ImageChops.difference(a, b).getbbox() is None


def ink_width(image: Image.Image) -> int:
    box = image.convert("L").point(lambda v: 255 if v > 60 else 0).getbbox()
    return 0 if box is None else box[2] - box[0]


@pytest.mark.parametrize("script", list(SAMPLES))
def test_each_character_of_each_script_has_a_real_glyph(script: str) -> None:
    box, placeholder = box_glyph(), drawn("\ufffd")
    seen: list[Image.Image] = []
    for char in SAMPLES[script].replace(" ", ""):
        image = drawn(char)
        assert ink_width(image) >= SIZE // 4, char
        assert not same(image, box), f"{char!r} drawn as a box"
        assert not same(image, placeholder), f"{char!r} drawn as the placeholder"
        seen.append(image)
    distinct = {img.tobytes() for img in seen}
    assert len(distinct) == len(set(SAMPLES[script].replace(" ", "")))


def colours(image: Image.Image) -> list[tuple[int, int, int]]:
    return [(p[0], p[1], p[2]) for _, p in image.getcolors(1 << 16) or [] if isinstance(p, tuple)]


def test_emoji_are_drawn_in_colour() -> None:
    face = colours(drawn("😀"))  # a yellow face: strong red and green, little blue
    assert any(r > 200 and g > 150 and b < 110 for r, g, b in face)
    tree = colours(drawn("🌲"))  # a green tree
    assert any(g > 120 and g > r + 40 and g > b + 40 for r, g, b in tree)


def test_the_emoji_style_selector_picks_the_colour_emoji() -> None:
    plain, emoji = colours(drawn("❤")), colours(drawn("❤\ufe0f"))
    assert not any(r > 150 and g < 90 and b < 90 for r, g, b in plain)  # a white outline
    assert any(r > 150 and g < 90 and b < 90 for r, g, b in emoji)  # a red heart


def test_flags_read_as_their_letters() -> None:
    assert same(drawn("🇫🇷"), drawn("FR"))


def test_a_character_no_font_has_shows_a_visible_placeholder_not_a_box() -> None:
    image = drawn(NO_GLYPH)
    assert ink_width(image) > 5 and not same(image, box_glyph())
    assert ink_width(drawn(f"A{NO_GLYPH}")) > ink_width(drawn("A")) + 5
    assert same(image, drawn("\ufffd"))


HEADER = (0, TITLE_H, 640, TITLE_H + 60)  # the first row of seat entries


@pytest.mark.parametrize("script", list(SAMPLES))
def test_a_name_in_any_script_shows_in_the_table_header(script: str) -> None:
    game = Game(2, seed=1)
    colour = game.players[1]
    name = decode(render.table_png(game.view(None), {colour: SAMPLES[script]})).crop(HEADER)
    boxes = decode(render.table_png(game.view(None), {colour: NO_GLYPH * 3})).crop(HEADER)
    colour_name = decode(render.table_png(game.view(None))).crop(HEADER)
    assert not same(name, boxes) and not same(name, colour_name)
    changed = ImageChops.difference(name, colour_name).getbbox()
    assert changed is not None and changed[2] - changed[0] > 20


@pytest.mark.parametrize("breaker", ["\n", "\r\n", "\x85", "\u2028", "\u2029", "\t"])
def test_a_name_with_a_line_break_is_drawn_on_one_line(breaker: str) -> None:
    game = Game(2, seed=1)
    colour = game.players[0]
    broken = render.table_png(game.view(None), {colour: f"Ann{breaker}Lee"})
    assert (
        decode(broken).tobytes()
        == decode(render.table_png(game.view(None), {colour: "Ann Lee"})).tobytes()
    )
    render.hand_png(game.view(colour), {colour: f"Ann{breaker}Lee"})
    render.private_png(game.view(game.current), {colour: f"Ann{breaker}Lee"})


def test_a_name_of_nothing_visible_shows_the_seat_colour() -> None:
    game = Game(2, seed=1)
    colour = game.players[0]
    plain = decode(render.table_png(game.view(None))).tobytes()
    for blank in ("", " ", "\n\r", "\u202e\u200b"):
        assert decode(render.table_png(game.view(None), {colour: blank})).tobytes() == plain


def test_the_fonts_stay_small() -> None:
    folder = Path(render.__file__).parent.parent / "fonts"  # render/fonts
    total = sum(path.stat().st_size for path in folder.iterdir())
    assert total < 3_000_000


def test_a_text_with_nothing_to_draw_draws_nothing() -> None:
    for text in ("", "\x02\x03", "\u200b"):
        image = Image.new("RGB", (60, 30), (9, 9, 9))
        stamp(image, (5, 15), text, 14, (255, 255, 255), anchor="lm")
        assert image.getcolors() == [(60 * 30, (9, 9, 9))], repr(text)


@pytest.mark.parametrize("anchor", ["la", "lm", "mm", "ls", "ms", "rm"])
@pytest.mark.parametrize(("size", "bold"), [(11, False), (17, False), (20, True)])
def test_a_text_is_stamped_where_pillow_draws_it(anchor: str, size: int, bold: bool) -> None:
    """The cached stamp of a plain text is Pillow's own drawing of it, pixel for pixel, at
    the same place, the first time (drawn) and the next (from the cache)."""
    text = f"Move {size}: Ann placed a tile at -3,2 ({anchor})"
    expected = Image.new("RGB", (700, 60), (20, 30, 40))
    ImageDraw.Draw(expected).text(
        (350, 30), text, font=font(size, bold), fill=(250, 200, 90), anchor=anchor
    )
    for _ in range(2):
        canvas = Image.new("RGB", (700, 60), (20, 30, 40))
        stamp(canvas, (350, 30), text, size, (250, 200, 90), bold=bold, anchor=anchor)
        assert ImageChops.difference(canvas, expected).getbbox() is None


def test_a_printable_ascii_text_is_cut_into_runs_as_any_text_is() -> None:
    """The shortcut for printable ASCII gives the runs the walk through each character does."""
    from render.fonts import _runs_of

    rng = random.Random(4)
    alphabet = "".join(chr(code) for code in range(0x20, 0x7F))
    texts = ["a", " ", "  x  ", "Move 12: Ann to play.", alphabet]
    texts += [
        "".join(rng.choice(alphabet) for _ in range(rng.randrange(1, 40))) for _ in range(300)
    ]
    for text in texts:
        assert runs(text) == _runs_of(text) == ((TEXT, text),), repr(text)
    assert runs("Bøb 🐉") == _runs_of("Bøb 🐉") != ((TEXT, "Bøb 🐉"),)
