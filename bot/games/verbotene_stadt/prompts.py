"""What a seat is asked privately, in words: a bribe, a move, an answer, a card to take."""

from __future__ import annotations

from engine.verbotene_stadt import Game

from ...text.i18n import tr
from .. import At
from . import words


def ask(at: At, game: Game, seat: str, kind: str | None) -> str:
    """What the seat is asked, in words: the first lines of its private prompt."""
    lang = at.lang
    index = game.seat_index(seat)
    own = game.bribes[index]
    if kind == "bribe" and game.entered is None:
        return tr(
            lang,
            "Choose in secret the official you bribe: only you will know it. You may move "
            "any official, but only the one you bribe wins you a card when it enters the "
            "open pavilion.",
        )
    if kind == "bribe":
        if index == game.mover:
            return tr(
                lang,
                "An official entered the pavilion on your turn: choose in secret the official "
                "you bribe now (the same one, if it is still on the board).",
            )
        return tr(
            lang,
            "{official}, the official you bribed, is in exile: choose another in secret.",
            official=words.official(lang, own or "-") if own else "-",
        )
    if kind == "rebribe":
        return tr(
            lang,
            "An official entered the pavilion. You may keep your bribe, {official}, or "
            "choose another in secret.",
            official=words.official(lang, own) if own else "-",
        )
    if kind == "move":
        return _move_text(at, game, seat)
    if kind == "answer":
        return _answer_text(at, game)
    return _take_text(at, game)


def _move_text(at: At, game: Game, seat: str) -> str:
    lang = at.lang
    own = game.bribes[game.seat_index(seat)]
    if game.moves_made:
        text = tr(
            lang,
            "Another move (move {n} of 4): choose an official, or pass.",
            n=game.moves_made + 1,
        )
    else:
        text = tr(lang, "Your turn: choose an official to move, then its slides.")
    text += " " + tr(
        lang,
        "Your bribe: {official}. Open: {pavilion}.",
        official=words.official(lang, own) if own else "-",
        pavilion=words.pavilion(lang, game.open) if game.open else "-",
    )
    if game.bluff_in_play():
        text += " " + tr(lang, "The bluff is in play: any official may enter.")
    text += " " + tr(lang, "Or type /fc play RB N,E in the game's chat.")
    return text


def _answer_text(at: At, game: Game) -> str:
    lang = at.lang
    entry = game.entry
    mover = game.players[game.mover]
    official = entry.official if entry is not None else "-"
    pavilion = entry.pavilion if entry is not None else game.open or 0
    text = tr(
        lang,
        "{who} moved {official} into {pavilion}. Did {who} bribe {official}? If you doubt "
        "it and are right, you take the card and one of {who}'s cards; if you are wrong, "
        "{who} takes one of yours.",
        who=at.name(mover),
        official=words.official(lang, official) if entry else official,
        pavilion=words.pavilion(lang, pavilion) if pavilion else "-",
    )
    answers = _answers(at, game)
    if answers:
        text += " " + tr(lang, "Answers so far: {answers}.", answers=answers)
    return text


def _answers(at: At, game: Game) -> str:
    out = []
    for seat, action in reversed(game.log):
        if action not in ("believe", "doubt"):
            break
        word = tr(at.lang, "believes") if action == "believe" else tr(at.lang, "doubts")
        out.append(f"{at.name(seat)} {word}")
    return ", ".join(reversed(out))


def _take_text(at: At, game: Game) -> str:
    lang = at.lang
    take = game.takes[0] if game.takes else None
    reason = take.reason if take is not None else "dragon"
    mover = at.name(game.players[game.mover])
    if reason == "dragon":
        return tr(lang, "The dragon: you may take one card from another player, or none.")
    if reason == "penalty":
        return tr(lang, "You caught {who} bluffing: take one of their cards.", who=mover)
    if reason == "reward":
        doubter = at.name(game.players[take.sources[0]]) if take is not None else "-"
        return tr(lang, "{who} doubted you wrongly: take one of their cards.", who=doubter)
    if take is None or not take.optional:  # a game begun under the first edition's rules
        return tr(lang, "The pavilion is empty: take a card of its colour from another player.")
    if game.teams:
        return tr(
            lang, "The pavilion is empty: you may take a card of its colour from an opponent."
        )
    return tr(lang, "The pavilion is empty: you may take a card of its colour from another player.")
