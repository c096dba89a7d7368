"""The frames of a replay GIF before encoding: a game's views drawn on its palette, frames on one
palette kept as they are, smaller frames padded with the colour of their edges, and colours the
palette lacks mapped to the nearest without dithering."""

from __future__ import annotations

import io
import itertools

from PIL import Image, ImageDraw

from render.animation import animate, animate_views
from tests.test_render_replay import decoded

RGB = tuple[int, int, int]
RED: RGB = (220, 30, 30)
BLUE: RGB = (30, 30, 220)
GREY: RGB = (128, 128, 128)
BETWEEN: RGB = (100, 100, 110)  # nearest to GREY among the palette below, far from the others


def colours(image: Image.Image) -> set[object]:
    return {colour for _, colour in image.getcolors(1 << 16) or ()}


def game_palette() -> Image.Image:
    palette = Image.new("P", (1, 1))
    palette.putpalette([*RED, *BLUE, *GREY, *(0, 0, 0) * 253])
    return palette


def drawn(view: int) -> Image.Image:
    """View `view`: a flat square of a colour between the palette's, and `view` red marks."""
    image = Image.new("RGB", (60, 40), BLUE)
    draw = ImageDraw.Draw(image)
    draw.rectangle((30, 5, 59, 39), fill=BETWEEN)
    for k in range(view):
        draw.rectangle((2 + 6 * k, 2, 5 + 6 * k, 5), fill=RED)
    return image


def test_a_games_views_are_drawn_on_its_palette_each_change_a_frame() -> None:
    """Views equal to the one before add nothing; a flat area of a colour the palette lacks
    shows as the nearest palette colour, all of one colour (no dithering)."""
    shown = decoded(animate_views([0, 0, 1, 2, 2], drawn, game_palette()))
    assert len(shown) == 3
    for view, image in zip((0, 1, 2), shown, strict=True):
        assert colours(image) <= {RED, BLUE, GREY}
        assert colours(image.crop((30, 5, 60, 40))) == {GREY}
        assert colours(image.crop((0, 0, 6 * view, 6))) == ({RED, BLUE} if view else set())


def test_frames_on_one_palette_of_256_colours_are_kept_exactly() -> None:
    """Frames already sharing a palette of 256 colours, all of them used: not requantized, so
    no colour merges with another."""
    palette = [v for k in range(256) for v in (k, (97 * k) % 256, 255 - k)]
    frames = []
    for shift in range(2):
        frame = Image.new("P", (32, 16))
        frame.putpalette(palette)
        frame.putdata([(p + shift) % 256 for p in range(512)])
        frames.append(frame)
    shown = decoded(animate(frames))
    for image, frame in zip(shown, frames, strict=True):
        assert image.tobytes() == frame.convert("RGB").tobytes()


def test_past_255_colours_a_flat_area_the_palette_lacks_is_one_colour() -> None:
    """A middle frame's flat square of a colour no sampled frame has: the nearest palette colour
    all over, no dithered dots."""
    levels = range(0, 256, 36)
    many = Image.new("RGB", (32, 32))
    many.putdata([c for c in itertools.product(levels, repeat=3) for _ in range(2)][:1024])
    middle = many.copy()
    ImageDraw.Draw(middle).rectangle((4, 4, 27, 27), fill=(17, 200, 95))
    turned = [many.rotate(a) for a in (90, 180, 270)]
    flipped = [
        many.transpose(t)
        for t in (Image.Transpose.FLIP_LEFT_RIGHT, Image.Transpose.FLIP_TOP_BOTTOM)
    ]
    shown = decoded(animate([many, middle, *turned, *flipped]))  # the middle one not sampled
    assert len(colours(shown[1].crop((4, 4, 28, 28)))) == 1


def test_smaller_frames_are_padded_with_the_commonest_colour_of_their_right_and_bottom_edges() -> (
    None
):
    """A frame whose right edge is a red line and whose bottom row is grey but for the red corner:
    31 of the 50 edge pixels are red, so the padding is red, however grey the inside next to the
    edges (the column and the row just inside are grey)."""
    large = Image.new("RGB", (50, 50), BLUE)
    small = Image.new("RGB", (20, 30), BLUE)
    draw = ImageDraw.Draw(small)
    draw.line((18, 0, 18, 29), fill=GREY)  # just inside the right edge
    draw.line((0, 28, 18, 28), fill=GREY)  # just inside the bottom edge
    draw.line((0, 29, 18, 29), fill=GREY)  # the bottom edge
    draw.line((19, 0, 19, 29), fill=RED)  # the right edge
    wide = Image.new("RGB", (40, 10), BLUE)  # 39 of its 50 edge pixels grey, along the bottom
    ImageDraw.Draw(wide).line((0, 9, 38, 9), fill=GREY)
    ImageDraw.Draw(wide).line((39, 0, 39, 9), fill=RED)
    shown = decoded(animate([large, small, wide]))
    assert colours(shown[1].crop((0, 0, 20, 30))) == {BLUE, GREY, RED}
    assert colours(shown[1].crop((20, 0, 50, 50))) == {RED}
    assert colours(shown[1].crop((0, 30, 50, 50))) == {RED}
    assert colours(shown[2].crop((40, 0, 50, 50))) == {GREY}
    assert colours(shown[2].crop((0, 10, 50, 50))) == {GREY}


def test_past_255_colours_what_stays_the_same_shows_the_same() -> None:
    """One palette for every frame: the part of a picture of many colours that a move leaves
    alone does not flicker from one frame to the next."""
    levels = range(0, 256, 36)
    before = Image.new("RGB", (32, 32))
    before.putdata([c for c in itertools.product(levels, repeat=3) for _ in range(2)][:1024])
    after = before.copy()
    ImageDraw.Draw(after).rectangle((0, 0, 15, 15), fill=RED)
    shown = decoded(animate([before, after]))
    assert shown[0].crop((0, 16, 32, 32)).tobytes() == shown[1].crop((0, 16, 32, 32)).tobytes()
    assert shown[0].crop((16, 0, 32, 16)).tobytes() == shown[1].crop((16, 0, 32, 16)).tobytes()


def test_times_are_kept_to_the_hundredth_of_a_second() -> None:
    """GIF times count hundredths: 9.99 s stays 9.99 s, not 10."""
    shown = Image.open(io.BytesIO(animate([drawn(0), drawn(1)], seconds=9.99, hold=9.99)))
    times = []
    for k in range(2):
        shown.seek(k)
        times.append(shown.info["duration"])
    assert times == [9990, 9990]


def test_one_pixel_at_either_end_of_the_edges_can_decide_the_padding() -> None:
    """Frames on one palette (red, blue, grey, in that order), each 4 by 3 with 7 edge pixels
    (the corner counts for both edges): 4 grey against 3 red, where one of the grey is the
    right edge's top pixel in the first frame and the bottom edge's left pixel in the second.
    Either pixel left out would tie the two colours; every pixel counts, so the padding is grey."""
    red, blue, grey = 0, 1, 2
    large = Image.new("P", (8, 6), blue)
    large.putpalette(game_palette().getpalette() or ())
    frames = [large]
    for right, bottom in (
        ((grey, grey, red), (red, grey, grey, red)),  # the right edge top down, the bottom row
        ((red, grey, red), (grey, grey, grey, red)),
    ):
        frame = Image.new("P", (4, 3), blue)
        frame.putpalette(game_palette().getpalette() or ())
        for y, index in enumerate(right):
            frame.putpixel((3, y), index)
        for x, index in enumerate(bottom):
            frame.putpixel((x, 2), index)
        frames.append(frame)
    shown = decoded(animate(frames))
    for image in shown[1:]:
        assert colours(image.crop((4, 0, 8, 6))) == {GREY}
        assert colours(image.crop((0, 3, 8, 6))) == {GREY}
