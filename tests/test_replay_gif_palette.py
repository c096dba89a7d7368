"""The replay GIF's one palette: every colour exact while the frames have at most 255 together;
past that, a median cut of four evenly spaced frames (the first and the last among them), so
the colours of those frames still show as drawn."""

from __future__ import annotations

import itertools

from PIL import Image, ImageChops, ImageDraw

from render.animation import animate
from tests.test_render_replay import decoded

RGB = tuple[int, int, int]
SIZE = (40, 40)
BACKGROUND: RGB = (128, 128, 128)
# Far apart from each other and from the background: a colour lost shows far from its own.
VIVID: list[RGB] = [
    (255, 0, 0),
    (0, 200, 0),
    (0, 0, 255),
    (255, 255, 0),
    (255, 0, 255),
    (0, 255, 255),
    (255, 255, 255),
]


def distance(a: object, b: object) -> int:
    assert isinstance(a, tuple) and isinstance(b, tuple)
    return max(abs(int(x) - int(y)) for x, y in zip(a, b, strict=True))


def worst(shown: Image.Image, drawn: Image.Image) -> int:
    """The largest channel difference between a shown frame and the frame drawn."""
    assert shown.size == drawn.size
    bands = ImageChops.difference(shown, drawn.convert("RGB")).getextrema()
    return max(int(band[1]) for band in bands if isinstance(band, tuple))


def gradient(size: tuple[int, int] = SIZE, shift: int = 0) -> Image.Image:
    """A frame of a thousand and more dull colours, none near the vivid ones: past 255 with any
    other frame, so the palette is a median cut."""
    image = Image.new("RGB", size)
    w, h = size
    image.putdata([(60 + x, 60 + y, 90 + (x + y + shift) % 7) for y in range(h) for x in range(w)])
    return image


def patched(
    colour: RGB, size: tuple[int, int] = SIZE, corner: tuple[int, int] = (10, 10)
) -> Image.Image:
    """A flat frame with a 12 px square of `colour`."""
    image = Image.new("RGB", size, BACKGROUND)
    x, y = corner
    ImageDraw.Draw(image).rectangle((x, y, x + 11, y + 11), fill=colour)
    return image


def test_up_to_255_colours_every_pixel_of_every_frame_is_exact() -> None:
    """Exactly 255 colours, most of them in the middle frames only (no sample of frames holds
    them): each still shows as drawn."""
    colours = list(itertools.product(range(0, 256, 42), repeat=3))[:255]  # 7 levels a channel
    frames = []
    for k in range(7):
        image = Image.new("RGB", SIZE, colours[0])
        image.putdata([colours[(37 * k + p) % 255] for p in range(SIZE[0] * SIZE[1])][:40] * 40)
        frames.append(image)
    every = {c for f in frames for _, c in f.getcolors(256) or ()}
    assert len(every) == 255
    shown = decoded(animate(frames))
    assert len(shown) == len(frames)
    assert [worst(image, drawn) for image, drawn in zip(shown, frames, strict=True)] == [0] * 7


def test_past_255_colours_the_first_and_last_frames_keep_theirs() -> None:
    """A colour only in the first frame, and one only in the last, of a replay of many colours."""
    frames = [patched(VIVID[0]), *[gradient(shift=k) for k in range(5)], patched(VIVID[1])]
    shown = decoded(animate(frames))
    assert len(shown) == 7
    assert distance(shown[0].getpixel((15, 15)), VIVID[0]) <= 8
    assert distance(shown[-1].getpixel((15, 15)), VIVID[1]) <= 8
    assert worst(shown[0], frames[0]) <= 8 and worst(shown[-1], frames[-1]) <= 8


def test_past_255_colours_four_evenly_spaced_frames_keep_theirs() -> None:
    """Seven frames: the palette comes from the 1st, 3rd, 5th and 7th, whose own colours all
    show as drawn, while the others, full of colours, are shown closely."""
    frames = [patched(VIVID[k]) if k % 2 == 0 else gradient(shift=k) for k in range(7)]
    shown = decoded(animate(frames))
    assert len(shown) == 7
    for k in (0, 2, 4, 6):
        assert distance(shown[k].getpixel((15, 15)), VIVID[k]) <= 8, k
        assert worst(shown[k], frames[k]) <= 8, k


def test_past_255_colours_up_to_four_frames_all_keep_theirs() -> None:
    """Three frames, each with a colour of its own: all three in the palette."""
    frames = [patched(VIVID[k]) for k in range(3)]
    for frame in frames:
        frame.paste(gradient((20, 20)), (20, 20))
    shown = decoded(animate(frames))
    for k in range(3):
        assert distance(shown[k].getpixel((15, 15)), VIVID[k]) <= 8, k


def test_past_255_colours_a_two_pixel_square_keeps_its_colour() -> None:
    """The palette looks at every other pixel of its frames: a 2x2 square anywhere in the first
    or the last frame is among them."""
    first, last = patched(VIVID[0]), patched(VIVID[1])
    ImageDraw.Draw(first).rectangle((2, 2, 3, 3), fill=VIVID[2])
    ImageDraw.Draw(last).rectangle((34, 2, 35, 3), fill=VIVID[3])
    ImageDraw.Draw(last).rectangle((2, 34, 3, 35), fill=VIVID[4])
    shown = decoded(animate([first, gradient(), gradient(shift=1), last]))
    assert worst(shown[0], first) <= 8
    assert worst(shown[-1], last) <= 8


def test_past_255_colours_frames_of_other_sizes_keep_theirs() -> None:
    """Sampled frames of different sizes: what the smaller ones leave bare in the sample adds no
    colour of its own, so 255 colours sampled all show as drawn."""
    palette = list(itertools.product(range(21, 256, 39), repeat=3))[:255]  # no black
    sizes = [(40, 40), (30, 40), (40, 30), (20, 20)]
    sampled = []
    for k, size in enumerate(sizes):
        image = Image.new("RGB", size, palette[0])
        draw = ImageDraw.Draw(image)
        for n in range(size[0] * size[1] // 4):  # 2x2 squares: every one sampled
            x, y = 2 * (n % (size[0] // 2)), 2 * (n // (size[0] // 2))
            draw.rectangle((x, y, x + 1, y + 1), fill=palette[(64 * k + n) % 255])
        sampled.append(image)
    assert len({c for f in sampled for _, c in f.getcolors(256) or ()}) == 255
    frames = [sampled[0], gradient(shift=1), sampled[1], gradient(shift=2), sampled[2]]
    frames += [gradient(shift=3), sampled[3]]
    shown = decoded(animate(frames))
    for k, image in zip((0, 2, 4, 6), sampled, strict=True):
        assert worst(shown[k].crop((0, 0, *image.size)), image) == 0, k


def test_a_single_picture_of_many_colours() -> None:
    picture = patched(VIVID[0])
    picture.paste(gradient((20, 20)), (20, 20))
    shown = decoded(animate([picture]))
    assert len(shown) == 1 and worst(shown[0], picture) <= 8


def strip(size: tuple[int, int], base: RGB) -> Image.Image:
    """A strip of 300 colours along its length in runs of two pixels, all near `base`."""
    w, h = size
    along = [x if w > h else y for y in range(h) for x in range(w)]
    image = Image.new("RGB", size)
    image.putdata([(base[0] + (p // 2) % 30, base[1] + (p // 60) % 10, base[2]) for p in along])
    return image


def test_strips_one_pixel_wide_keep_their_colours() -> None:
    frames = [strip((1, 600), (20 + 60 * k, 100, 40 * k)) for k in range(4)]
    shown = decoded(animate(frames))
    assert [image.size for image in shown] == [(1, 600)] * 4
    assert worst(shown[-1], frames[-1]) <= 8 and worst(shown[1], frames[1]) <= 8


def test_strips_one_pixel_tall_keep_the_last_ones_colours() -> None:
    frames = [strip((600, 1), (20 + 60 * k, 100, 40 * k)) for k in range(4)]
    shown = decoded(animate(frames))
    assert [image.size for image in shown] == [(600, 1)] * 4
    assert worst(shown[-1], frames[-1]) <= 8


def test_a_strip_three_pixels_wide_keeps_the_colour_along_its_middle() -> None:
    frames = [strip((3, 600), (20 + 60 * k, 100, 40 * k)) for k in range(2)]
    for frame in frames:
        ImageDraw.Draw(frame).line((1, 0, 1, 299), fill=VIVID[2])
    shown = decoded(animate(frames))
    assert len(shown) == 2
    assert distance(shown[0].getpixel((1, 100)), VIVID[2]) <= 8
    assert distance(shown[1].getpixel((1, 100)), VIVID[2]) <= 8


def test_a_picture_three_pixels_tall_keeps_the_colour_along_its_middle() -> None:
    picture = strip((600, 3), (20, 100, 40))
    ImageDraw.Draw(picture).line((0, 1, 299, 1), fill=VIVID[2])
    shown = decoded(animate([picture]))
    assert distance(shown[0].getpixel((100, 1)), VIVID[2]) <= 8
