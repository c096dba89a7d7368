"""The private messages that ask a seat to decide, with their buttons and menus.

Each button is of one of the game's kinds (`buttons`), made for the action count it may act at.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TypeVar

from engine.verbotene_stadt import Game, Take
from engine.verbotene_stadt.actions import Bribe
from render.verbotene_stadt.pieces import card_svg, official_svg
from render.verbotene_stadt.texts import PIECE_LETTER

from ...exchange.buttons import Codec
from ...exchange.replies import Button, Message
from ...text.i18n import tr
from .. import At
from . import words
from .buttons import ANSWER, BRIBE, KEEP, MOVE, OFFICIAL, OTHER, SLIDE, TAKE
from .paths import Path, first_slides, movable, next_slides

T = TypeVar("T")


def round_start(game: Game) -> int:
    """The count at which the bribes under way began: the actions since are all bribes."""
    n = len(game.log)
    while n and game.log[n - 1][1].split()[0] in ("bribe", "keep"):
        n -= 1
    return n


def kind_of(game: Game, seat: str) -> str | None:
    return next((t.kind for t in game.to_act if t.seat == seat), None)


def _data(at: At, codec: Codec[T], value: T) -> str:
    """A button of the codec's kind for this table, at its action count."""
    return codec.encode(at.channel_id, at.count, value)


def _pawn(button: Button, code: str) -> Button:
    """A choice of an official, with the official drawn for the page's tray."""
    return replace(button, drawing=official_svg(code, button.label))


def bribe_menu(at: At, game: Game, seat: str, text: str) -> Message:
    """Every official the seat may bribe (at most 25), and Keep when it may keep its own."""
    count = round_start(game)
    legal = game.legal_actions(seat)
    choices = [
        _pawn(Button(words.pawn(at.lang, code), BRIBE.encode(at.channel_id, count, code)), code)
        for code in (a.official for a in legal if isinstance(a, Bribe))
    ]
    buttons: list[list[Button]] = []
    own = game.bribes[game.seat_index(seat)]
    if kind_of(game, seat) == "rebribe" and own is not None:
        label = tr(at.lang, "Keep {official}", official=own)
        buttons = [[Button(label, BRIBE.encode(at.channel_id, count, KEEP), "success")]]
    return Message(
        text,
        choices=choices,
        choices_placeholder=tr(at.lang, "Choose the official you bribe"),
        buttons=buttons,
    )


def move_menu(at: At, game: Game, seat: str, text: str) -> Message:
    """The officials that can move, and Pass when the turn may end."""
    own = game.bribes[game.seat_index(seat)]
    choices = []
    for code in movable(game, seat):
        x, y = game.at[code]
        label = f"{words.pawn(at.lang, code)} {x},{y}"
        if code == own:
            label += " ★"
        choices.append(_pawn(Button(label, _data(at, OFFICIAL, code)), code))
    buttons: list[list[Button]] = []
    if any(str(a) == "pass" for a in game.legal_actions(seat)):
        buttons = [[Button(tr(at.lang, "Pass"), _data(at, ANSWER, "pass"), "danger")]]
    return Message(
        text,
        choices=choices,
        choices_placeholder=tr(at.lang, "Choose an official to move"),
        buttons=buttons,
    )


def slide_button(at: At, official: str, done: tuple[str, ...], way: str) -> Button:
    """One more slide, `way`, after the slides `done`: it shows the preview."""
    return Button(
        f"{words.ARROWS[way]} {tr(at.lang, words.DIRECTIONS[way])}",
        _data(at, SLIDE, (official, (*done, way))),
        "primary",
    )


def _slide_row(at: At, official: str, done: tuple[str, ...], directions: list[str]) -> list[Button]:
    return [slide_button(at, official, done, d) for d in directions]


def first_slide_message(at: At, game: Game, official: str) -> Message:
    x, y = game.at[official]
    directions = first_slides(game, official)
    text = tr(
        at.lang,
        "{official} stands on {x},{y}. Choose its first slide.",
        official=words.official(at.lang, official),
        x=x,
        y=y,
    )
    other = _other(at)
    rows = [_slide_row(at, official, (), directions), [other]]
    return Message(text, buttons=rows, keys={"Escape": other.data})


def _other(at: At) -> Button:
    """Second thoughts: back to every official that may move, before anything is played
    (Escape on the page, or the Mini App's back button)."""
    return Button(tr(at.lang, "Another official"), _data(at, OTHER, "0"))


def preview_message(at: At, game: Game, seat: str, path: Path, image: bytes) -> Message:
    """The path so far on the seat's own picture, the slides that may follow, Confirm."""
    lang = at.lang
    name = words.official(lang, path.official)
    if path.entered:
        where = tr(lang, "{official} enters {pavilion}.", official=name, pavilion=_open(at, game))
        if game.bribes[game.seat_index(seat)] != path.official:
            where += " " + tr(lang, "You did not bribe this official: a bluff.")
    else:
        x, y = path.trail[-1]
        where = tr(lang, "{official} stops on {x},{y}.", official=name, x=x, y=y)
    if path.home:
        where += " " + tr(lang, "A move may not end where it began: slide on, or start again.")
    text = tr(
        lang,
        "Preview, not played yet: {slides}. {where}",
        slides=words.slides(path.slides),
        where=where,
    )
    rows = []
    following = next_slides(game, path)
    if following:
        rows.append(_slide_row(at, path.official, path.slides, following))
    last = []
    if not path.home:
        last.append(
            Button(
                tr(lang, "Confirm"),
                _data(at, MOVE, (path.official, path.slides)),
                "success",
            )
        )
    last.append(Button(tr(lang, "Start again"), _data(at, OFFICIAL, path.official)))
    other = _other(at)
    last.append(other)
    rows.append(last)
    message = Message(text, image=image, image_name="preview.png", buttons=rows)
    message.keys["Escape"] = other.data  # and the Mini App's back button
    return message


def _open(at: At, game: Game) -> str:
    return words.pavilion(at.lang, game.open) if game.open else "-"


def answer_buttons(at: At, game: Game, seat: str) -> list[list[Button]]:
    legal = {str(a) for a in game.legal_actions(seat)}
    row = [Button(tr(at.lang, "Believe"), _data(at, ANSWER, "believe"), "success")]
    if "doubt" in legal:
        row.append(Button(tr(at.lang, "Doubt"), _data(at, ANSWER, "doubt"), "danger"))
    return [row]


def take_menu(at: At, game: Game, seat: str, text: str) -> Message:
    """The cards the seat may take, and Pass when it may let them be."""
    choices = []
    passing = False
    for action in game.legal_actions(seat):
        if isinstance(action, Take):
            owner = at.name(game.players[action.seat - 1])
            label = f"{owner}: {words.card(at.lang, action.card)}"
            data = _data(at, TAKE, (action.seat, action.card))
            letter = at.words(PIECE_LETTER[action.card[1]])
            choices.append(Button(label, data, drawing=card_svg(action.card, letter, label)))
        else:
            passing = True
    buttons: list[list[Button]] = []
    if passing:
        buttons = [[Button(tr(at.lang, "Take nothing"), _data(at, ANSWER, "pass"))]]
    return Message(
        text,
        choices=choices,
        choices_placeholder=tr(at.lang, "Choose a card to take"),
        buttons=buttons,
    )
