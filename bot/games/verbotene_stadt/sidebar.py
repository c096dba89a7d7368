"""Die Verbotene Stadt beside the page's board, as its picture's panel shows it: each seat's
name, points and cards, the mover; the dice last rolled with the open pavilion, the exile
terrace, the teams' totals (`render.verbotene_stadt.table` draws the same in the image)."""

from __future__ import annotations

from engine.verbotene_stadt.cards import best_grouping
from engine.verbotene_stadt.view import SeatView
from render.texts import count
from render.verbotene_stadt import texts as t
from render.verbotene_stadt.pieces import card_svg, die_svg, official_svg

from ...text.i18n import N_, tr
from .. import At
from ..sidebar import Fact, Piece, SeatRow, Sidebar
from . import words

FACES = {
    "black": N_("black: the turn ends"),
    "red": N_("red: one more move"),
    "dragon": N_("dragon: a card may be taken"),
    "pavilion": N_("pavilion: the blue die is rolled"),
}


def _card(at: At, card: str) -> Piece:
    label = words.card(at.lang, card)
    return Piece(card_svg(card, at.words(t.PIECE_LETTER[card[1]]), label), label)


def _official(at: At, code: str) -> Piece:
    label = words.official(at.lang, code)
    return Piece(official_svg(code, label), label)


def _dice(at: At, view: SeatView) -> tuple[Piece, ...]:
    shown = []
    if view.open_pavilion is not None:
        pavilion = words.pavilion(at.lang, view.open_pavilion)
        label = tr(at.lang, "Open pavilion: {pavilion}", pavilion=pavilion)
        shown.append(Piece(die_svg("blue", label, view.open_pavilion), label))
    for die, face in view.last_rolls:
        label = tr(
            at.lang,
            "{die} die: {face}",
            die=at.words(t.DIE_NAME[die]),
            face=tr(at.lang, FACES.get(face, face)),
        )
        shown.append(Piece(die_svg(face, label), label))
    return tuple(shown)


def sidebar(at: At, view: SeatView) -> Sidebar:
    rows = []
    for seat in view.players:
        name = at.name(seat)
        if view.teams:
            team = next(n for n, pair in enumerate(view.partnerships, 1) if seat in pair)
            name = at.words(t.TEAM_MEMBER).format(name=name, team=team)
        groups = best_grouping(view.hands.get(seat, [])).groups
        cards = tuple(_card(at, card) for group in groups for card in group)
        won = view.over and seat in view.winners
        rows.append(
            SeatRow(
                name=name,
                said=count(view.points.get(seat, 0), t.POINT, t.POINTS, at.words)
                + ("" if cards else " · " + at.words(t.NO_CARDS)),
                tag=tr(at.lang, "winner") if won else "",
                turn=view.mover == seat and not view.over,
                pieces=cards,
            )
        )
    facts = [
        Fact(at.words(t.DICE), "", _dice(at, view)),
        Fact(
            at.words(t.EXILE).format(n=len(view.exiled)),
            pieces=tuple(_official(at, code) for code in view.exiled),
        ),
    ]
    for team, (first, partner) in enumerate(view.partnerships if view.teams else [], 1):
        line = at.words(t.TEAM_TOTAL).format(
            team=team,
            a=at.name(first),
            b=at.name(partner),
            points=count(view.scores.get(first, 0), t.POINT, t.POINTS, at.words),
        )
        facts.append(Fact(line))
    # The picture's legend, in words: the page's board has the same roofs and squares.
    facts += [Fact(at.words(t.LEGEND_ROOF)), Fact(at.words(t.LEGEND_START))]
    return Sidebar(seats=tuple(rows), facts=tuple(facts))
