"""A leaderboard image for any game: rank, name, rating with its uncertainty, games, wins and a
line of the player's recent ratings, one row a player.

The geometry is fixed (`cell_box`), so a long name or a translation never moves a column; names
are drawn by `render.fonts`, so any script shows. The picture is mapped to a fixed palette and
PNG-encoded: an adaptive one would shift every row's colours when one row changes.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import Final, Literal

from PIL import Image, ImageDraw

from .colours import mix
from .fonts import fit, stamp
from .texts import N_, Translate, translator

RGB = tuple[int, int, int]
Box = tuple[int, int, int, int]
Column = Literal["rank", "player", "rating", "games", "wins", "trend"]

# NOTE: leaderboard column headings; keep them short (a column is about 80 pixels wide).
RANK: Final = N_("Rank")
PLAYER: Final = N_("Player")
# NOTE: the same heading on a player's own board, one row per game.
GAME: Final = N_("Game")
RATING: Final = N_("Rating")
GAMES: Final = N_("Games")
WINS: Final = N_("Wins")
# NOTE: leaderboard column heading over a small line of each player's recent ratings.
TREND: Final = N_("Trend")
# NOTE: in place of the rows of a leaderboard nobody is on yet.
EMPTY: Final = N_("No rated games yet")

MESSAGES: Final[tuple[str, ...]] = (RANK, PLAYER, GAME, RATING, GAMES, WINS, TREND, EMPTY)

WIDTH = 900
MARGIN = 24
TITLE_H = 80  # title and subtitle band
HEAD_H = 36  # column headings
ROW_H = 44
EMPTY_H = 120
MAX_ROWS = 20  # more are left out: the image stays readable in a chat
PNG_LEVEL = 6  # zlib level: 9 is a tenth smaller but ten times slower
# Each column's left and right edge; numbers are right-aligned on the right edge, the rating's
# "± n" starts just right of it, so ratings line up on their ± sign.
COLUMNS: Final[dict[Column, tuple[int, int]]] = {
    "rank": (MARGIN, 80),
    "player": (92, 400),
    "rating": (400, 486),
    "games": (560, 630),
    "wins": (640, 710),
    "trend": (736, WIDTH - MARGIN),
}
# Each column's heading and how it is aligned: as the values under it.
HEADINGS: Final[tuple[tuple[Column, str, str], ...]] = (
    ("rank", RANK, "m"),
    ("player", PLAYER, "l"),
    ("rating", RATING, "r"),
    ("games", GAMES, "r"),
    ("wins", WINS, "r"),
    ("trend", TREND, "l"),
)
SPARK_PAD = 9  # the trend line's margin inside its cell, top and bottom
SPARK_LINE = 5  # its width in half pixels
SPARK_DOT = 3  # the radius of the dot at its end
SPARK_SCALE = 4

BACKGROUND: Final[RGB] = (30, 36, 40)
BAND: Final[RGB] = (22, 27, 30)
STRIPE: Final[RGB] = (37, 45, 50)  # every other row
RULE: Final[RGB] = (70, 84, 92)
TEXT: Final[RGB] = (243, 239, 230)
MUTED: Final[RGB] = (160, 170, 174)
INK: Final[RGB] = (28, 24, 22)
UP: Final[RGB] = (96, 200, 110)
DOWN: Final[RGB] = (236, 86, 72)
MEDALS: Final[dict[int, RGB]] = {1: (236, 190, 72), 2: (196, 204, 210), 3: (205, 132, 72)}


@dataclass(frozen=True)
class Row:
    """One player's line on the board."""

    rank: int  # 1 for the best; 0 or less when unranked (drawn as a dash)
    name: str
    rating: int
    uncertainty: int
    games: int
    wins: int
    trend: tuple[int, ...]  # the player's last shown ratings, oldest first


def _row_top(index: int) -> int:
    return TITLE_H + HEAD_H + index * ROW_H


def cell_box(index: int, column: Column) -> Box:
    """Pixel box (left, top, right, bottom; exclusive) of row `index` (from 0) in `column`."""
    left, right = COLUMNS[column]
    top = _row_top(index)
    if column == "rating":
        right = COLUMNS["games"][0]
    return left, top, right, top + ROW_H


def leaderboard_image(
    title: str,
    rows: Sequence[Row],
    *,
    tr: Translate | None = None,
    subtitle: str = "",
    per_game: bool = False,
    scale: int = 1,
) -> Image.Image:
    """The leaderboard (RGB), before encoding: at most `MAX_ROWS` rows, as ordered;
    `per_game`: one player's rows, one a game, the name column headed "Game". `scale`
    draws it that many times larger, the same picture in more pixels (a web page's copy,
    sharp on a phone's dense screen); texts are cut as at scale 1, so every scale says the
    same."""
    tr_ = translator(tr)
    s = scale
    shown = rows[:MAX_ROWS]
    body = HEAD_H + ROW_H * len(shown) if shown else EMPTY_H
    image = Image.new("RGB", (WIDTH * s, (TITLE_H + body + MARGIN // 2) * s), BACKGROUND)
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, WIDTH * s, TITLE_H * s - 1), fill=BAND)
    width = WIDTH - 2 * MARGIN
    title_y = TITLE_H // 2 - (12 if subtitle else 0)
    title = fit(title, 28, width, True)
    stamp(image, (MARGIN * s, title_y * s), title, 28 * s, TEXT, bold=True, anchor="lm")
    if subtitle:
        where = (MARGIN * s, (TITLE_H // 2 + 18) * s)
        stamp(image, where, fit(subtitle, 15, width), 15 * s, MUTED, anchor="lm")
    if not shown:
        middle = (WIDTH // 2 * s, (TITLE_H + EMPTY_H // 2) * s)
        stamp(image, middle, fit(tr_(EMPTY), 20, width), 20 * s, MUTED, anchor="mm")
        return image
    _headings(image, tr_, GAME if per_game else PLAYER, s)
    for index, row in enumerate(shown):
        _row(image, index, row, s)
    return image


def _headings(image: Image.Image, tr: Translate, names: str, s: int) -> None:
    y = (TITLE_H + HEAD_H // 2) * s
    for column, label, anchor in HEADINGS:
        label = names if column == "player" else label
        left, right = COLUMNS[column]
        text = fit(tr(label), 13, right - left, True)
        x = {"l": left, "m": (left + right) / 2, "r": right}[anchor] * s
        stamp(image, (x, y), text, 13 * s, MUTED, bold=True, anchor=anchor + "m")
    rule = _row_top(0) - 1
    box = (MARGIN * s, rule * s, (WIDTH - MARGIN + 1) * s - 1, (rule + 1) * s - 1)
    ImageDraw.Draw(image).rectangle(box, fill=RULE)


def _row(image: Image.Image, index: int, row: Row, s: int) -> None:
    draw = ImageDraw.Draw(image)
    top = _row_top(index)
    middle = (top + ROW_H // 2) * s
    if index % 2:
        draw.rectangle((0, top * s, WIDTH * s, (top + ROW_H) * s - 1), fill=STRIPE)
    left, right = COLUMNS["rank"]
    centre = (left + right) // 2 * s
    rank = str(row.rank) if row.rank > 0 else "–"
    medal = MEDALS.get(row.rank)
    if medal is not None:
        r = 15 * s
        draw.ellipse((centre - r, middle - r, centre + r, middle + r), fill=medal)
        stamp(image, (centre, middle), rank, 16 * s, INK, bold=True, anchor="mm")
    else:
        stamp(image, (centre, middle), rank, 16 * s, MUTED, bold=True, anchor="mm")
    left, right = COLUMNS["player"]
    name = fit(row.name, 18, right - left - 8, True)
    stamp(image, (left * s, middle), name, 18 * s, TEXT, bold=True, anchor="lm")
    right = COLUMNS["rating"][1]
    stamp(image, (right * s, middle), str(row.rating), 18 * s, TEXT, bold=True, anchor="rm")
    spread = ((right + 6) * s, middle + s)
    stamp(image, spread, f"± {row.uncertainty}", 14 * s, MUTED, anchor="lm")
    for right, value in ((COLUMNS["games"][1], row.games), (COLUMNS["wins"][1], row.wins)):
        stamp(image, (right * s, middle), str(value), 16 * s, TEXT, anchor="rm")
    left, top, right, bottom = cell_box(index, "trend")
    _sparkline(image, (left * s, top * s, right * s, bottom * s), row.trend, s)


def _sparkline(image: Image.Image, box: Box, trend: tuple[int, ...], s: int) -> None:
    """The ratings as a line across the cell (`box`, in the picture's pixels: `s` to each
    of scale 1), green if the last is above the first, red if below, its end marked with a
    dot; one rating is a dot alone, none is nothing. Drawn at `SPARK_SCALE` times the size
    and reduced: a smooth line, not a staircase."""
    if not trend:
        return
    left, top, right, bottom = box
    width, height = (right - left) * SPARK_SCALE, (bottom - top) * SPARK_SCALE
    pad, dot = SPARK_PAD * SPARK_SCALE * s, SPARK_DOT * SPARK_SCALE * s
    points = spark_points(trend, width, height, pad, dot)
    mask = Image.new("L", (width, height), 0)
    draw = ImageDraw.Draw(mask)
    if len(points) > 1:
        line = SPARK_LINE * SPARK_SCALE // 2 * s
        draw.line(points, fill=255, width=line, joint="curve")
    x, y = points[-1]
    draw.ellipse((x - dot, y - dot, x + dot, y + dot), fill=255)
    colour = {"up": UP, "down": DOWN, "flat": MUTED}[trend_direction(trend)]
    small = mask.resize((right - left, bottom - top), Image.Resampling.BOX)
    image.paste(colour, (left, top), small)


def spark_points(
    trend: Sequence[int], width: float, height: float, pad: float, dot: float
) -> list[tuple[float, float]]:
    """Where each rating of `trend` (not empty) lies on a trend line in a `width` x `height`
    box: left to right, highest at `pad` from the top, lowest at `pad` from the bottom (all
    level: the middle), `dot` (the end dot's radius) from either side; one rating alone at
    the right. The one place the line is laid out: the picture's and the page's (`spark`)."""
    low, high = min(trend), max(trend)
    span = max(1, len(trend) - 1)
    return [
        (
            dot + (width - 2 * dot) * k / span if len(trend) > 1 else width - dot,
            height / 2
            if high == low
            else height - pad - (height - 2 * pad) * (v - low) / (high - low),
        )
        for k, v in enumerate(trend)
    ]


def trend_direction(trend: Sequence[int]) -> Literal["up", "down", "flat"]:
    """Up if the last rating is above the first, down if below: the line's colour."""
    return "up" if trend[-1] > trend[0] else "down" if trend[-1] < trend[0] else "flat"


@dataclass(frozen=True)
class Spark:
    """A trend line for an SVG (a web page's, `spark`): its polyline's points ("x,y x,y";
    none for one rating), its end dot's centre and radius, which way it went, and the
    `box` (width, height) they lie in, in the SVG's user units (a CSS px each)."""

    points: str
    end: tuple[float, float]
    dot: int
    direction: Literal["up", "down", "flat"]
    box: tuple[int, int]


# The page's trend line: its box, its margin top and bottom, its end dot's radius (CSS px).
SPARK_SVG: Final = (72, 24)
SPARK_SVG_PAD = 4
SPARK_SVG_DOT = 3


def spark(trend: Sequence[int]) -> Spark | None:
    """The trend line as the picture's, laid out by `spark_points` in the page's smaller box
    (`SPARK_SVG`); None without a rating. One rating is its dot alone (no points)."""
    if not trend:
        return None
    width, height = SPARK_SVG
    points = spark_points(trend, width, height, SPARK_SVG_PAD, SPARK_SVG_DOT)
    line = " ".join(f"{x:.1f},{y:.1f}" for x, y in points) if len(points) > 1 else ""
    x, y = points[-1]
    end = (round(float(x), 1), round(float(y), 1))
    return Spark(line, end, SPARK_SVG_DOT, trend_direction(trend), SPARK_SVG)


def leaderboard_png(
    title: str,
    rows: Sequence[Row],
    *,
    tr: Translate | None = None,
    subtitle: str = "",
    per_game: bool = False,
    scale: int = 1,
) -> bytes:
    """The leaderboard as a small PNG: `title` (and `subtitle`) above the rows, as ordered;
    "No rated games yet" without any. `tr` translates the headings (None: English);
    `scale` (`leaderboard_image`): the chat's 1, a web page's more."""
    image = leaderboard_image(title, rows, tr=tr, subtitle=subtitle, per_game=per_game, scale=scale)
    indexed = image.quantize(palette=palette_image(), dither=Image.Dither.NONE)
    out = io.BytesIO()
    indexed.save(out, "PNG", compress_level=PNG_LEVEL)
    return out.getvalue()


@cache
def palette_image() -> Image.Image:
    """The colours (at most 256) a leaderboard is mapped to: the flat ones; seven steps between text
    and the row backgrounds (the edges of most glyphs), three between the other colours that
    meet; then a colour cube for emoji, and greys."""
    grounds = [BACKGROUND, STRIPE, BAND]
    found: dict[RGB, None] = dict.fromkeys([*grounds, RULE, TEXT, MUTED, INK, UP, DOWN])
    found.update(dict.fromkeys(MEDALS.values()))
    pairs: list[tuple[RGB, RGB, tuple[int, ...]]] = [
        (g, ink, (1, 2, 3, 4, 5, 6, 7)) for g in grounds for ink in (TEXT, MUTED)
    ]
    pairs += [(g, ink, (2, 4, 6)) for g in grounds[:2] for ink in (UP, DOWN, RULE)]
    pairs += [(g, m, (2, 4, 6)) for g in grounds[:2] for m in MEDALS.values()]
    pairs += [(m, INK, (2, 4, 6)) for m in MEDALS.values()]
    for ground, ink, eighths in pairs:
        found.update(dict.fromkeys(mix(ground, ink, k / 8) for k in eighths))
    levels = (0, 64, 128, 192, 255)
    found.update(dict.fromkeys((r, g, b) for r in levels for g in levels for b in levels))
    for level in range(0, 256, 8):  # pad with greys
        if len(found) < 256:
            found.setdefault((level, level, level))
    image = Image.new("P", (1, 1))
    image.putpalette([channel for colour in list(found)[:256] for channel in colour])
    return image
