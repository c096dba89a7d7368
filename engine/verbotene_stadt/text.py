"""Plain-text lines for what happened: the `play` command's transcript of a game."""

from __future__ import annotations

import random

from .events import (
    ActionResult,
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
    TurnStarted,
)
from .game import Game
from .players import POLICIES


def describe(event: Event) -> str:
    """One line for an event, secrets left out as the events leave them out."""
    if isinstance(event, BribeSet):
        return f"{event.seat} {'keeps the bribe' if event.kept else 'bribes an official'}"
    if isinstance(event, FirstPlayerChosen):
        rolls = ", ".join(f"{seat} {face}" for seat, face in event.rolls)
        return f"the large fate die, rolled in turn: {rolls}; {event.seat} plays first"
    if isinstance(event, PavilionOpened):
        return f"{event.seat} rolls the blue die: pavilion {event.pavilion} is open"
    if isinstance(event, TurnStarted):
        return f"-- {event.seat}'s turn" + (" again (a believed bluff)" if event.again else "")
    if isinstance(event, OfficialMoved):
        where = "into the pavilion" if event.end is None else f"to {event.end[0]},{event.end[1]}"
        start = f"{event.start[0]},{event.start[1]}"
        return f"{event.seat} moves {event.official} {','.join(event.slides)} from {start} {where}"
    if isinstance(event, FateRolled):
        return f"{event.seat} rolls the {event.die} fate die: {event.face}"
    if isinstance(event, TurnPassed):
        return f"{event.seat}'s turn ends ({event.reason})"
    if isinstance(event, Answered):
        return f"{event.seat} {'believes' if event.believes else 'doubts'}"
    if isinstance(event, BribesRevealed):
        shown = ", ".join(f"{s} {b or '-'}" for s, b in event.bribes.items())
        return f"bribes revealed: {shown}"
    if isinstance(event, BluffSettled):
        told = "bluffed" if event.bluffed else "told the truth"
        caught = f", {event.doubter} doubted" if event.doubter else ", believed"
        return f"{event.mover} {told}{caught}"
    if isinstance(event, CardTaken):
        source = f"from {event.source}" if event.source else "from the pavilion"
        return f"{event.seat} takes {event.card} {source} ({event.reason})"
    if isinstance(event, NothingTaken):
        return f"{event.seat} takes nothing ({event.reason})"
    if isinstance(event, OfficialExiled):
        return f"{event.official} goes to the exile terrace ({event.exiled} of 15)"
    assert isinstance(event, GameEnded)
    points = ", ".join(f"{s} {n}" for s, n in event.scores.items())
    return f"game over: {points}; winners: {', '.join(event.winners)}"


def transcript(players: int, seed: int, policy: str = "simple", teams: bool = False) -> list[str]:
    """A whole game between simple players, told event by event, then each seat's cards."""
    rng = random.Random(seed)
    game = Game(players, seed=seed, teams=teams)
    choose = POLICIES[policy]
    lines = [f"Die Verbotene Stadt: {', '.join(game.players)}, seed {seed}, {policy} players"]
    while not game.is_over:
        seat = game.to_act[0].seat
        result: ActionResult = game.play(seat, choose(game, seat, rng))
        lines.extend(describe(e) for e in result.events)
    for seat, hand in zip(game.players, game.hands, strict=True):
        lines.append(f"{seat}: {' '.join(hand) or '-'} = {game.points()[seat]} points")
    return lines
