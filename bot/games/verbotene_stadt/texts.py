"""What the channel hears of Die Verbotene Stadt: every event in words, whose decision it is,
the score, the end, help and rules.

Events carry no secret (engine/verbotene_stadt/events.py): a bribe is told as a choice made,
never which official, until `BribesRevealed`. A kept bribe and a changed one read the same.
"""

from __future__ import annotations

from engine.verbotene_stadt import ActionResult, Game
from engine.verbotene_stadt.events import (
    Answered,
    BluffSettled,
    BribeSet,
    BribesRevealed,
    CardTaken,
    Event,
    FateRolled,
    FirstPlayerChosen,
    GameEnded,
    NothingTaken,
    OfficialExiled,
    OfficialMoved,
    PavilionOpened,
    TurnPassed,
)

from ...text.i18n import N_, tr
from .. import At
from . import words
from .words import official

ROLLS = {
    "small": N_("{who} rolls the small fate die"),
    "medium": N_("{who} rolls the medium fate die"),
    "large": N_("{who} rolls the large fate die"),
}


def describe(at: At, result: ActionResult) -> list[str]:
    """One action's events in sentences, in order."""
    lang = at.lang
    out: list[str] = []
    events = result.events
    mover = at.name(result.seat)
    for event in events:
        if isinstance(event, BribeSet):
            out.append(tr(lang, "{who} has made a secret choice.", who=at.name(event.seat)))
        elif isinstance(event, FirstPlayerChosen):
            out.append(_first(at, event))
        elif isinstance(event, PavilionOpened):
            out.append(
                tr(
                    lang,
                    "{who} rolls the blue die: {pavilion} is open.",
                    who=at.name(event.seat),
                    pavilion=words.pavilion(lang, event.pavilion),
                )
            )
        elif isinstance(event, OfficialMoved):
            mover = at.name(event.seat)
            out.append(_moved(at, event, _entered(events)))
        elif isinstance(event, FateRolled):
            out.append(_fate(at, event, mover))
        elif isinstance(event, TurnPassed):
            if event.reason == "pass":
                out.append(tr(lang, "{who} ends the turn.", who=at.name(event.seat)))
            elif event.reason == "four-moves":
                out.append(tr(lang, "That was {who}'s fourth move: the turn is over.", who=mover))
        elif isinstance(event, OfficialExiled):
            out.append(_exiled(at, event, result))
        elif isinstance(event, Answered):
            text = "{who} believes it." if event.believes else "{who} doubts it!"
            out.append(tr(lang, text, who=at.name(event.seat)))
        elif isinstance(event, BribesRevealed):
            shown = ", ".join(
                f"{at.name(seat)}: {official(lang, code) if code else '-'}"
                for seat, code in event.bribes.items()
            )
            out.append(tr(lang, "Bribes revealed: {bribes}.", bribes=shown))
        elif isinstance(event, BluffSettled):
            out.append(_settled(at, event, last=any(isinstance(e, GameEnded) for e in events)))
        elif isinstance(event, CardTaken):
            out.append(_taken(at, event))
        elif isinstance(event, NothingTaken):
            out.append(_nothing(at, event, passed=result.action == "pass"))
    return out


def _first(at: At, event: FirstPlayerChosen) -> str:
    """Every opening bribe is in: who rolled what, and who plays first."""
    rolls = ", ".join(
        tr(at.lang, "{who} black", who=at.name(seat))
        if face == "black"
        else tr(at.lang, "{who} red", who=at.name(seat))
        for seat, face in event.rolls
    )
    return tr(
        at.lang,
        "Every bribe is in. Who plays first? The large fate die, rolled in turn: {rolls}. "
        "{who} plays first.",
        rolls=rolls,
        who=at.mention(event.seat),
    )


def _entered(events: list[Event]) -> int | None:
    """The pavilion an entry in these events went into, if any."""
    return next((e.pavilion for e in events if isinstance(e, OfficialExiled)), None)


def _moved(at: At, event: OfficialMoved, pavilion: int | None) -> str:
    """A move as a reader can follow it: from where to where, in how many slides (the image
    draws the path)."""
    lang = at.lang
    values = {
        "who": at.name(event.seat),
        "official": official(lang, event.official),
        "start": f"{event.start[0]},{event.start[1]}",
    }
    n = len(event.slides)
    if event.end is None:
        values["pavilion"] = words.pavilion(lang, pavilion) if pavilion is not None else "-"
        if n == 1:
            return tr(
                lang,
                "{who} moves {official} from {start} in one slide to {pavilion}: into the open "
                "pavilion!",
                **values,
            )
        return tr(
            lang,
            "{who} moves {official} from {start} in {n} slides to {pavilion}: into the open "
            "pavilion!",
            n=n,
            **values,
        )
    values["end"] = f"{event.end[0]},{event.end[1]}"
    if n == 1:
        return tr(lang, "{who} moves {official} from {start} to {end} in one slide.", **values)
    return tr(lang, "{who} moves {official} from {start} to {end} in {n} slides.", n=n, **values)


def _fate(at: At, event: FateRolled, mover: str) -> str:
    lang = at.lang
    roll = tr(lang, ROLLS.get(event.die, ROLLS["small"]), who=at.name(event.seat))
    if event.face == "black":
        return tr(lang, "{roll}: black, {mover}'s turn is over.", roll=roll, mover=mover)
    if event.face == "dragon":
        return tr(
            lang,
            "{roll}: a dragon! {who} may take a card from another player, then {mover} moves "
            "again.",
            roll=roll,
            who=at.name(event.seat),
            mover=mover,
        )
    if event.face == "pavilion":
        return tr(
            lang,
            "{roll}: a pavilion! {mover} rolls the blue die and moves again.",
            roll=roll,
            mover=mover,
        )
    return tr(lang, "{roll}: red, {mover} may move again.", roll=roll, mover=mover)


def _exiled(at: At, event: OfficialExiled, result: ActionResult) -> str:
    lang = at.lang
    text = tr(
        lang,
        "{official} leaves the board for the exile terrace ({n} of 15).",
        official=official(lang, event.official),
        n=event.exiled,
    )
    if event.exiled == 10:
        text += " " + tr(
            lang, "Ten officials in exile: from now on an entry takes every card in the pavilion."
        )
    if not any(isinstance(e, BribesRevealed) for e in result.events):
        text += " " + tr(
            lang,
            "The bluff is in play: did {who} bribe {official}? The other players who hold a card "
            "answer in turn: believe or doubt.",
            who=at.name(result.seat),
            official=event.official,
        )
    return text


def _settled(at: At, event: BluffSettled, last: bool) -> str:
    lang = at.lang
    mover = at.name(event.mover)
    if event.doubter is None:
        if event.bluffed and last:
            return tr(lang, "{mover} bluffed and nobody doubted it.", mover=mover)
        if event.bluffed:
            return tr(
                lang,
                "{mover} bluffed and nobody doubted it: {mover} takes the card and plays again.",
                mover=mover,
            )
        return tr(lang, "{mover} told the truth, and everyone believed it.", mover=mover)
    doubter = at.name(event.doubter)
    if event.bluffed:
        return tr(
            lang,
            "{mover} bluffed and {doubter} caught it: {doubter} takes the card and one of "
            "{mover}'s cards.",
            mover=mover,
            doubter=doubter,
        )
    return tr(
        lang,
        "{mover} told the truth: {doubter} doubted wrongly, so {mover} takes the card and one "
        "of {doubter}'s cards.",
        mover=mover,
        doubter=doubter,
    )


def _taken(at: At, event: CardTaken) -> str:
    lang = at.lang
    values = {"who": at.name(event.seat), "card": words.card(lang, event.card)}
    if event.source is None:
        return tr(
            lang,
            "{who} takes {card} from {pavilion}.",
            pavilion=words.pavilion(lang, int(event.card[0])),
            **values,
        )
    source = at.name(event.source)
    if event.reason == "dragon":
        return tr(lang, "The dragon: {who} takes {card} from {source}.", source=source, **values)
    if event.reason == "empty":
        return tr(
            lang,
            "The pavilion is empty: {who} takes {card} from {source}.",
            source=source,
            **values,
        )
    return tr(lang, "{who} takes {card} from {source}.", source=source, **values)


def _nothing(at: At, event: NothingTaken, passed: bool) -> str:
    who = at.name(event.seat)
    if event.reason == "dragon":
        return tr(at.lang, "{who} takes no card for the dragon.", who=who)
    if event.reason == "empty" and passed:
        return tr(at.lang, "The pavilion is empty: {who} takes no card from the others.", who=who)
    if event.reason == "empty":
        return tr(at.lang, "The pavilion is empty and nobody holds a card of its colour.", who=who)
    return tr(at.lang, "{who} gets no card: there is none to take.", who=who)


def waiting_text(at: At, game: Game, mention: bool) -> str:
    """Who the game waits for, and for what."""
    turns = game.to_act
    if not turns:
        return ""
    name = at.mention if mention else at.name
    kind = turns[0].kind
    if kind in ("bribe", "rebribe"):
        who = ", ".join(at.name(t.seat) for t in turns)
        return tr(at.lang, "Waiting for the secret choices of {who}.", who=who)
    who = name(turns[0].seat)
    if kind == "move":
        return tr(at.lang, "{who} to move (move {n} of 4).", who=who, n=min(game.moves_made + 1, 4))
    if kind == "answer":
        return tr(at.lang, "{who}: believe it or doubt it?", who=who)
    return tr(at.lang, "{who} chooses a card to take.", who=who)


def scores_text(at: At, game: Game) -> str:
    points = game.points()
    out = "; ".join(
        tr(
            at.lang,
            "{who}: {points} pts ({cards})",
            points=points[seat],
            who=at.name(seat),
            cards=" ".join(hand) or "-",
        )
        for seat, hand in zip(game.players, game.hands, strict=True)
    )
    if game.teams:
        out += ". " + teams_text(at, game)
    return out


def teams_text(at: At, game: Game) -> str:
    scores = game.scores
    return "; ".join(
        tr(
            at.lang,
            "Team {a} & {b}: {points} points",
            a=at.name(a),
            b=at.name(b),
            points=scores[a],
        )
        for a, b in game.partnerships
    )


def status_text(at: At, game: Game, waited: str) -> str:
    lang = at.lang
    where = tr(lang, "{n} of 15 officials in exile.", n=len(game.exiled))
    if game.open:
        opened = tr(lang, "{pavilion} is open.", pavilion=words.pavilion(lang, game.open))
        where = f"{opened} {where}"
    waiting = waiting_text(at, game, False).rstrip(".")
    return f"{where} {scores_text(at, game)}. {waiting} ({waited})"


def final_text(at: At, game: Game, voted_end: bool) -> str:
    scores = game.scores
    best = max(scores.values())
    winners = ", ".join(at.mention(s) for s in game.players if scores[s] == best)
    if voted_end:
        return tr(
            at.lang,
            "The players voted to end the game. Points: {scores}. Winner: {winners}.",
            scores=scores_text(at, game),
            winners=winners,
        )
    return tr(
        at.lang,
        "Game over! {scores}. Winner: {winners}.",
        scores=scores_text(at, game),
        winners=winners,
    )


HELP = (
    N_("Commands of the sliding and bluffing game (type them after /fc):"),
    N_("new stadt [teams]: open a table here (teams: the 4-player team game)"),
    N_("start: begin (the creator); everyone then bribes an official in secret"),
    N_(
        "play RB N,E: move official RB north, then east (hat colour, robe colour: R Y B G K); "
        "play pass ends your turn after a first move"
    ),
    N_("play believe / play doubt: answer an entry when the bluff is in play"),
    N_("play bribe RB / play keep: choose your official in secret (in a private chat)"),
    N_("play take 2 5C: take card 5C from the second player in turn order"),
    N_("hand: your bribe, your cards and the table, privately"),
    N_("status (or score): points, the open pavilion, whose turn"),
)

RULES = (
    N_("Die Verbotene Stadt (Alex Randolph and Johann Rüttinger), in short:"),
    N_(
        "- Everyone secretly bribes one of the 25 officials. On your turn move any official: it "
        "slides until something stops it, and may turn at right angles as often as you like."
    ),
    N_(
        "- After each move the next player rolls a fate die: black ends your turn, red gives "
        "another move (up to four); a dragon lets the roller take a card from anyone, a "
        "pavilion rolls the blue die for a new open pavilion."
    ),
    N_(
        "- An official that enters the open pavilion goes into exile; whoever bribed it takes "
        "the top card (shared bribe: the one farthest from the mover in turn order). Then the "
        "mover bribes anew and the others may change."
    ),
    N_(
        "- Once you and another player hold cards, you may bluff: any official may enter, and "
        "the others are asked in turn whether they believe it. A believed bluff wins the card "
        "and another turn; caught, the doubter takes the card and one of yours; a wrong doubter "
        "gives you one of theirs."
    ),
    N_(
        "- An empty pavilion: take a card of its colour from another player. From 10 officials in "
        "exile an entry takes every card. The 15th exile ends the game."
    ),
    N_(
        "- Scoring: three cards of a colour 10, two of a colour 4, hat, coat and trousers of "
        "three colours 6, any other card 1. Most points wins; teams add their points."
    ),
)
