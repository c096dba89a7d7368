"""The chat's `/fc top` and `/fc stats` answers are what they were before the web pages took
their own shape from the same `Standings`: word for word (as written down from the bot before
the change), with the picture drawn from the board's rows and attached as before; and the
`Standings` the pages get say the same as the chat."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from bot.exchange.actor import Actor
from bot.games import module
from bot.service import GameService, Standings
from bot.service import standings as service_standings
from bot.store import Store
from render.leaderboard import Row, leaderboard_png
from tests.conftest import fixed_seeds
from tests.test_service import Clock
from tests.test_standings_answers import (
    EVERYONE,
    FC,
    FC_KEYS,
    best_first,
    name_of,
    place,
    played,
    rating,
    standing,
)
from tests.test_web_seats import settings

BACKENDS = ("single",)
NOTE = "A rating is a cautious estimate of skill; the ± shrinks as more games are played."
TOP = (
    "Forbidden City: best players here\n"
    "1. Ann 1181 ± 192 (3 games, 2 wins)\n"
    "2. Cat 1084 ± 205 (1 game, 1 win)\n"
    "3. Bob 1000 ± 195 (2 games, 0 wins)\n"
    "4. Fay 937 ± 201 (1 game, 0 wins)\n"
    "5. Computer (easy) 926 ± 201 (1 game, 0 wins)\n"
    f"{NOTE}\n"
    "On the web: https://fc.example/top/forbidden_city/console/guild1"
)
STATS = (
    "Ann: ratings\n"
    "Forbidden City: rating 1181 (± 192), place 1 of 7; 3 games, 2 wins; best score 30. "
    "Most played against: Bob (2), Computer (easy) (1), Cat (1).\n"
    "Die Verbotene Stadt: rating 1086 (± 202), place 1 of 2; 1 game, 1 win; best score 12. "
    "Most played against: Dan (1).\n"
    f"{NOTE}\n"
    "On the web: https://fc.example/p/console/ann"
)


@pytest.fixture
async def service(store: Store) -> AsyncIterator[GameService]:
    made = GameService(store, settings(), clock=Clock(), seeds=fixed_seeds())
    yield made
    made.computer.close()


def _member(user: str) -> Actor:
    return Actor("console", "room1", user, user.capitalize(), community="guild1")


async def test_top_in_the_chat_is_unchanged_its_words_and_its_picture(
    service: GameService, store: Store
) -> None:
    await played(service)
    reply = await service.command(_member("ann"), "top")
    [message] = reply.public
    assert message.text == TOP
    assert message.image_name == "top.png"
    here = await standing(store, FC, FC_KEYS)
    rows = [
        Row(
            place(key, here),
            name_of(key),
            rating(here[key]).shown,
            rating(here[key]).uncertainty,
            here[key].games,
            here[key].wins,
            here[key].trend,
        )
        for key in best_first(here)
    ]
    # The chat's own picture, 900 px wide, as `leaderboard_png` draws the board at scale 1.
    assert message.image == leaderboard_png("Forbidden City: best players here", rows)
    assert message.image[:8] == b"\x89PNG\r\n\x1a\n"
    assert int.from_bytes(message.image[16:20]) == 900
    # The page's board says the same: its rows are the picture's, its lines the text's.
    board = await service.leaderboard(FC, "console:guild1", "en")
    assert isinstance(board, Standings)
    assert list(board.rows) == rows
    assert "\n".join(board.lines) == TOP.rsplit("\n", 1)[0]
    assert board.note == NOTE and not board.per_game and board.subtitle == ""


async def test_stats_in_the_chat_is_unchanged_and_the_page_gets_its_details(
    service: GameService, store: Store
) -> None:
    await played(service)
    [message] = (await service.command(_member("ann"), "stats")).public
    assert message.text == STATS
    assert message.image_name == "stats.png"
    shown = await service.standing("console:ann", "en")
    assert shown is not None and shown.per_game
    fc = await standing(store, FC, EVERYONE)
    assert shown.rows[0] == Row(
        place("console:ann", fc),
        "Forbidden City",
        rating(fc["console:ann"]).shown,
        rating(fc["console:ann"]).uncertainty,
        3,
        2,
        fc["console:ann"].trend,
    )
    subtitle = "The place is on the board of all players."
    drawn = leaderboard_png("Ann: ratings", shown.rows, subtitle=subtitle, per_game=True)
    assert message.image == drawn  # the page's rows are the picture's
    assert shown.details == (
        "Forbidden City: place 1 of 7, best score 30. "
        "Most played against: Bob (2), Computer (easy) (1), Cat (1).",
        "Die Verbotene Stadt: place 1 of 2, best score 12. Most played against: Dan (1).",
    )
    assert shown.headings == ("Rank", "Game", "Rating", "Games", "Wins", "Trend")


async def test_a_board_nobody_is_on_says_so_without_a_picture(service: GameService) -> None:
    [message] = (await service.command(_member("ann"), "top")).public
    assert message.text.split("\n")[0] == "Forbidden City: best players here: no rated games yet."
    assert message.image is None
    board = await service_standings.board(service.ctx, module(FC), "console:guild1", "en")
    assert board.rows == () and board.note == ""
    assert await service.leaderboard("chess", None, "en") is None
    assert await service.standing("console:nobody", "en") is None
