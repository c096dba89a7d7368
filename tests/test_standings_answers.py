"""`/fc stats` and `/fc top` word for word, in English and in French, with the pictures that
go with them: every line, the order of the rows, the places, the counts in the right plural,
the favourite opponents, computer levels by name, and players without a standing. The
ratings are made by rating kept results against a real redis-server."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from bot.exchange.actor import Actor
from bot.records.finished import Result, ResultSeat
from bot.service import GameService
from bot.service import results as kept
from bot.store import Player, Store, Update
from bot.store.ratings import PREFIX
from bot.text.i18n import translations
from engine.ratings import Rating
from render.leaderboard import Row, leaderboard_png
from tests.conftest import fixed_seeds
from tests.test_results import member
from tests.test_service import CHANNEL, Clock, settings

BACKENDS = ("single",)
FC, VS = "forbidden_city", "verbotene_stadt"
NOTE = "A rating is a cautious estimate of skill; the ± shrinks as more games are played."
NOTE_FR = (
    "Une cote est une estimation prudente du niveau ; le ± diminue à mesure que les "
    "parties se jouent."
)


@pytest.fixture
async def service(store: Store) -> AsyncIterator[GameService]:
    made = GameService(store, settings(), clock=Clock(), seeds=fixed_seeds())
    yield made
    made.computer.close()


def seat(user: str, place: int, score: int, level: str | None = None) -> ResultSeat:
    return ResultSeat(
        seat=user.upper(),
        name=user.capitalize(),
        user_id=None if level else user,
        level=level,
        score=score,
        place=place,
    )


def game(number: int, kind: str, seats: list[ResultSeat], community: str = "guild1") -> Result:
    return Result(
        id=f"{number:08x}" + "0" * 24,
        kind=kind,
        ended=1_000.0 + number,
        platform="console",
        channel="room1",
        community=community,
        moves=56,
        seats=seats,
        record={},
    )


async def played(service: GameService) -> None:
    """Four games in guild1 (three of Forbidden City, one of Die Verbotene Stadt) and one
    in guild2. Ann: 3 games, 2 wins, best 30, against Bob twice and Cat, Fay and the easy
    computer once each; Dan played only Die Verbotene Stadt."""
    for result in (
        game(1, FC, [seat("ann", 1, 30), seat("bob", 2, 20)]),
        game(2, FC, [seat("cat", 1, 40), seat("ann", 2, 10), seat("fay", 3, 5)]),
        game(3, FC, [seat("ann", 1, 25), seat("bob", 2, 5), seat("easy", 3, 1, "easy")]),
        game(4, VS, [seat("ann", 1, 12), seat("dan", 2, 8)]),
        game(5, FC, [seat("gus", 1, 50), seat("hal", 2, 0)], community="guild2"),
    ):
        assert await kept.apply(service.ctx, result)


async def standing(store: Store, kind: str, keys: list[str]) -> dict[str, Player]:
    found = await store.players(kind, keys)
    assert sorted(found) == sorted(keys)
    return found


def rating(player: Player) -> Rating:
    return Rating(player.mu, player.sigma)


def place(key: str, board: dict[str, Player]) -> int:
    """One more than the players rated strictly higher."""
    mine = rating(board[key]).ordinal
    return 1 + sum(rating(p).ordinal > mine for p in board.values())


def counted(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


FC_KEYS = ["console:ann", "console:bob", "console:cat", "console:fay", "ai:easy"]
EVERYONE = [*FC_KEYS, "console:gus", "console:hal"]  # the board `stats` places on
NAMES = {"ai:easy": "Computer (easy)"}


def name_of(key: str) -> str:
    return NAMES.get(key) or key.removeprefix("console:").capitalize()


async def test_stats_say_each_games_rating_place_counts_best_score_and_opponents(
    service: GameService, store: Store
) -> None:
    await played(service)
    fc = await standing(store, FC, EVERYONE)
    vs = await standing(store, VS, ["console:ann", "console:dan"])
    annie = Actor("console", CHANNEL, "ann", "Annie", community="guild1")  # renamed since
    ann_fc, ann_vs = rating(fc["console:ann"]), rating(vs["console:ann"])
    fc_line = (
        f"Forbidden City: rating {ann_fc.shown} (± {ann_fc.uncertainty}), place "
        f"{place('console:ann', fc)} of 7; 3 games, 2 wins; best score 30. Most played "
        "against: Bob (2), Computer (easy) (1), Cat (1)."
    )
    vs_line = (
        f"Die Verbotene Stadt: rating {ann_vs.shown} (± {ann_vs.uncertainty}), place 1 of 2; "
        "1 game, 1 win; best score 12. Most played against: Dan (1)."
    )
    own = (await service.command(annie, "stats")).public[0]
    assert own.text == "\n".join(["Annie: ratings", fc_line, vs_line, NOTE])
    assert own.image_name == "stats.png"
    # Asked by someone else, the heading is the name the player last played under.
    theirs = (await service.command(member("bob"), "stats <@ann>")).public[0]
    assert theirs.text == "\n".join(["Ann: ratings", fc_line, vs_line, NOTE])
    rows = [
        Row(
            place("console:ann", fc),
            "Forbidden City",
            ann_fc.shown,
            ann_fc.uncertainty,
            3,
            2,
            fc["console:ann"].trend,
        ),
        Row(1, "Die Verbotene Stadt", ann_vs.shown, ann_vs.uncertainty, 1, 1, (ann_vs.shown,)),
    ]
    subtitle = "The place is on the board of all players."
    assert own.image == leaderboard_png("Annie: ratings", rows, subtitle=subtitle, per_game=True)
    bob = rating(fc["console:bob"])
    assert (await service.command(member("bob"), "stats")).public[0].text == "\n".join(
        [
            "Bob: ratings",
            f"Forbidden City: rating {bob.shown} (± {bob.uncertainty}), place "
            f"{place('console:bob', fc)} of 7; 2 games, 0 wins; best score 20. Most played "
            "against: Ann (2), Computer (easy) (1).",
            NOTE,
        ]
    )


async def test_stats_of_a_player_of_the_other_game_only_give_that_game(
    service: GameService, store: Store
) -> None:
    await played(service)
    dan = rating((await standing(store, VS, ["console:dan"]))["console:dan"])
    text = (await service.command(member("dan"), "stats")).public[0].text
    assert text == "\n".join(
        [
            "Dan: ratings",
            f"Die Verbotene Stadt: rating {dan.shown} (± {dan.uncertainty}), place 2 of 2; "
            "1 game, 0 wins; best score 8. Most played against: Ann (1).",
            NOTE,
        ]
    )


async def test_stats_without_a_rated_game_say_so_with_the_name(
    service: GameService, store: Store
) -> None:
    await played(service)
    own = (await service.command(member("eve"), "stats")).public[0]
    assert own.text == "No rated games yet for Eve." and own.image is None
    other = (await service.command(member("eve"), "stats <@zed>")).public[0]
    assert other.text == "No rated games yet for this player."
    refused = await service.command(member("eve"), "stats zed")
    assert not refused.ok and refused.private[0].text == (
        "Name the player by mentioning them (or answer one of their messages with the command)."
    )


async def test_an_opponent_without_a_standing_is_anonymous_in_stats(
    service: GameService, store: Store
) -> None:
    await played(service)
    await store.client.hdel(f"{PREFIX}:rating:{FC}", "console:fay")  # Fay's standing is gone
    text = (await service.command(member("cat"), "stats")).public[0].text
    assert "Most played against: Ann (1), (anonymous) (1)." in text.splitlines()[1]
    assert (await service.command(member("cat"), "lang fr")).ok
    text = (await service.command(member("cat"), "stats")).public[0].text
    assert "Adversaires les plus fréquents : Ann (1), (anonyme) (1)." in text.splitlines()[1]


def top_lines(keys: list[str], board: dict[str, Player]) -> list[str]:
    lines = []
    for key in keys:
        player, shown = board[key], rating(board[key])
        lines.append(
            f"{place(key, board)}. {name_of(key)} {shown.shown} ± {shown.uncertainty} "
            f"({counted(player.games, 'game')}, {counted(player.wins, 'win')})"
        )
    return lines


def best_first(board: dict[str, Player]) -> list[str]:
    return sorted(board, key=lambda key: (-rating(board[key]).ordinal, key))


async def test_top_lists_the_players_here_best_first_with_their_places_and_counts(
    service: GameService, store: Store
) -> None:
    await played(service)
    here = await standing(store, FC, FC_KEYS)
    order = best_first(here)
    title = "Forbidden City: best players here"
    reply = (await service.command(member("eve"), "top")).public[0]
    assert reply.text == "\n".join([title, *top_lines(order, here), NOTE])
    assert reply.image_name == "top.png"
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
        for key in order
    ]
    assert reply.image == leaderboard_png(title, rows)
    # The same words in capitals ask the same.
    assert (await service.command(member("eve"), "top KNIZIA")).public[0].text == reply.text


async def test_top_global_lists_everyone_and_the_other_game_its_own_players(
    service: GameService, store: Store
) -> None:
    await played(service)
    everyone = await standing(store, FC, EVERYONE)
    expected = "\n".join(
        [
            "Forbidden City: best players everywhere",
            *top_lines(best_first(everyone), everyone),
            NOTE,
        ]
    )
    for words in ("top global", "top GLOBAL", "top knizia Global"):
        assert (await service.command(member("eve"), words)).public[0].text == expected, words
    vs = await standing(store, VS, ["console:ann", "console:dan"])
    stadt = (await service.command(member("eve"), "top stadt")).public[0].text
    assert stadt == "\n".join(
        [
            "Die Verbotene Stadt: best players here",
            *top_lines(["console:ann", "console:dan"], vs),
            NOTE,
        ]
    )
    elsewhere = await service.command(member("eve", community="guild3"), "top stadt")
    assert elsewhere.public[0].text == "Die Verbotene Stadt: best players here: no rated games yet."
    assert elsewhere.public[0].image is None
    wrong = await service.command(member("eve"), "top stadt knizia")
    assert not wrong.ok
    assert wrong.private[0].text == "Write /fc top, /fc top <game> or /fc top <game> global."


async def test_stats_and_top_in_french(service: GameService, store: Store) -> None:
    await played(service)
    fc = await standing(store, FC, FC_KEYS)
    everyone = await standing(store, FC, EVERYONE)
    assert (await service.command(member("ann"), "lang fr")).ok
    ann, bob = rating(fc["console:ann"]), rating(fc["console:bob"])
    vs = rating((await standing(store, VS, ["console:ann"]))["console:ann"])
    stats = (await service.command(member("ann"), "stats")).public[0]
    heading = "Ann : cotes"
    assert stats.text == "\n".join(
        [
            heading,
            f"Forbidden City : cote {ann.shown} (± {ann.uncertainty}), place "
            f"{place('console:ann', everyone)} sur 7 ; 3 parties, 2 victoires ; meilleur score 30. "
            "Adversaires les plus fréquents : Bob (2), Ordinateur (facile) (1), Cat (1).",
            f"La Cité interdite : cote {vs.shown} (± {vs.uncertainty}), place 1 sur 2 ; "
            "1 partie, 1 victoire ; meilleur score 12. Adversaires les plus fréquents : "
            "Dan (1).",
            NOTE_FR,
        ]
    )
    words = translations("fr").gettext
    rows = [
        Row(
            place("console:ann", everyone),
            "Forbidden City",
            ann.shown,
            ann.uncertainty,
            3,
            2,
            fc["console:ann"].trend,
        ),
        Row(1, "La Cité interdite", vs.shown, vs.uncertainty, 1, 1, (vs.shown,)),
    ]
    subtitle = "La place est celle du tableau de tous les joueurs."
    drawn = leaderboard_png(heading, rows, tr=words, subtitle=subtitle, per_game=True)
    assert stats.image == drawn
    bob_line = (await service.command(member("ann"), "stats <@bob>")).public[0].text
    assert bob_line.splitlines()[1] == (
        f"Forbidden City : cote {bob.shown} (± {bob.uncertainty}), place "
        f"{place('console:bob', everyone)} sur 7 ; 2 parties, 0 victoire ; meilleur score 20. "
        "Adversaires les plus fréquents : Ann (2), Ordinateur (facile) (1)."
    )
    order = best_first(fc)
    french = {"ai:easy": "Ordinateur (facile)"}
    lines = []
    for key in order:
        player, shown = fc[key], rating(fc[key])
        games = f"{player.games} partie" + ("s" if player.games > 1 else "")
        wins = f"{player.wins} victoire" + ("s" if player.wins > 1 else "")
        name = french.get(key, name_of(key))
        lines.append(
            f"{place(key, fc)}. {name} {shown.shown} ± {shown.uncertainty} ({games}, {wins})"
        )
    title = "Forbidden City : meilleurs joueurs ici"
    top = (await service.command(member("ann"), "top")).public[0]
    assert top.text == "\n".join([title, *lines, NOTE_FR])
    rows = [
        Row(
            place(key, fc),
            french.get(key, name_of(key)),
            rating(fc[key]).shown,
            rating(fc[key]).uncertainty,
            fc[key].games,
            fc[key].wins,
            fc[key].trend,
        )
        for key in order
    ]
    assert top.image == leaderboard_png(title, rows, tr=words)
    everywhere = (await service.command(member("ann"), "top global")).public[0].text
    assert everywhere.startswith("Forbidden City : meilleurs joueurs partout\n")
    none = await service.command(member("ann"), "stats <@zed>")
    assert none.public[0].text == "Pas encore de partie classée pour ce joueur."
    empty = await service.command(member("ann", community="guild3"), "top stadt")
    assert (
        empty.public[0].text
        == "La Cité interdite : meilleurs joueurs ici : pas encore de partie classée."
    )
    wrong = await service.command(member("ann"), "top échecs")
    assert wrong.private[0].text == "Écrivez /fc top, /fc top <jeu> ou /fc top <jeu> global."


async def test_a_standing_without_a_best_score_shows_a_dash(store: Store) -> None:
    """A standing may carry no best score (one written without it): stats show "-"."""
    made = GameService(store, settings(), clock=Clock(), seeds=fixed_seeds())
    try:
        ivy = Player("Ivy", 26.0, 5.0, games=1, wins=1)
        update = Update("console:ivy", 0, ivy, Rating(26.0, 5.0).ordinal, True)
        assert await store.apply("console:r:1", "00000001", 1.0, FC, "console:guild1", [update])
        text = (await made.command(member("ivy"), "stats")).public[0].text
        shown = Rating(26.0, 5.0)
        assert text.splitlines()[1] == (
            f"Forbidden City: rating {shown.shown} (± {shown.uncertainty}), place 1 of 1; "
            "1 game, 1 win; best score -."
        )
    finally:
        made.computer.close()


async def test_a_servers_board_for_one_game_lists_no_one_who_played_only_the_other_there(
    store: Store,
) -> None:
    """Ivy played Forbidden City in another server and Die Verbotene Stadt in this one: this
    server's Forbidden City board is still empty, its Verbotene Stadt board lists her."""
    made = GameService(store, settings(), clock=Clock(), seeds=fixed_seeds())
    try:
        ivy = Player("Ivy", 26.0, 5.0, games=1, wins=1, best=30)
        update = Update("console:ivy", 0, ivy, Rating(26.0, 5.0).ordinal, True)
        assert await store.apply("console:r:1", "00000001", 1.0, FC, "console:guild2", [update])
        assert await store.apply("console:r:2", "00000002", 2.0, VS, "console:guild1", [update])
        here = member("cat")  # in guild1
        knizia = (await made.command(here, "top knizia")).public[0].text
        assert knizia == "Forbidden City: best players here: no rated games yet."
        stadt = (await made.command(here, "top stadt")).public[0].text
        assert "Ivy" in stadt and "no rated games yet" not in stadt
    finally:
        made.computer.close()
