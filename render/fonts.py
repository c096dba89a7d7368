"""The fonts shipped with the package (Noto subsets, OFL: fonts/OFL.txt), with a fallback per
character, so that a name in any script a chat user may have is drawn (fonts/README.md).

Shipping subsets keeps every image identical everywhere. Noto Sans covers Latin (extended),
Greek and Cyrillic for player names and translated texts; then, character by character:
subsets for Arabic, Hebrew, Devanagari, Thai, Georgian, Armenian, Ethiopic, symbols
(★♥☯①■✓...) and the common CJK characters (Chinese, Japanese, Korean), colour emoji from a
sprite sheet (first when U+FE0F asks for it), the host's own Noto or DejaVu fonts when
present, and last U+FFFD, a visible placeholder: never a .notdef box, never an empty name.
Flags are written as their two letters (🇫🇷 as FR). A tiny Noto Sans CJK subset carries the 禁
of the seal and the 龍 of the dragons. Faces are loaded once per size.
"""

from __future__ import annotations

import glob
import io
import math
import unicodedata
from functools import cache, lru_cache
from importlib import resources
from typing import Final

from PIL import Image, ImageDraw, ImageFont

from .memo import ImageCache, image_bytes
from .palette_text import stamp_on_palette

Font = ImageFont.FreeTypeFont

_FILES = {False: "NotoSans-Regular-subset.ttf", True: "NotoSans-Bold-subset.ttf"}
_SEAL_FILE = "NotoSansSC-Bold-subset.otf"
# One weight (bold) each: these scripts show up in names, drawn bold almost everywhere.
FALLBACK_FILES: Final = (
    "NotoSansArabic-Bold-subset.woff2",
    "NotoSansHebrew-Bold-subset.woff2",
    "NotoSansDevanagari-Bold-subset.woff2",
    "NotoSansThai-Bold-subset.woff2",
    "NotoSansGeorgian-Bold-subset.woff2",
    "NotoSansArmenian-Bold-subset.woff2",
    "NotoSansEthiopic-Bold-subset.woff2",
    "NotoSansSymbols-Bold-subset.woff2",
    "NotoSansSymbols2-Regular-subset.woff2",
    "NotoSansCJKsc-Bold-subset.woff2",
)
# Fonts the host may have (Debian's fonts-noto-*, fonts-dejavu), tried only for characters
# none of ours has; images then depend on the host, which beats a placeholder.
SYSTEM_FONTS: Final = (
    "/usr/share/fonts/**/NotoSans*-Bold.tt[fc]",
    "/usr/share/fonts/**/NotoSansCJK-Bold.ttc",
    "/usr/share/fonts/**/DejaVuSans-Bold.ttf",
)
EMOJI_FILE = "emoji-32"  # .png: the sprites, a row of EMOJI_COLUMNS; .txt: their code points
EMOJI_TILE = 32
EMOJI_COLUMNS = 40
EMOJI_SCALE = 1.1  # an emoji's side and advance, in font sizes
PLACEHOLDER: Final = "\ufffd"  # for a character no font has: visibly "something unreadable"
# A table needs ~100 KB of text, and captions change every move: with 4 MB, 200 tables
# missed 2.5 texts a move (0.65 ms), with 12 MB 1.3.
TEXT_CACHE_BYTES = 12 << 20
_PROBE_SIZE = 24
_NOT_A_CHARACTER = "\U0010fffd"  # mapped by no font: draws the .notdef glyph
_FLAGS = {0x1F1E6 + i: chr(ord("A") + i) for i in range(26)}  # regional indicators → A-Z
_JOINERS = frozenset("\u200c\u200d")
_EMOJI_STYLE = "\ufe0f"  # variation selector 16: the emoji style of the character before
TEXT, EMOJI = "text", "emoji"  # face keys besides fallback file names and system font paths


@cache
def _data(name: str) -> bytes:
    return resources.files(__package__).joinpath("fonts", name).read_bytes()


@cache
def font(size: int, bold: bool = False) -> Font:
    """The text font at `size` pixels (cached: loading a face costs about a millisecond)."""
    return ImageFont.truetype(io.BytesIO(_data(_FILES[bold])), max(6, size))


@cache
def seal_font(size: int) -> Font:
    """The CJK face, bold: only 紫禁城龍 (the seal and the dragons)."""
    return ImageFont.truetype(io.BytesIO(_data(_SEAL_FILE)), max(6, size))


def _source(key: str) -> str | io.BytesIO:
    if key == TEXT:
        return io.BytesIO(_data(_FILES[True]))
    return io.BytesIO(_data(key)) if key in FALLBACK_FILES else key


@cache
def _face(key: str, size: int, bold: bool) -> Font:
    """The font behind a face key at `size` (bold only matters to the text font)."""
    if key == TEXT:
        return font(size, bold)
    return ImageFont.truetype(_source(key), max(6, size))


@cache
def _system_fonts() -> tuple[str, ...]:
    found = {path for pattern in SYSTEM_FONTS for path in glob.glob(pattern, recursive=True)}
    return tuple(sorted(found))


@cache
def _probe(key: str) -> Font:
    """The face without text shaping, which would draw a lone mark on a dotted circle."""
    return ImageFont.truetype(_source(key), _PROBE_SIZE, layout_engine=ImageFont.Layout.BASIC)


@cache
def _notdef(key: str) -> tuple[tuple[int, int], bytes]:
    mask = _probe(key).getmask(_NOT_A_CHARACTER)
    return mask.size, bytes(mask)


def _covers(key: str, char: str) -> bool:
    """Whether the face draws `char` as its own glyph rather than as .notdef."""
    try:
        mask = _probe(key).getmask(char)
    except (OSError, ValueError):
        return False
    return (mask.size, bytes(mask)) != _notdef(key)


@cache
def _emoji() -> dict[str, int]:
    """Emoji character → its index in the sprite sheet."""
    lines = _data(EMOJI_FILE + ".txt").decode("ascii").split()
    return {chr(int(code, 16)): index for index, code in enumerate(lines)}


@cache
def _face_of(char: str) -> str:
    """The first face, in fallback order, that draws `char`; TEXT with PLACEHOLDER if none."""
    if _covers(TEXT, char):
        return TEXT
    for key in FALLBACK_FILES:
        if _covers(key, char):
            return key
    if char in _emoji():
        return EMOJI
    for path in _system_fonts():
        if _covers(path, char):
            return path
    return ""


def _attaches(char: str) -> bool:
    """Marks, joiners, variation selectors, emoji modifiers and tags: part of the character
    before them, drawn by its face or not at all."""
    return unicodedata.category(char) in ("Mn", "Me", "Cf") or 0x1F3FB <= ord(char) <= 0x1F3FF


def one_line(text: str) -> str:
    """`text` as one drawable line: controls and invisible format characters dropped (joiners
    kept), every kind of line break and space turned into a plain space."""
    out: list[str] = []
    for char in text:
        category = unicodedata.category(char)
        if char.isspace() or category in ("Zl", "Zp"):
            out.append(" ")
        elif category != "Cc" and (category != "Cf" or char in _JOINERS):
            out.append(char)
    return "".join(out)


Run = tuple[str, str]  # face key, text


@lru_cache(maxsize=4096)
def runs(text: str) -> tuple[Run, ...]:
    """`text` cut into runs each drawn by one face (see the module's fallback order). Most
    texts are printable ASCII, which the text face draws whole: one run, found without the
    walk through every character (laying out a new caption measures each of its prefixes)."""
    if text and text.isascii() and text.isprintable() and _ascii_drawn():
        return ((TEXT, text),)
    return _runs_of(text)


@cache
def _ascii_drawn() -> bool:
    """Whether the text face draws every printable ASCII character."""
    return all(_face_of(chr(code)) == TEXT for code in range(0x21, 0x7F))


def _runs_of(text: str) -> tuple[Run, ...]:
    text = one_line(text).translate(_FLAGS)
    out: list[list[str]] = []
    for index, char in enumerate(text):
        if out and (_attaches(char) or (char == " " and out[-1][0] != EMOJI)):
            out[-1][1] += char  # a space stays in its run, for shaping (an emoji has none)
            continue
        key = TEXT if char == " " or char in _JOINERS else _face_of(char)
        if text[index + 1 : index + 2] == _EMOJI_STYLE and char in _emoji():
            key = EMOJI  # ❤️ asks for the emoji where a symbol font has the plain ❤
        if not key:
            key, char = TEXT, PLACEHOLDER
        if out and out[-1][0] == key:
            out[-1][1] += char
        else:
            out.append([key, char])
    spaced: list[Run] = []  # a space after a run is the text face's: right-to-left runs
    for key, run in out:  # would draw their own trailing space on their left
        word = run.rstrip(" ")
        for part in ((key, word), (TEXT, run[len(word) :])):
            if spaced and spaced[-1][0] == part[0] == TEXT:
                spaced[-1] = (TEXT, spaced[-1][1] + part[1])
            elif part[1]:
                spaced.append(part)
    return tuple(spaced)


def _emoji_indexes(run: str) -> list[int]:
    table = _emoji()
    return [table[c] for c in run if c in table]


@lru_cache(maxsize=512)
def emoji_sprite(index: int, side: int) -> Image.Image:
    """Emoji number `index` of the sprite sheet, RGBA, `side` pixels square."""
    sheet = _emoji_sheet()
    row, column = divmod(index, EMOJI_COLUMNS)
    box = (column * EMOJI_TILE, row * EMOJI_TILE, (column + 1) * EMOJI_TILE, (row + 1) * EMOJI_TILE)
    tile = sheet.crop(box).convert("RGBA")
    return tile.resize((side, side), Image.Resampling.LANCZOS)


@cache
def _emoji_sheet() -> Image.Image:
    sheet = Image.open(io.BytesIO(_data(EMOJI_FILE + ".png")))
    sheet.load()
    return sheet


def _advance(key: str, run: str, size: int, bold: bool) -> float:
    if key == EMOJI:
        return len(_emoji_indexes(run)) * round(size * EMOJI_SCALE)
    return _face(key, size, bold).getlength(run)


@lru_cache(maxsize=8192)
def text_width(text: str, size: int, bold: bool = False) -> float:
    """Advance width of `text` drawn by `stamp` at `size`, in pixels."""
    return sum(_advance(key, run, size, bold) for key, run in runs(text))


def fit(text: str, size: int, width: float, bold: bool = False) -> str:
    """`text` cut with an ellipsis to fit `width` pixels."""
    if text_width(text, size, bold) <= width:
        return text
    while text and text_width(text + "…", size, bold) > width:
        text = text[:-1]
    return text + "…"


# A rendered text: its mask (for the fill colour), its colour layer (emoji) if any, and the
# offset of their top-left corner from the anchor point.
Mask = tuple[Image.Image, Image.Image | None, int, int]


def _mask_bytes(mask: Mask) -> int:
    return image_bytes(mask[0]) + (image_bytes(mask[1]) if mask[1] is not None else 0)


_masks: ImageCache[Mask] = ImageCache(TEXT_CACHE_BYTES, _mask_bytes, "text")


def _single_mask(text: str, f: Font, anchor: str) -> Mask:
    # One layout pass: FreeType's mask and where it goes, as `ImageDraw.text` draws it (the
    # box first, then the text in it, laid the line out twice: a quarter of a miss's cost).
    core, (left, top) = f.getmask2(text, mode="L", anchor=anchor)
    if core.size[0] > 0 and core.size[1] > 0:
        return Image.Image()._new(core), None, left, top
    box = f.getbbox(text, anchor=anchor)
    left, top, right, bottom = (
        math.floor(box[0]),
        math.floor(box[1]),
        math.ceil(box[2]),
        math.ceil(box[3]),
    )
    mask = Image.new("L", (max(1, right - left), max(1, bottom - top)), 0)
    ImageDraw.Draw(mask).text((-left, -top), text, font=f, fill=255, anchor=anchor)
    return mask, None, left, top


def _mixed_mask(parts: tuple[Run, ...], size: int, bold: bool, anchor: str) -> Mask:
    """Runs side by side on one baseline, placed at `anchor` as Pillow would place one run."""
    base = font(size, bold)
    baseline = base.getbbox("x", anchor="l" + anchor[1])[1] - base.getbbox("x", anchor="ls")[1]
    total = sum(_advance(key, run, size, bold) for key, run in parts)
    x = -{"l": 0.0, "m": total / 2, "r": total}[anchor[0]]
    side = round(size * EMOJI_SCALE)
    placed: list[tuple[str, str, float, tuple[float, float, float, float]]] = []
    for key, run in parts:
        if key == EMOJI:
            count = len(_emoji_indexes(run))
            box = (x, baseline - side * 0.86, x + count * side, baseline + side * 0.14)
        else:
            b = _face(key, size, bold).getbbox(run, anchor="ls")
            box = (x + b[0], baseline + b[1], x + b[2], baseline + b[3])
        placed.append((key, run, x, box))
        x += _advance(key, run, size, bold)
    left = math.floor(min(p[3][0] for p in placed))
    top = math.floor(min(p[3][1] for p in placed))
    right = math.ceil(max(p[3][2] for p in placed))
    bottom = math.ceil(max(p[3][3] for p in placed))
    mask = Image.new("L", (max(1, right - left), max(1, bottom - top)), 0)
    colour: Image.Image | None = None
    for key, run, start, box in placed:
        if key != EMOJI:
            f = _face(key, size, bold)
            ImageDraw.Draw(mask).text(
                (start - left, baseline - top), run, font=f, fill=255, anchor="ls"
            )
            continue
        if colour is None:
            colour = Image.new("RGBA", mask.size, (0, 0, 0, 0))
        for n, index in enumerate(_emoji_indexes(run)):
            sprite = emoji_sprite(index, side)
            colour.alpha_composite(sprite, (round(box[0] - left) + n * side, round(box[1] - top)))
    return mask, colour, left, top


def _text_mask(text: str, size: int, bold: bool, anchor: str) -> Mask:
    parts = runs(text)
    if len(parts) == 1 and parts[0][0] == TEXT:
        return _single_mask(parts[0][1], font(size, bold), anchor)
    return _mixed_mask(parts, size, bold, anchor)


def stamp_box(
    xy: tuple[float, float], text: str, size: int, *, bold: bool = False, anchor: str = "la"
) -> tuple[int, int, int, int] | None:
    """The box (left, top, right, bottom; exclusive) `stamp` would paint in, or None if it
    would paint nothing: lets a caller draw texts apart and paste them where they go."""
    if not runs(text):
        return None
    mask, _, left, top = _mask(text, size, bold, anchor, False)
    x, y = round(xy[0]) + left, round(xy[1]) + top
    return (x, y, x + mask.width, y + mask.height)


def _mask(text: str, size: int, bold: bool, anchor: str, seal: bool) -> Mask:
    """The text's rendered mask, from the cache (`seal`: the CJK face)."""
    key = (text, size, bold, anchor, seal)
    if seal:
        return _masks.get(key, lambda: _single_mask(text, seal_font(size), anchor))
    return _masks.get(key, lambda: _text_mask(text, size, bold, anchor))


def stamp(
    image: Image.Image,
    xy: tuple[float, float],
    text: str,
    size: int,
    fill: tuple[int, int, int],
    *,
    bold: bool = False,
    anchor: str = "la",
    seal: bool = False,
) -> None:
    """Draw `text` like `ImageDraw.text`, from a cache of rendered masks.

    Labels, numbers and names repeat on every image; rendering each glyph run once makes text
    cost a paste instead of a FreeType call. The cache is keyed on the text as drawn, so
    languages never mix. `seal` picks the CJK face. Any text is drawn on one line, each
    character by the first face that has it (see the module's docstring); a text with nothing
    to draw (empty, or only control characters) draws nothing.
    """
    if not seal and not runs(text):
        return
    key = (text, size, bold, anchor, seal)
    mask, colour, left, top = _mask(text, size, bold, anchor, seal)
    where = (round(xy[0]) + left, round(xy[1]) + top)
    if image.mode == "P":
        stamp_on_palette(image, where, (key, fill), mask, colour)
        return
    image.paste(fill, where, mask)
    if colour is not None:
        image.paste(colour, where, colour)
