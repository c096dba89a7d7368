"""The replay GIF as a chat shows it: frames, their times, their pixels, its size."""

from __future__ import annotations

import io
import itertools
import random

import pytest
from PIL import GifImagePlugin, Image, ImageChops, ImageDraw

from render.__main__ import played
from render.animation import MAX_FRAMES, animate, sampled
from render.forbidden_city import palette as pal
from render.forbidden_city import table_image

RGB = tuple[int, int, int]
BACKGROUND: RGB = (20, 30, 40)


def frame(
    marks: int, size: tuple[int, int] = (80, 60), background: RGB = BACKGROUND
) -> Image.Image:
    """A flat picture with `marks` small squares: a few colours, so the GIF keeps them exact."""
    image = Image.new("RGB", size, background)
    draw = ImageDraw.Draw(image)
    for k in range(marks):
        x, y = 4 + (k * 12) % (size[0] - 12), 4 + 12 * ((k * 12) // (size[0] - 12))
        draw.rectangle((x, y, x + 8, y + 8), fill=(200, 40 + 20 * k, 60))
    return image


def decoded(gif: bytes) -> list[tuple[Image.Image, int]]:
    """Each frame as a viewer shows it (RGB, what came before included) and its time in ms."""
    shown = Image.open(io.BytesIO(gif))
    assert isinstance(shown, GifImagePlugin.GifImageFile)
    assert shown.info.get("loop") == 0  # loops forever
    out = []
    for k in range(shown.n_frames):
        shown.seek(k)
        out.append((shown.convert("RGB"), int(shown.info["duration"])))
    return out


def same(a: Image.Image, b: Image.Image) -> bool:
    return a.size == b.size and ImageChops.difference(a, b.convert("RGB")).getbbox() is None


def test_each_frame_shown_a_second_and_the_last_held() -> None:
    frames = [frame(1), frame(2), frame(3)]
    shown = decoded(animate(frames))
    assert [ms for _, ms in shown] == [1000, 1000, 4000]
    assert all(same(image, source) for (image, _), source in zip(shown, frames, strict=True))


def test_other_times() -> None:
    shown = decoded(animate([frame(1), frame(2)], seconds=0.5, hold=2.5))
    assert [ms for _, ms in shown] == [500, 2500]


def test_identical_frames_are_merged_and_their_times_add() -> None:
    frames = [frame(1), frame(2), frame(2), frame(3), frame(3)]
    shown = decoded(animate(frames))
    assert len(shown) == 3
    assert [ms for _, ms in shown] == [1000, 2000, 5000]
    assert [same(image, frames[k]) for (image, _), k in zip(shown, (0, 1, 3), strict=True)] == [
        True
    ] * 3


def test_a_single_picture() -> None:
    shown = decoded(animate([frame(2), frame(2)]))
    assert len(shown) == 1 and shown[0][1] == 5000
    assert same(shown[0][0], frame(2))


def test_smaller_frames_are_padded_top_left_with_their_background() -> None:
    small, tall, wide = frame(2, (40, 30)), frame(3, (50, 70), (90, 20, 20)), frame(4, (60, 50))
    shown = decoded(animate([small, tall, wide]))
    assert all(image.size == (60, 70) for image, _ in shown)
    for (image, _), source in zip(shown, (small, tall, wide), strict=True):
        assert same(image.crop((0, 0, *source.size)), source)
    first = shown[0][0]
    assert first.getpixel((59, 69)) == BACKGROUND and first.getpixel((45, 10)) == BACKGROUND
    assert shown[1][0].getpixel((55, 5)) == (90, 20, 20)  # its own background, not the others'


def test_modes_mix() -> None:
    grey = frame(1).convert("L")
    alone = frame(2).quantize(16)  # P with its own palette
    rgba = frame(3).convert("RGBA")
    frames = [grey, alone, rgba, frame(4)]
    shown = decoded(animate(frames))
    assert len(shown) == 4
    for (image, _), source in zip(shown, frames, strict=True):
        assert same(image, source.convert("RGB"))


def test_a_game_replay_keeps_every_pixel_of_its_palette_frames() -> None:
    """Frames already on the game's palette are used as they are: not a pixel changes."""
    game = played(3, 6)
    frames = []
    for n in range(len(game.moves) + 1):
        view = played(3, n).view(None)
        image = table_image(view)  # drawn on the game's palette
        assert image.mode == "P" and image.getpalette() == pal.palette_image().getpalette()
        frames.append(image)
    shown = decoded(animate(frames))
    assert len(shown) == len(frames)
    width = max(f.width for f in frames)
    height = max(f.height for f in frames)
    for (image, _), source in zip(shown, frames, strict=True):
        assert image.size == (width, height)
        assert same(image.crop((0, 0, *source.size)), source)


def test_many_colours_share_one_palette_close_to_them() -> None:
    rng = random.Random(1)
    frames = []
    for k in range(3):
        image = Image.new("RGB", (64, 64))
        image.putdata([(rng.randrange(256), rng.randrange(256), 40 * k) for _ in range(64 * 64)])
        frames.append(image)
    shown = decoded(animate(frames))
    assert len(shown) == 3
    for (image, _), source in zip(shown, frames, strict=True):
        counts = ImageChops.difference(image, source).histogram()  # 256 a channel
        assert max(k % 256 for k, n in enumerate(counts) if n) < 64


def noise(size: int, seed: int) -> Image.Image:
    """Few flat colours in blocks: a picture LZW cannot shrink much, whose scaling does."""
    rng = random.Random(seed)
    image = Image.new("RGB", (size, size))
    draw = ImageDraw.Draw(image)
    for y in range(0, size, 4):
        for x in range(0, size, 4):
            draw.rectangle((x, y, x + 3, y + 3), fill=(rng.randrange(0, 256, 32), 90, 40))
    return image


def test_over_the_limit_it_is_scaled_down_until_it_fits() -> None:
    frames = [noise(240, seed) for seed in range(4)]
    full = animate(frames)
    limit = len(full) * 2 // 3
    small = animate(frames, limit=limit)
    assert len(small) <= limit
    shown = decoded(small)
    assert len(shown) == 4 and [ms for _, ms in shown] == [1000, 1000, 1000, 4000]
    assert shown[0][0].width < 240 and shown[0][0].width in (180, 120, 84, 60)


def test_a_limit_nothing_fits_in_is_refused() -> None:
    with pytest.raises(ValueError):
        animate([noise(64, 1), noise(64, 2)], limit=100)


def test_no_frames_is_refused() -> None:
    with pytest.raises(ValueError):
        animate([])


def test_a_long_game_is_shown_at_evenly_spaced_moves_its_end_included() -> None:
    views = [0, 0, 1, 1, 1, 2]
    assert sampled(views) == [0, 1, 2]  # a view equal to the one before adds nothing
    long = list(range(1000))
    kept = sampled(long)
    assert len(kept) == MAX_FRAMES and kept[0] == 0 and kept[-1] == 999
    gaps = {b - a for a, b in itertools.pairwise(kept)}
    assert gaps <= {6, 7}  # evenly spaced
