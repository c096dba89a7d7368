"""What every image's palette is made of: RGB colours and the blends between them."""

from __future__ import annotations

RGB = tuple[int, int, int]


def mix(a: RGB, b: RGB, t: float) -> RGB:
    """The colour `t` of the way from `a` to `b` (an anti-aliased edge between them)."""
    return (
        round(a[0] + (b[0] - a[0]) * t),
        round(a[1] + (b[1] - a[1]) * t),
        round(a[2] + (b[2] - a[2]) * t),
    )
