"""Animated GIFs of any game's images, one frame a move: the replay posted when a game ends.

GIF, because Telegram's sendAnimation takes GIF (or MP4) and every chat plays it inline.
Animated WebP was measured on a 4-player Forbidden City replay (88 moves): lossless, it is 2.4
times smaller but takes 12 s to encode (GIF: under 1 s); at its fastest or lossy, it is larger
than the GIF and still 5 to 12 s. All frames share one palette, so Pillow stores each frame as
the rectangle that changed since the one before, its unchanged pixels transparent: about 20 KB
a move where a whole table takes 60 KB.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Sequence
from typing import Final, TypeVar

from PIL import Image

MAX_COLOURS: Final = 255  # one index stays free: Pillow marks unchanged pixels with it
PALETTE_SAMPLES: Final = 4  # frames the palette is taken from, first and last among them
FREE_CANDIDATES: Final = 4  # indices unused by the first and last frames, checked in the rest
SCALES: Final = (0.75, 0.5, 0.35, 0.25)  # tried in turn while the GIF is over its limit
MAX_FRAMES: Final = 150  # a longer game is shown at evenly spaced moves, its end included
V = TypeVar("V")


def sampled(views: Sequence[V], most: int = MAX_FRAMES) -> list[V]:
    """The views that change the picture (a view equal to the one before adds nothing), at most
    `most` of them: beyond that, evenly spaced ones, the first and the last always among them.
    A game of thousands of moves (players passing again and again) stays a short animation."""
    changed = [v for k, v in enumerate(views) if k == 0 or v != views[k - 1]]
    if len(changed) <= most:
        return changed
    step = (len(changed) - 1) / (most - 1)
    return [changed[round(i * step)] for i in range(most)]


def palette_frames(
    views: Sequence[V], draw: Callable[[V], Image.Image], palette: Image.Image
) -> list[Image.Image]:
    """One frame per view that changes the picture (`sampled`), on the game's own palette as
    soon as drawn (a quarter of the memory of RGB frames, and `animate` has nothing left to
    quantize): a frame drawn on that palette as it is, an RGB one mapped to it."""
    return [_on_palette(draw(view), palette) for view in sampled(views)]


def _on_palette(frame: Image.Image, palette: Image.Image) -> Image.Image:
    """`frame` on `palette` (nearest colour, no dither): as it is if drawn on it."""
    if frame.mode == "P" and bytes(frame.getpalette() or ()) == bytes(palette.getpalette() or ()):
        return frame
    return frame.quantize(palette=palette, dither=Image.Dither.NONE)


def animate_views(
    views: Sequence[V], draw: Callable[[V], Image.Image], palette: Image.Image
) -> bytes:
    """A game's replay: its views drawn on its palette, animated (see `animate`)."""
    return animate(palette_frames(views, draw, palette))


def animate(
    frames: Sequence[Image.Image],
    *,
    seconds: float = 1.0,
    hold: float = 4.0,
    limit: int = 8 * 1024 * 1024,
) -> bytes:
    """An animated GIF, looping forever: each frame shown `seconds`, the last `hold` seconds.

    Frames may differ in size and mode: each is padded, anchored top-left, to the largest
    width and height with the commonest colour of its right and bottom edges (what the padding
    continues). Frames in P mode that share a palette are used as they are (no quantizing);
    others are mapped to one palette made from their colours, exact when they have at most 255
    together. A frame identical to the one before adds its time to it (Pillow merges them).
    Over `limit` bytes, the whole GIF is encoded again at each of `SCALES` until it fits;
    ValueError if it never does.
    """
    if not frames:
        raise ValueError("an animation needs at least one frame")
    padded = _padded(_indexed(frames))
    durations = [round(seconds * 1000)] * (len(padded) - 1) + [round(hold * 1000)]
    data = _gif(padded, durations)
    for scale in SCALES:
        if len(data) <= limit:
            break
        data = _gif([_scaled(frame, scale) for frame in padded], durations)
    if len(data) > limit:
        raise ValueError(f"{len(data)} bytes at scale {SCALES[-1]}, over the limit of {limit}")
    return data


def _indexed(frames: Sequence[Image.Image]) -> list[Image.Image]:
    """The frames in P mode on one palette."""
    palettes = {bytes(f.getpalette() or ()) if f.mode == "P" else b"" for f in frames}
    if len(palettes) == 1 and b"" not in palettes:
        return list(frames)
    rgb = [f if f.mode == "RGB" else f.convert("RGB") for f in frames]
    palette = _palette(rgb)
    return [f.quantize(palette=palette, dither=Image.Dither.NONE) for f in rgb]


def _palette(frames: Sequence[Image.Image]) -> Image.Image:
    """A palette image: the frames' own colours when they fit, else a median cut of a sample of
    frames (the first and the last, which hold the most of a game's colours, among them)."""
    colours: dict[tuple[int, ...], None] = {}
    for frame in frames:
        found = frame.getcolors(MAX_COLOURS)  # None past MAX_COLOURS: gives up early
        if found is None:
            break
        colours.update((tuple(colour), None) for _, colour in found)  # type: ignore[arg-type]
        if len(colours) > MAX_COLOURS:
            break
    else:
        exact = Image.new("P", (1, 1))
        exact.putpalette([channel for colour in colours for channel in colour])
        return exact
    step = max(1, (len(frames) - 1) / (PALETTE_SAMPLES - 1))
    picks = sorted({min(len(frames) - 1, round(k * step)) for k in range(PALETTE_SAMPLES)})
    samples = [frames[k] for k in picks]
    size = (max(f.width for f in samples), sum(f.height for f in samples))
    sheet = Image.new("RGB", size, samples[0].getpixel((0, 0)))  # a colour the frames have
    top = 0
    for frame in samples:
        sheet.paste(frame, (0, top))
        top += frame.height
    half = (max(1, sheet.width // 2), max(1, sheet.height // 2))  # every other pixel: 4x faster
    return sheet.resize(half, Image.Resampling.NEAREST).quantize(
        MAX_COLOURS, method=Image.Quantize.MEDIANCUT
    )


def _padded(frames: list[Image.Image]) -> list[Image.Image]:
    """The frames at the largest width and height, each padded with its edges' commonest colour."""
    size = (max(f.width for f in frames), max(f.height for f in frames))
    out = []
    for frame in frames:
        if frame.size == size:
            out.append(frame)
            continue
        w, h = frame.size
        edges = frame.crop((w - 1, 0, w, h)).histogram()
        edges = [
            a + b for a, b in zip(edges, frame.crop((0, h - 1, w, h)).histogram(), strict=True)
        ]
        padded = Image.new("P", size, edges.index(max(edges)))
        padded.putpalette(frame.getpalette() or ())
        padded.paste(frame, (0, 0))
        out.append(padded)
    return out


def _scaled(frame: Image.Image, scale: float) -> Image.Image:
    """`frame` reduced by averaging (sharper and a third smaller as a GIF than Lanczos, whose
    ringing makes colours the palette lacks), mapped back to its own palette."""
    size = (max(1, round(frame.width * scale)), max(1, round(frame.height * scale)))
    smooth = frame.convert("RGB").resize(size, Image.Resampling.BOX)
    scaled = smooth.quantize(palette=frame, dither=Image.Dither.NONE)
    # The RGB copy turned a transparent index into a colour, which Pillow's GIF writer cannot
    # take for an index: the scaled frame marks the same index as the frame did.
    mark = frame.info.get("transparency")
    scaled.info.pop("transparency", None)
    if isinstance(mark, int):
        scaled.info["transparency"] = mark
    return scaled


def _free_index(frames: list[Image.Image]) -> int | None:
    """A palette index no frame uses, for Pillow to mark unchanged pixels with (its own search
    takes a histogram of every frame, a third of the encoding time); None when the palette has
    room past its end, which Pillow then takes, or when no candidate is free everywhere (Pillow
    then searches frame by frame)."""
    if len(frames[0].getpalette() or ()) < 3 * 256:
        return None
    ends = zip(frames[0].histogram(), frames[-1].histogram(), strict=True)
    unused = [k for k, (first, last) in enumerate(ends) if first == last == 0]
    marks = [bytes([k]) for k in unused[-FREE_CANDIDATES:]]
    for frame in frames[1:-1]:  # a byte search per frame: far cheaper than a histogram
        pixels = frame.tobytes()
        marks = [mark for mark in marks if mark not in pixels]
    return marks[-1][0] if marks else None


def _gif(frames: list[Image.Image], durations: list[int]) -> bytes:
    out = io.BytesIO()
    free = _free_index(frames)
    frames[0].save(
        out,
        "GIF",
        save_all=True,
        append_images=frames[1:],
        duration=durations,
        loop=0,
        optimize=True,  # unchanged pixels transparent: smaller runs for LZW
        disposal=1,  # each frame stays: the next draws only what changed over it
        **({} if free is None else {"transparency": free}),
    )
    return out.getvalue()
