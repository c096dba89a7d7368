"""Die Verbotene Stadt's small pieces as SVG, for the web page beside its board: a card, a
die as rolled, an official alone. Each is the table image's own piece (`art.card`,
`art.die`, `art.pawn`: one description, which Pillow paints and these write), a document of
its own with its words for screen readers; every text is escaped here."""

from __future__ import annotations

from html import escape

from .. import shapes, shapes_svg
from . import art
from .panel import CARD_H, CARD_W
from .svg import PIXEL, pawn

DIE = 30  # as the image's dice


def _document(width: float, height: float, label: str, body: str, seal: bool = False) -> str:
    defs = f"<defs>{shapes_svg.glyphs()}</defs>" if seal else ""  # the seal needs no CJK font
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width:g} {height:g}" '
        f'role="img" aria-label="{escape(label)}"><title>{escape(label)}</title>{defs}'
        f"{body}</svg>"
    )


def _drawn(pieces: list[shapes.Shape]) -> str:
    return shapes_svg.shifted(PIXEL) + shapes_svg.svg(pieces, PIXEL) + "</g>"


def card_svg(card: str, letter: str, label: str) -> str:
    """Card `card` ("3H"): its pavilion's cloth, the piece's letter (`letter`, translated)
    over the pavilion's number."""
    return _document(CARD_W + 2, CARD_H + 2, label, _drawn(art.card((1, 1), card, letter)))


def die_svg(face: str, label: str, number: int | None = None) -> str:
    """A die as rolled: the blue die shows its number, a fate die its face's colour and
    symbol."""
    drawn = _drawn(art.die((1, 1), face, number))
    return _document(DIE + 3, DIE + 3, label, drawn, seal=face == "dragon" and number is None)


def official_svg(code: str, label: str) -> str:
    """An official alone, as the board draws it (an exiled one, a bribe)."""
    return _document(36, 40, label, pawn(code, 18, 22))
