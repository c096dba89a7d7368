"""What the web page shows beside the board, as the chat's picture shows it in its header
and panel: each seat (its marker, name, score, whose turn) and the table's facts (dice, the
exile terrace). The words are the game's, in the table's language; a piece is a small SVG
drawing from the game's art with its words for screen readers. Game-neutral: each game
fills it from a view (`GameModule.sidebar`), the page lays it out."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Piece:
    drawing: str  # an SVG document, made by the game's art
    label: str  # what it shows, for screen readers


@dataclass(frozen=True, slots=True)
class SeatRow:
    name: str
    said: str  # its score and what it has left ("12 coins · 5 tiles left")
    mark: Piece | None = None  # its colour and marker, as the board draws them
    tag: str = ""  # "to play", "winner"
    turn: bool = False  # the seat the table waits for
    pieces: tuple[Piece, ...] = ()  # what lies face up before it (cards)


@dataclass(frozen=True, slots=True)
class Fact:
    label: str
    text: str = ""
    pieces: tuple[Piece, ...] = ()


@dataclass(frozen=True, slots=True)
class Sidebar:
    seats: tuple[SeatRow, ...] = ()
    facts: tuple[Fact, ...] = ()
