"""A replay GIF draws each frame as what changed over the one before, its unchanged pixels
marked with a palette index no frame uses: frames show as drawn, and a small change costs
few bytes."""

from __future__ import annotations

import random

from PIL import Image, ImageDraw

from render.animation import animate
from tests.test_render_replay import decoded as shown_as

SIZE = (48, 32)


def decoded(gif: bytes) -> list[Image.Image]:
    """Each frame as a viewer shows it, in RGBA."""
    return shown_as(gif, "RGBA")


def full_palette() -> list[int]:
    """256 colours, all different."""
    return [v for k in range(256) for v in (k, (97 * k) % 256, 255 - k)]


def indexed(fill: int, squares: dict[int, tuple[int, int, int, int]]) -> Image.Image:
    """A P frame on the full palette: index `fill` with squares of other indices."""
    image = Image.new("P", SIZE, fill)
    image.putpalette(full_palette())
    draw = ImageDraw.Draw(image)
    for index, box in squares.items():
        draw.rectangle(box, fill=index)
    return image


def assert_shown_as_drawn(frames: list[Image.Image]) -> None:
    shown = decoded(animate(frames))
    assert len(shown) == len(frames)
    for k, (image, frame) in enumerate(zip(shown, frames, strict=True)):
        assert image.tobytes() == frame.convert("RGBA").tobytes(), k


def test_frames_using_indices_the_first_and_last_leave_free_show_as_drawn() -> None:
    """The first and the last frames leave 250, 251, 253 and 254 free; the middle ones use 250,
    253 and 254: 251 alone is free in every frame. Indices used by one end frame only, or by
    both as often, are not free either."""
    ends = {1: (0, 0, 9, 9), 2: (10, 0, 19, 9), 8: (47, 31, 47, 31), 9: (20, 20, 29, 29)}
    first = indexed(0, {**ends, 255: (30, 0, 39, 9)})
    second = indexed(0, {1: (0, 0, 9, 9), 254: (0, 12, 9, 21), 250: (40, 0, 47, 9)})
    third = indexed(0, {2: (10, 0, 19, 9), 253: (12, 12, 21, 21), 7: (40, 0, 47, 9)})
    last = indexed(0, {**ends, 252: (30, 12, 39, 21)})
    assert_shown_as_drawn([first, second, third, last])


def test_frames_using_every_index_the_ends_leave_free_show_as_drawn() -> None:
    """The middle frames use all four candidates the ends leave free at the top of the palette
    (one of them in both)."""
    first = indexed(0, {1: (0, 0, 9, 9)})
    middle = indexed(0, {252: (0, 0, 9, 9), 253: (10, 0, 19, 9), 254: (20, 0, 29, 9)})
    other = indexed(0, {255: (0, 12, 9, 21), 254: (20, 12, 29, 21), 3: (30, 0, 39, 9)})
    last = indexed(0, {1: (0, 20, 9, 29)})
    assert_shown_as_drawn([first, middle, other, last])


def noise(seed: int) -> Image.Image:
    """A frame of 64 x 64 random colours: thousands, a GIF frame LZW cannot shrink."""
    rng = random.Random(seed)
    image = Image.new("RGB", (64, 64))
    image.putdata(
        [(rng.randrange(256), rng.randrange(256), rng.randrange(256)) for _ in range(4096)]
    )
    return image


def test_a_move_that_changes_two_far_corners_costs_few_bytes() -> None:
    """The second frame differs from the first in two opposite corners only: the rectangle
    between them is redrawn, but as unchanged pixels of one index, which cost next to nothing."""
    first = noise(1)
    second = first.copy()
    second.putpixel((0, 0), (255, 255, 255))
    second.putpixel((63, 63), (0, 0, 0))
    alone = animate([first])
    both = animate([first, second])
    assert len(decoded(both)) == 2
    assert len(both) - len(alone) < len(alone) // 4


def test_a_gif_exactly_at_its_limit_is_kept_whole() -> None:
    frames = [noise(1), noise(2)]
    full = animate(frames)
    kept = animate(frames, limit=len(full))
    assert kept == full
    assert [image.size for image in decoded(kept)] == [(64, 64)] * 2
