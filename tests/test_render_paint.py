"""Pictures drawn straight on a palette canvas look as the RGB picture mapped to the palette:
the table images' PNGs, and the drawing helpers they are made with. The pictures are drawn on
one canvas (`images._canvas`, `verbotene_stadt.table._canvas`) and read its mode from it: the
RGB picture is the same drawing on an RGB canvas."""

from __future__ import annotations

import io
import random
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from PIL import Image, ImageChops

from engine.forbidden_city import Game
from engine.verbotene_stadt.game import Game as StadtGame
from render import paint
from render.fonts import stamp
from render.forbidden_city import (
    hand_image,
    hand_png,
    images,
    private_image,
    private_png,
    table_image,
    table_png,
)
from render.forbidden_city import palette as fc_pal
from render.forbidden_city.images import encode
from render.verbotene_stadt import palette as vs_pal
from render.verbotene_stadt import preview_image, preview_png
from render.verbotene_stadt import table as vs_table
from render.verbotene_stadt import table_image as stadt_image
from render.verbotene_stadt import table_png as stadt_png
from render.verbotene_stadt.table import frame_image

NAMES = {"purple": "Ann", "yellow": "Bøb", "red": "<Cy>", "blue": "Di 🐉"}


@contextmanager
def _on_rgb() -> Iterator[None]:
    """Within it, the pictures are drawn on an RGB canvas: the drawing their PNGs show, as it
    was drawn before palette canvases, unmapped."""
    with pytest.MonkeyPatch.context() as patched:
        patched.setattr(images, "_canvas", lambda size, colour: Image.new("RGB", size, colour))
        canvas = vs_table._canvas
        patched.setattr(vs_table, "_canvas", lambda board, height, _: canvas(board, height, "RGB"))
        yield


def _decoded(png: bytes) -> Image.Image:
    return Image.open(io.BytesIO(png)).convert("RGB")


def _mapped(image: Image.Image, palette: Image.Image) -> Image.Image:
    """The RGB picture as the palette shows it: what every PNG of it was before."""
    assert image.mode == "RGB"
    return image.quantize(palette=palette, dither=Image.Dither.NONE).convert("RGB")


def _differing(a: Image.Image, b: Image.Image) -> tuple[int, int]:
    """(pixels that differ, the largest difference in one channel)."""
    assert a.size == b.size
    diff = ImageChops.difference(a, b)
    count = diff.convert("L").point(lambda v: 255 if v else 0).histogram()[255]
    return count, max(high for _, high in diff.getextrema())  # type: ignore[misc]


def _tile_game(moves: int) -> Game:
    game = Game(["purple", "yellow", "red", "blue"], seed=11)
    rng = random.Random(5)
    for _ in range(moves):
        game.play(rng.choice(game.legal_moves()))
    return game


def test_the_tables_png_is_the_rgb_table_mapped_to_the_palette_pixel_for_pixel() -> None:
    for moves in (0, 12, 40):
        view = _tile_game(moves).view(None)
        with _on_rgb():
            expected = _mapped(table_image(view, NAMES), fc_pal.palette_image())
        assert _differing(_decoded(table_png(view, NAMES)), expected) == (0, 0), moves


def test_a_tile_in_hands_png_is_the_rgb_picture_mapped_to_the_palette_pixel_for_pixel() -> None:
    game = _tile_game(12)
    for seat in game.players:  # the seat to play, and seats waiting; one with an emoji name
        view = game.view(seat)
        with _on_rgb():
            expected = _mapped(hand_image(view, NAMES), fc_pal.palette_image())
        assert _differing(_decoded(hand_png(view, NAMES)), expected) == (0, 0), seat


def test_a_turn_pictures_png_differs_only_at_a_few_text_edges() -> None:
    """Numbers on the spots' white discs blend with the disc's palette colour, not with pure
    white: a few hundred edge pixels, a few levels apart."""
    view = (game := _tile_game(20)).view(game.current)
    drawn = _decoded(private_png(view, NAMES))
    with _on_rgb():
        rgb = private_image(view, NAMES)
    count, most = _differing(drawn, _mapped(rgb, fc_pal.palette_image()))
    assert count < drawn.width * drawn.height // 1000 and most <= 32


def test_die_verbotene_stadts_pngs_differ_only_at_a_few_text_edges() -> None:
    game = StadtGame(4, seed=3)
    rng = random.Random(1)
    for _ in range(60):
        turn = game.to_act[0]
        game.play(turn.seat, rng.choice(game.legal_actions(turn.seat)))
    for seat in (None, game.players[0]):
        view = game.view(seat)
        drawn = _decoded(stadt_png(view, NAMES))
        with _on_rgb():
            rgb = stadt_image(view, NAMES)
        assert frame_image(view, NAMES).tobytes() == rgb.tobytes()  # a replay's frame
        count, most = _differing(drawn, _mapped(rgb, vs_pal.palette_image()))
        assert count < drawn.width * drawn.height // 1000 and most <= 48, seat
    view = game.view(game.players[0])
    official = next(iter(view.officials))
    for slide in "NESW":
        try:
            drawn = _decoded(preview_png(view, NAMES, official, [slide]))
        except ValueError:
            continue
        with _on_rgb():
            rgb = preview_image(view, NAMES, official, [slide])
        count, most = _differing(drawn, _mapped(rgb, vs_pal.palette_image()))
        assert count < drawn.width * drawn.height // 1000 and most <= 48, slide


def test_a_colour_outside_the_palette_is_drawn_as_mapping_would_draw_it() -> None:
    palette = fc_pal.palette_image()
    canvas = paint.canvas((20, 10), fc_pal.TABLE, palette)
    before = canvas.getpalette()
    odd = (13, 200, 77)  # in no palette entry
    paint.Draw(canvas).rectangle((0, 0, 9, 9), fill=odd, outline=fc_pal.LAST)
    assert canvas.getpalette() == before  # the palette never grows
    rgb = Image.new("RGB", (20, 10), fc_pal.TABLE)
    paint.Draw(rgb).rectangle((0, 0, 9, 9), fill=odd, outline=fc_pal.LAST)
    assert _differing(canvas.convert("RGB"), _mapped(rgb, palette)) == (0, 0)


def test_rounded_boxes_on_a_palette_canvas_look_as_pillow_draws_them_in_rgb() -> None:
    """Small boxes at whole pixels are pasted through cached masks, others drawn by Pillow:
    either way each looks as the RGB picture mapped to the palette."""
    palette = fc_pal.palette_image()
    red, text, gold = fc_pal.SEAT["red"], fc_pal.TEXT, fc_pal.GOLD
    boxes: list[tuple[object, int, dict[str, object]]] = [
        ((4, 4, 40, 60), 4, {"fill": red, "outline": text}),  # a card
        ((50, 4, 84, 38), 6, {"fill": gold, "outline": text, "width": 2}),  # a die
        ((50, 44, 84, 78), 6, {"outline": fc_pal.LAST, "width": 3}),  # a ring around it
        ((90, 4, 140, 30), 8, {"fill": fc_pal.ROW_TURN}),  # a row
        ((90, 40, 112, 62), 20, {"fill": red, "outline": text}),  # corners that meet: a disc
        ((120, 40, 150, 50), 9, {"fill": gold, "outline": gold}),  # one colour
        ((4, 70, 40, 126), 4, {"fill": gold, "outline": red}),  # the card's shape again
        ((44, 70, 80, 126), 12, {"fill": gold, "outline": red}),  # its size, rounder
        ((160, 44, 194, 78), 6, {"fill": gold, "outline": text, "width": 4}),  # a die, bolder
        ((4, 130, 300, 220), 10, {"fill": fc_pal.HEADER}),  # a panel: too big to mask
        ((150.5, 4, 190.5, 30), 5, {"fill": red}),  # half pixels: drawn by Pillow
    ]
    canvas = paint.canvas((320, 230), fc_pal.TABLE, palette)
    rgb = Image.new("RGB", (320, 230), fc_pal.TABLE)
    for image in (canvas, rgb):
        draw = paint.Draw(image)
        for box, radius, colours in boxes:
            draw.rounded_rectangle(box, radius, **colours)  # type: ignore[arg-type]
    assert _differing(canvas.convert("RGB"), _mapped(rgb, palette)) == (0, 0)
    assert canvas.convert("RGB").getpixel((22, 98)) == gold  # the second card, inside


def test_text_on_a_flat_ground_and_on_a_mixed_one_looks_as_mapped_rgb_text() -> None:
    palette = fc_pal.palette_image()
    canvas = paint.canvas((160, 130), fc_pal.HEADER, palette)
    rgb = Image.new("RGB", (160, 130), fc_pal.HEADER)
    for image in (canvas, rgb):
        draw = paint.Draw(image)
        draw.rectangle((80, 0, 159, 39), fill=fc_pal.ROW_TURN)  # a second ground
        draw.rectangle((80, 70, 159, 129), fill=fc_pal.ROW_TURN)
        stamp(image, (10, 20), "Ann 12", 20, fc_pal.TEXT, bold=True, anchor="lm")  # flat
        stamp(image, (70, 20), "Bob ★", 20, fc_pal.GOLD, bold=True, anchor="lm")  # across both
        stamp(image, (10, 52), "Ann 12", 20, fc_pal.TEXT, bold=True, anchor="lm")  # cached
        # A name with an emoji: on each flat ground, again where it is cached, and across both.
        stamp(image, (10, 84), "Di 🐉", 20, fc_pal.TEXT, bold=True, anchor="lm")
        stamp(image, (90, 84), "Di 🐉", 20, fc_pal.TEXT, bold=True, anchor="lm")
        stamp(image, (10, 112), "Di 🐉", 20, fc_pal.TEXT, bold=True, anchor="lm")
        stamp(image, (60, 112), "Di 🐉", 20, fc_pal.TEXT, bold=True, anchor="lm")
        stamp(image, (140, 112), "Di 🐉", 20, fc_pal.TEXT, bold=True, anchor="lm")  # off the edge
    assert _differing(canvas.convert("RGB"), _mapped(rgb, palette)) == (0, 0)
    assert canvas.mode == "P" and len(canvas.getcolors() or []) > 8  # blends, not two colours


def _icon(colour: tuple[int, int, int]) -> Image.Image:
    icon = Image.new("RGBA", (12, 12), (0, 0, 0, 0))
    paint.Draw(icon).ellipse((0, 0, 11, 11), fill=(*colour, 255))
    icon.putpixel((0, 6), (*colour, 128))  # a half-covered edge pixel
    return icon


def test_an_icon_with_alpha_blends_into_a_palette_canvas() -> None:
    """On one ground, on another, again where it was drawn before, across two grounds and
    partly off the picture: each icon looks as it would pasted on the RGB picture."""
    palette = fc_pal.palette_image()
    red, blue = _icon(fc_pal.SEAT["red"]), _icon(fc_pal.SEAT["blue"])
    canvas = paint.canvas((60, 40), fc_pal.BADGE, palette)
    rgb = Image.new("RGB", (60, 40), fc_pal.BADGE)
    for image in (canvas, rgb):
        paint.Draw(image).rectangle((30, 0, 59, 39), fill=fc_pal.ROW_TURN)
        for icon, xy in (
            (red, (5, 4)),
            (red, (35, 4)),  # the other ground
            (red, (5, 22)),  # the same ground again
            (blue, (35, 22)),  # another icon on that ground
            (blue, (24, 14)),  # across both grounds
            (red, (54, 30)),  # partly off the picture
        ):
            paint.sprite(image, icon, xy)
    assert _differing(canvas.convert("RGB"), _mapped(rgb, palette)) == (0, 0)
    assert canvas.convert("RGB").getpixel((11, 10)) == _mapped(rgb, palette).getpixel((11, 10))


def test_a_huge_palette_picture_is_scaled_within_the_platforms_limits() -> None:
    palette = fc_pal.palette_image()
    huge = paint.canvas((6000, 5000), fc_pal.TABLE, palette)
    shown = Image.open(io.BytesIO(encode(huge)))
    assert shown.width + shown.height <= 10_000


def test_a_sprite_is_put_at_its_place_and_only_on_a_canvas_of_its_mode() -> None:
    palette = fc_pal.palette_image()
    canvas = paint.canvas((8, 6), (0, 0, 0), palette)
    sprite = paint.canvas((3, 2), (255, 255, 255), palette)
    paint.put(canvas, sprite, (4, 3))
    white = paint.nearest(palette, (255, 255, 255))
    inked = {(x, y) for x in range(8) for y in range(6) if canvas.getpixel((x, y)) == white}
    assert inked == {(x, y) for x in (4, 5, 6) for y in (3, 4)}
    with pytest.raises(ValueError, match="RGB sprite on a P canvas"):
        paint.put(canvas, Image.new("RGB", (2, 2)), (0, 0))
