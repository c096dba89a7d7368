"""The message that ends a rated game, word for word: each seat's rating before and after
with the change (two newcomers: 1000 → 1086 and 1000 → 954, as worked out by hand in
`tests/test_ratings_by_hand.py`), the Replay button, in English and in French; and a computer
level seated twice, rated once from its best placed seat."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from bot.records.finished import Result, ResultSeat
from bot.service import GameService
from bot.service import results as kept
from bot.store import Store
from engine.ratings import Rating
from tests.conftest import fixed_seeds
from tests.test_results import member, near_the_end, only_result, result_of
from tests.test_saved_moves import play_first_spot
from tests.test_service import CHANNEL, Clock, settings

BACKENDS = ("single",)


@pytest.fixture
async def service(store: Store) -> AsyncIterator[GameService]:
    made = GameService(store, settings(), clock=Clock(), seeds=fixed_seeds())
    yield made
    made.computer.close()


def changes(result: Result) -> str:
    """Seat order; the winner of two newcomers goes to 1086, the loser to 954."""
    shown = {1: "1000 → 1086 (+86)", 2: "1000 → 954 (-46)"}
    return ", ".join(f"{seat.name} {shown[seat.place]}" for seat in result.seats)


@pytest.mark.parametrize(
    ("lang", "said", "replay"),
    [("en", "Ratings: {}.", "▶ Replay"), ("fr", "Cotes : {}.", "▶ Revoir")],
)
async def test_the_final_message_gives_each_seats_rating_change_and_the_replay(
    service: GameService, store: Store, lang: str, said: str, replay: str
) -> None:
    assert (await service.command(member("ann"), f"lang {lang}")).ok
    reply = await play_first_spot(service, await near_the_end(service, ["ann", "bob"]))
    result = await only_result(store)
    [message] = reply.public
    assert message.text.endswith(" " + said.format(changes(result))), message.text
    assert message.text.count(said.split("{")[0]) == 1
    [[button]] = message.buttons
    assert (button.label, button.style) == (replay, "secondary")
    assert button.data == f"fc:rp:{CHANNEL}:0:{result.short}"
    assert message.image_name == "final.png" and message.image is not None


def level_twice(first: ResultSeat, second: ResultSeat) -> Result:
    ann = ResultSeat(seat="A", name="Ann", user_id="ann", score=30, place=1)
    return result_of([ann, first, second])


def test_a_level_seated_twice_is_rated_from_its_best_placed_seat_whatever_the_seat_order() -> None:
    better = ResultSeat(seat="B", name="easy", level="easy", score=20, place=2)
    worse = ResultSeat(seat="C", name="easy", level="easy", score=10, place=3)
    made, told = kept.updates(level_twice(worse, better), {})
    [level] = [u for u in made if u.key == "ai:easy"]
    assert level.player.best == 20 and level.player.games == 1 and level.player.wins == 0
    after = {change.seat: change.after for change in told}
    assert (level.player.mu, level.player.sigma) == (after["B"].mu, after["B"].sigma)
    assert "C" not in after  # the other seat played from the level's rating, and moved none
    same, _ = kept.updates(level_twice(better, worse), {})
    assert same == made
    # What the final message tells is what is kept: the level once, by the name the boards
    # give it, with the rating it now has.
    names = {"A": "Ann", "B": "Computer (easy) 2", "C": "Computer (easy)"}
    said = kept.change_lines(told, names, "en").split(", ")
    assert [part.split(" 1")[0] for part in said] == ["Ann", "Computer (easy)"]
    kept_now = Rating(level.player.mu, level.player.sigma).shown
    assert said[1] == f"Computer (easy) 1000 → {kept_now} ({kept_now - 1000:+d})"


async def test_the_final_messages_winner_is_mentioned_by_name(
    service: GameService, store: Store
) -> None:
    """A platform shows a mention with the name it is given (a Telegram text mention): the
    winner appears as "Ann", never as the bare user id."""
    reply = await play_first_spot(service, await near_the_end(service, ["ann", "bob"]))
    result = await only_result(store)
    [winner] = [seat for seat in result.seats if seat.place == 1]
    [message] = reply.public
    shown = message.format(lambda user, name: f"@{name}", lambda text: text)
    assert f"Winner: @{winner.name}." in shown, shown
    assert message.names == {"ann": "Ann", "bob": "Bob"}
