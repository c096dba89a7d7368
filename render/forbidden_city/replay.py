"""A whole game's replay frames, drawn with one camera: every frame the same size, the board at
one scale in the same place.

Drawn alone, each table fits its own tiles: the first is a small image, and the cells shrink a
step whenever the table outgrows its size (96 to 80 pixels, and so on), so an animation of them
jumps. A replay instead shows, from the first frame, every cell the game's last table shows (the
union of all its tables' bounds, at the scale that one needs), empty cells as the faint grid, and
gives the caption the most lines any move's words take; the tiles then appear in their places.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from PIL import Image

from engine.forbidden_city.view import SeatView

from .images import table_image
from .layout import Bounds, bounds, union
from .plan import Names, plan
from .texts import Translate


@dataclass(frozen=True, slots=True)
class Stage:
    """What every frame of one replay shares: the cells shown and the caption's lines."""

    shown: Bounds
    lines: int


def stage(views: Sequence[SeatView], names: Names = None, tr: Translate | None = None) -> Stage:
    """The stage for a replay of `views` (at least one)."""
    shown = union(bounds(view) for view in views)
    lines = max(len(plan(view, names, tr=tr, shown=shown).caption) for view in views)
    return Stage(shown, lines)


def replay_drawer(
    views: Sequence[SeatView], names: Names = None, *, tr: Translate | None = None
) -> Callable[[SeatView], Image.Image]:
    """Draws any of `views` as a frame of their replay, on the fixed palette (the frames go
    into the GIF as they are drawn, nothing left to map)."""
    shared = stage(views, names, tr)

    def draw(view: SeatView) -> Image.Image:
        return table_image(view, names, tr=tr, shown=shared.shown, lines=shared.lines)

    return draw
