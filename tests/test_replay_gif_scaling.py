"""A replay GIF over its byte limit, encoded again smaller: each pixel the average of what it
covers, mapped back to the frames' own colours without dithering, one pixel at the least."""

from __future__ import annotations

import io
import random

import pytest
from PIL import Image, ImageDraw

from render.animation import animate
from tests.test_render_replay import decoded

RGB = tuple[int, int, int]
BLACK: RGB = (0, 0, 0)
WHITE: RGB = (240, 240, 240)
HALF: RGB = (120, 120, 120)  # the average of black and white
NOISE = [(200, 30, 30), (30, 200, 30), (30, 30, 200), (200, 200, 30)]


def just_over(frames: list[Image.Image]) -> list[Image.Image]:
    """The frames of their GIF encoded with a limit one byte under its full size: at 3/4."""
    full = animate(frames)
    shown = decoded(animate(frames, limit=len(full) - 1))
    assert len(shown) == len(frames)
    w, h = frames[0].size
    assert [image.size for image in shown] == [(round(w * 0.75), round(h * 0.75))] * len(shown)
    return shown


def striped(extra: list[RGB], seed: int) -> Image.Image:
    """Black and white stripes a pixel wide in an 80x80 square at (0, 0), squares of `extra`
    colours beside it, and a field of noise that makes the GIF large."""
    rng = random.Random(seed)
    image = Image.new("RGB", (160, 160))
    draw = ImageDraw.Draw(image)
    for y in range(0, 160, 4):
        for x in range(0, 160, 4):
            draw.rectangle((x, y, x + 3, y + 3), fill=rng.choice(NOISE))
    for x in range(80):
        draw.line((x, 0, x, 79), fill=BLACK if x % 2 == 0 else WHITE)
    for k, colour in enumerate(extra):
        draw.rectangle((80 + 20 * k, 0, 99 + 20 * k, 19), fill=colour)
    return image


def test_a_smaller_gif_shows_each_pixel_as_the_average_of_what_it_covers() -> None:
    """At 3/4, four stripes become three pixels: the first over the first stripe's centre alone,
    the second over the next two, the third over the fourth alone."""
    frames = [striped([HALF], seed) for seed in range(2)]
    shown = just_over(frames)
    for image in shown:
        row = [image.getpixel((x, 30)) for x in range(0, 57)]
        assert row == [BLACK, HALF, WHITE] * 19


def test_a_smaller_gif_has_only_the_frames_colours_and_no_dithering() -> None:
    """Without the averages among the frames' colours, each column of averaged stripes takes the
    nearest of them all the way down: no colour the frames lack, no dots of another."""
    frames = [striped([], seed) for seed in range(2)]
    own = {colour for _, colour in frames[0].getcolors(16) or ()}
    shown = just_over(frames)
    for image in shown:
        assert {colour for _, colour in image.getcolors(256) or ()} <= own
        for x in range(0, 57):
            column = {image.getpixel((x, y)) for y in range(2, 57)}
            assert len(column) == 1, (x, column)


def thin(size: tuple[int, int], seed: int) -> Image.Image:
    """A strip a pixel thin of noise colours in runs of four."""
    rng = random.Random(seed)
    image = Image.new("RGB", size)
    image.putdata([rng.choice(NOISE) for _ in range(max(size) // 4) for _ in range(4)])
    return image


def test_a_strip_one_pixel_wide_stays_one_pixel_wide() -> None:
    just_over([thin((1, 2000), seed) for seed in range(3)])


def test_a_strip_one_pixel_tall_stays_one_pixel_tall() -> None:
    just_over([thin((2000, 1), seed) for seed in range(3)])


def test_frames_with_a_transparent_index_are_made_smaller_too() -> None:
    """Frames in P mode on one palette of 256 colours, as read from a PNG with a transparent
    colour: scaled, they keep to that palette."""
    palette = Image.new("P", (1, 1))
    palette.putpalette([v for k in range(256) for v in (k, 255 - k, (7 * k) % 256)])
    frames = []
    for seed in range(2):
        frame = striped([], seed).quantize(palette=palette, dither=Image.Dither.NONE)
        frame.info["transparency"] = 7
        frames.append(frame)
    rgb = palette.getpalette() or []
    own = {tuple(rgb[k : k + 3]) for k in range(0, len(rgb), 3)}
    for image in just_over(frames):
        assert {colour for _, colour in image.getcolors(256) or ()} <= own


def test_frames_with_a_transparent_index_and_a_short_palette_are_made_smaller_too() -> None:
    """Frames in P mode whose palette has 4 colours (a PNG's own, short one), one of them
    marked transparent: scaled like any others, keeping to their colours and to the colour
    they mark transparent."""
    four = [BLACK, WHITE, *NOISE[:2]]
    frames = []
    for seed in range(2):
        rng = random.Random(seed)
        frame = Image.new("P", (160, 160))
        frame.putpalette([v for colour in four for v in colour])
        frame.putdata([rng.randrange(4) for _ in range(160 * 160)])
        frame.info["transparency"] = 3
        frames.append(frame)
    for image in just_over(frames):
        assert {colour for _, colour in image.getcolors(256) or ()} <= set(four)
    full = animate(frames)
    for gif in (full, animate(frames, limit=len(full) - 1)):  # the same colour marked, scaled too
        assert Image.open(io.BytesIO(gif)).info["transparency"] == 3


def test_a_limit_nothing_fits_in_is_refused_with_the_size_at_the_smallest_scale() -> None:
    frames = [striped([], seed) for seed in range(2)]
    with pytest.raises(ValueError, match=r"^\d+ bytes at scale 0\.25, over the limit of 100$"):
        animate(frames, limit=100)


def test_no_frames_is_refused_saying_so() -> None:
    with pytest.raises(ValueError, match=r"^an animation needs at least one frame$"):
        animate([])
