"""Games of Forbidden City through the deployed processes, played as Telegram players play:
commands typed in a group, each checked as the players see it. Two people and a computer
player sit at the table; every move must show its image in the group, the person who must act
gets a private message, a turn left waiting gets its reminders (once each, on time), and no
command goes unanswered or is answered with an error.

The store is read directly (from the host) only to choose legal moves and to know whose turn
it is, as the other Telegram tests do.
"""

from __future__ import annotations

import asyncio
import itertools
import random
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from functools import partial
from typing import Any

import render.forbidden_city as render
from bot.records.finished import Result
from bot.records.table import Table
from bot.store import CLAIM_LEASE, Channel, Store, StoreUnavailable
from tests.fake_telegram import Call, FakeBotApi, TgUser
from tests.tables import load_game
from tests.views import to_play

from .telegram import Webhooks

__all__ = ["ANN", "BEN", "GROUP", "Players", "Tally"]

GROUP = -100_8100
ANN = TgUser(7401, "Ann")
BEN = TgUser(7402, "Ben")
PEOPLE = {str(person.id): person for person in (ANN, BEN)}
ANSWER_WITHIN = 30.0  # a command nobody answered in this long is typed again, and counted
TRY_AGAIN = "try again"  # the storage's "unavailable, try again in a moment" (English)
# "It is {who}'s turn, not yours.": these players type only in turn, so an update handled twice.
NOT_YOURS = "not yours"


@dataclass
class Tally:
    """What the players saw, over every game played."""

    games: int = 0
    moves_played: int = 0  # moves the table took, people's and the computer's
    moves_lost: int = 0  # moves the table took that its kept result lacks
    images_missing: int = 0  # moves after which no new image of the table reached the group
    private_missing: int = 0  # people's turns that brought their player no private message
    deadlines_missed: int = 0  # a computer's move or a reminder that did not come in time
    deadlines_twice: int = 0  # a reminder that came twice
    unanswered: int = 0  # commands no answer came to: the person had to type them again
    try_again: int = 0  # answers saying the storage was unavailable
    refused: int = 0  # moves refused as out of turn: an update handled a second time
    slowest_answer_s: float = 0.0  # the longest a person waited for a command's effect
    slowest_computer_s: float = 0.0  # the longest a computer's move took to come
    reminders: list[tuple[int, float]] = field(default_factory=list)  # (user, when)

    def figures(self) -> dict[str, int | float]:
        """The counts, as the deploy test's JSON line gives them."""
        return {
            "moves_played": self.moves_played,
            "moves_lost": self.moves_lost,
            "images_missing": self.images_missing,
            "private_missing": self.private_missing,
            "deadlines_missed": self.deadlines_missed,
            "deadlines_twice": self.deadlines_twice,
            "reminders": len(self.reminders),
            "unanswered": self.unanswered,
            "try_again": self.try_again,
            "refused": self.refused,
            "slowest_answer_s": round(self.slowest_answer_s, 1),
            "slowest_computer_s": round(self.slowest_computer_s, 1),
        }


class Players:
    """Ann and Ben in one group, playing through the webhooks."""

    def __init__(
        self, api: FakeBotApi, webhooks: Webhooks, store: Store, reminder_after: float
    ) -> None:
        self.api, self.webhooks, self.store = api, webhooks, store
        self.reminder_after = reminder_after
        self.channel = Channel.of("telegram", str(GROUP))
        self.rng = random.Random(2026)
        self.tally = Tally()
        # When the last move was typed: the messages of the turn after it come later.
        self.turn_began = time.monotonic()

    # ------------------------------------------------------------------ what is seen
    def _group(self) -> list[Call]:
        return self.api.sent(GROUP)

    def _photos(self) -> int:
        return sum(1 for call in self._group() if call.photo is not None)

    def _more_photos_than(self, photos: int) -> bool:
        return self._photos() > photos

    def _private(self, person: TgUser, since: float) -> list[Call]:
        return [c for c in self.api.sent(person.id) if c.at >= since]

    def _is_reminder(self, call: Call) -> bool:
        return "reminder" in call.visible.lower()

    async def _table(self) -> Table | None:
        """The stored table; through a failover the store may say "try again", as to a bot."""
        deadline = time.monotonic() + 120
        while True:
            try:
                record = await self.store.load(self.channel)
            except StoreUnavailable:
                if time.monotonic() > deadline:
                    raise
                await asyncio.sleep(0.5)
                continue
            return None if record is None else Table.model_validate_json(record.data)

    # ------------------------------------------------------------------ typing
    async def say(self, person: TgUser, text: str, answered: Callable[[], Awaitable[bool]]) -> None:
        """Type `text` in the group until `answered` holds; what a person sees on the way (no
        answer, or "try again") is counted."""
        typed = time.monotonic()
        while True:
            seen = len(self._group())
            await self.webhooks.deliver(self.api.command(GROUP, person, text))
            deadline = time.monotonic() + ANSWER_WITHIN
            while time.monotonic() < deadline:
                if await answered():
                    waited = time.monotonic() - typed
                    self.tally.slowest_answer_s = max(self.tally.slowest_answer_s, waited)
                    return
                answers = self._group()[seen:]
                if any(TRY_AGAIN in call.visible for call in answers):
                    self.tally.try_again += 1
                    break
                await asyncio.sleep(0.1)
            else:
                self.tally.unanswered += 1
            await asyncio.sleep(1.0)  # a person reads the answer, then types again

    async def open(self) -> None:
        """Ann opens the table, Ben joins, a computer player sits, Ann starts."""

        async def lobby(seats: int) -> bool:
            table = await self._table()
            return table is not None and len(table.seats) >= seats

        async def started() -> bool:
            table = await self._table()
            return table is not None and table.game is not None

        await self.say(ANN, "/fc new", lambda: lobby(1))
        await self.say(BEN, "/fc join", lambda: lobby(2))
        await self.say(ANN, "/fc addbot easy", lambda: lobby(3))
        self.turn_began = time.monotonic()
        await self.say(ANN, "/fc start", started)

    # ------------------------------------------------------------------ a game
    async def play_game(self, before_turn: Callable[[Players, TgUser], Awaitable[None]]) -> None:
        """One whole game; `before_turn` runs before each person's move (the operator's
        moment to kill, restart, or wait for reminders)."""
        await self.open()
        photos = self._photos()
        highest = 0
        while (table := await self._table()) is not None:
            assert table.game is not None
            moves = _moves(table)
            highest = max(highest, moves)
            seat = table.user_of(load_game(table).current)
            if seat.computer:
                await self._computer_moves(moves)
            else:
                person = PEOPLE[seat.user_id]
                if not await self._until(partial(self._private, person, self.turn_began)):
                    self.tally.private_missing += 1
                await before_turn(self, person)
                await self._person_moves(person, table, moves)
            if not await self._until(partial(self._more_photos_than, photos)):
                self.tally.images_missing += 1
            photos = self._photos()
        await self._kept(highest)

    async def _moved_on(self, moves: int) -> bool:
        table = await self._table()
        return table is None or _moves(table) > moves

    async def _person_moves(self, person: TgUser, table: Table, moves: int) -> None:
        spot = self.rng.choice(render.spots(to_play(load_game(table))))
        move = f"/fc play {spot.x},{spot.y} {self.rng.choice(spot.rotations)}"
        self.turn_began = time.monotonic()  # the next turn's messages all come after this
        await self.say(person, move, lambda: self._moved_on(moves))
        self.tally.moves_played += 1

    async def _computer_moves(self, moves: int) -> None:
        """A computer's turn is a deadline: due after BOT_PAUSE, taken over within a lease."""
        within = CLAIM_LEASE + 60
        began = time.monotonic()
        while not await self._moved_on(moves):
            if time.monotonic() - began > within:
                self.tally.deadlines_missed += 1
                raise TimeoutError(f"the computer player did not move in {within:.0f} s")
            await asyncio.sleep(0.1)
        waited = time.monotonic() - began
        self.tally.slowest_computer_s = max(self.tally.slowest_computer_s, waited)
        self.tally.moves_played += 1

    async def _kept(self, highest: int) -> None:
        """The ended game's kept result holds every move the table took."""
        refs = await self.store.channel_results(self.channel, 1)
        assert refs, "the ended game was not kept"
        text = await self.store.result(refs[0])
        assert text is not None
        result = Result.model_validate_json(text)
        self.tally.moves_lost += max(0, highest + 1 - result.moves)
        self.tally.games += 1

    async def _until(self, check: Callable[[], object], timeout: float = 20.0) -> bool:
        deadline = time.monotonic() + timeout
        while not check():
            if time.monotonic() > deadline:
                return False
            await asyncio.sleep(0.1)
        return True

    # ------------------------------------------------------------------ reminders
    async def wait_for_reminders(self, person: TgUser, count: int) -> None:
        """Leave the turn waiting for `count` reminders: each is due `REMINDER_AFTER` after
        the last, and a process that dies holding one hands it over within a lease."""
        began = self.turn_began
        for number in range(1, count + 1):
            due = began + number * self.reminder_after + CLAIM_LEASE + 15
            if not await self._until(
                lambda n=number: len(self._reminders(person, began)) >= n,  # type: ignore[misc]
                timeout=max(0.0, due - time.monotonic()),
            ):
                self.tally.deadlines_missed += 1
                return

    def _reminders(self, person: TgUser, since: float) -> list[Call]:
        return [c for c in self._private(person, since) if self._is_reminder(c)]

    def finish(self) -> Tally:
        """Counts the reminders that came twice (closer together than half the interval) and
        the moves refused as out of turn."""
        self.tally.refused = sum(1 for call in self._group() if NOT_YOURS in call.visible)
        for person in PEOPLE.values():
            times = sorted(c.at for c in self._reminders(person, 0.0))
            self.tally.reminders += [(person.id, at) for at in times]
            self.tally.deadlines_twice += sum(
                1 for a, b in itertools.pairwise(times) if b - a < self.reminder_after / 2
            )
        return self.tally


def _moves(table: Table) -> int:
    game: Any = table.game
    return len(game["moves"])
