"""A finished game's records as a user sees them, through each adapter end to end: the last
move typed in the channel brings the final message (Game over, the rating changes, a Replay
button), then `/fc history`, `/fc replay`, the Replay button, `/fc stats`, `/fc top` and
`/fc export` answer in the channel with their text and files.

The real discord.py client runs against `FakeDiscord`, python-telegram-bot against
`FakeBotApi`; the service is the real `GameService` on a real redis-server. The table is set
up with the service (a started game one move from its end, as `near_the_end` makes it, in the
adapter's channel, with the platform's users); everything after that goes through the adapter.
Expected values come from the setup and from the result kept in the store, never from the
texts under test.
"""

from __future__ import annotations

import io
import json
import re
from collections.abc import AsyncIterator
from dataclasses import dataclass

import pytest
from PIL import Image

from bot.config import Settings
from bot.discord import FcClient
from bot.exchange.actor import Actor
from bot.records.finished import Result
from bot.records.table import Table
from bot.service import GameService
from bot.store import Channel, Store
from engine.forbidden_city import Game
from tests.conftest import fixed_seeds
from tests.fake_discord import FakeDiscord, Person, Sent, dispatch, fake_discord, logged_in
from tests.fake_telegram import Call, FakeBotApi, Harness, TgUser
from tests.tables import keep, load_game
from tests.test_results import one_move_left

GROUP = -100_950
DISCORD_PLAYERS = (Person(5101, "Ann"), Person(5102, "Ben"))
TELEGRAM_PLAYERS = (TgUser(5201, "Cid"), TgUser(5202, "Dee", "Lane"))


# ---------------------------------------------------------------------- fixtures
@pytest.fixture
async def service(store: Store) -> AsyncIterator[GameService]:
    settings = Settings(_env_file=None)  # type: ignore[call-arg]
    made = GameService(store, settings, seeds=fixed_seeds())
    yield made
    made.computer.close()


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    async with fake_discord() as server:
        server.allow(channel=1000)  # whole games at the machine's speed
        yield server


@pytest.fixture
async def client(fake: FakeDiscord, service: GameService) -> AsyncIterator[FcClient]:
    async with logged_in(FcClient(service, deadline_seconds=None)) as ready:
        yield ready


@pytest.fixture
async def bot(api: FakeBotApi, service: GameService) -> AsyncIterator[Harness]:
    async with Harness.running(api, service) as harness:
        yield harness


# ---------------------------------------------------------------------- the setup
@dataclass(frozen=True)
class Seat:
    """One player as the platform shows them: the id the service knows, the name shown."""

    user_id: str
    name: str


async def near_the_end_in(
    service: GameService, where: Channel, community: str, players: list[Seat]
) -> Seat:
    """A started two-player tile game in the adapter's channel, one move from its end (any
    legal move ends it with one winner); returns who plays that move."""

    def actor(seat: Seat) -> Actor:
        return Actor(
            where.platform, where.channel_id, seat.user_id, seat.name, "en", community=community
        )

    first, *others = players
    assert (await service.command(actor(first), "new")).ok
    for seat in others:
        assert (await service.command(actor(seat), "join")).ok
    assert (await service.command(actor(first), "start")).ok
    record = await service.store.load(where)
    assert record is not None
    table = Table.model_validate_json(record.data)
    game = one_move_left(load_game(table))
    keep(table, game)
    await service.store.save(where, table.model_dump_json(), record.version)
    mover = table.user_of(game.current).user_id
    return next(seat for seat in players if seat.user_id == mover)


async def last_move(store: Store, where: Channel) -> str:
    """A legal last move, as a user types it: `x,y rotation`."""
    record = await store.load(where)
    assert record is not None
    [move, *_] = load_game(Table.model_validate_json(record.data)).legal_moves()
    return f"{move.x},{move.y} {move.rotation}"


async def kept_result(store: Store, where: Channel) -> Result:
    [ref] = await store.channel_results(where, 10)
    text = await store.result(ref)
    assert text is not None
    return Result.model_validate_json(text)


def assert_rating_changes(text: str, result: Result) -> None:
    """`Ann 1000 → 1042 (+42)` for every player: the winner up, the loser down."""
    assert "Ratings:" in text, text
    for seat in result.seats:
        found = re.search(rf"{re.escape(seat.name)} (\d+) → (\d+) \(([+-]\d+)\)", text)
        assert found is not None, (seat.name, text)
        before, after, delta = int(found[1]), int(found[2]), int(found[3])
        assert after - before == delta
        assert (delta > 0) if seat.place == 1 else (delta < 0), (seat, text)


def image_format(data: bytes) -> str | None:
    with Image.open(io.BytesIO(data)) as image:
        image.load()
        return image.format


def assert_gif(data: bytes) -> None:
    assert data.startswith(b"GIF8")
    with Image.open(io.BytesIO(data)) as gif:
        assert gif.format == "GIF" and getattr(gif, "n_frames", 1) >= 2


def assert_engine_record(data: bytes, result: Result) -> None:
    """The exported file is the engine's record: every move of the game (a Forbidden City
    record lists them as "moves"; "actions" is Die Verbotene Stadt's name), and it loads in
    the engine to the game's end."""
    record = json.loads(data)
    assert record["game"] == "forbidden-city"
    assert isinstance(record["moves"], list) and len(record["moves"]) == result.moves
    game = Game.from_json(data)
    assert game.is_over and game.scores == {s.seat: s.score for s in result.seats}


# ---------------------------------------------------------------------- Discord
class OnDiscord:
    """A channel on the fake Discord, its game played to the end through the client."""

    def __init__(self, fake: FakeDiscord, client: FcClient, store: Store) -> None:
        self.fake = fake
        self.client = client
        self.store = store
        self.where = Channel.of("discord", str(fake.channel_id))

    async def finish(self, service: GameService) -> tuple[Sent, Result]:
        """The last move typed as `/fc play`: the final message in the channel and the kept
        result."""
        seats = [Seat(str(p.id), p.name) for p in DISCORD_PLAYERS]
        mover = await near_the_end_in(service, self.where, str(self.fake.guild_id), seats)
        person = next(p for p in DISCORD_PLAYERS if str(p.id) == mover.user_id)
        spot, rotation = (await last_move(self.store, self.where)).split()
        await self.type(person, "play", spot=spot, rotation=int(rotation))
        assert await self.store.load(self.where) is None  # archived
        result = await kept_result(self.store, self.where)
        [final] = [m for m in self.fake.channel_messages() if "Game over" in m.content]
        return final, result

    async def type(self, user: Person, subcommand: str, **options: str | int) -> list[Sent]:
        """`/fc <subcommand>` in the channel; what the whole channel saw of it."""
        before = len(self.fake.channel_messages())
        await dispatch(self.client, self.fake.command_payload(user, subcommand, **options))
        return self.fake.channel_messages()[before:]

    async def press(self, user: Person, message: Sent, custom_id: str) -> list[Sent]:
        before = len(self.fake.channel_messages())
        await dispatch(self.client, self.fake.press_payload(user, message, custom_id))
        return self.fake.channel_messages()[before:]

    def assert_settled(self) -> None:
        for interaction in self.fake.interactions.values():
            assert len(interaction.callbacks) == 1 and not interaction.thinking_forever
            assert interaction.seen_by_user() == [], interaction  # nothing was refused
        assert self.fake.unexpected == []


@pytest.fixture
def discord_channel(fake: FakeDiscord, client: FcClient, store: Store) -> OnDiscord:
    return OnDiscord(fake, client, store)


async def test_discord_the_last_move_shows_game_over_ratings_and_a_replay_button(
    discord_channel: OnDiscord, service: GameService
) -> None:
    final, result = await discord_channel.finish(service)
    assert len(result.short) == 8 and result.platform == "discord"
    assert {s.name for s in result.seats} == {p.name for p in DISCORD_PLAYERS}
    assert_rating_changes(final.content, result)
    replay = [c for c in final.custom_ids() if c.startswith("fc:rp:")]
    assert replay == [f"fc:rp:{discord_channel.fake.channel_id}:0:{result.short}"]
    assert image_format(final.files[0][1]) == "PNG"  # the final board
    discord_channel.assert_settled()


async def test_discord_history_lists_the_game_and_replay_and_its_button_post_the_gif(
    discord_channel: OnDiscord, service: GameService
) -> None:
    final, result = await discord_channel.finish(service)
    ann, ben = DISCORD_PLAYERS
    [listed] = await discord_channel.type(ben, "history")
    assert result.short in listed.content
    [replay] = await discord_channel.type(ann, "replay", id=result.short)
    [(name, gif)] = replay.files
    assert name == f"replay-{result.short}.gif"
    assert_gif(gif)
    [button] = [c for c in final.custom_ids() if c.startswith("fc:rp:")]
    [pressed] = await discord_channel.press(ben, final, button)
    assert pressed.files == [(name, gif)]
    discord_channel.assert_settled()


async def test_discord_stats_top_and_export(
    discord_channel: OnDiscord, service: GameService
) -> None:
    _, result = await discord_channel.finish(service)
    ann, ben = DISCORD_PLAYERS
    [stats] = await discord_channel.type(ann, "stats")
    assert ann.name in stats.content and ben.name in stats.content  # the opponent played
    [(stats_name, stats_png)] = stats.files
    assert stats_name.endswith(".png") and image_format(stats_png) == "PNG"
    [top] = await discord_channel.type(ben, "top")
    assert ann.name in top.content and ben.name in top.content
    [(top_name, top_png)] = top.files
    assert top_name.endswith(".png") and image_format(top_png) == "PNG"
    [exported] = await discord_channel.type(ben, "export", id=result.short)
    [(name, data)] = exported.files
    assert name.endswith(".json") and result.short in name
    assert_engine_record(data, result)
    discord_channel.assert_settled()


# ---------------------------------------------------------------------- Telegram
class OnTelegram:
    """A group on the fake Telegram, its game played to the end through the application."""

    def __init__(self, bot: Harness, store: Store) -> None:
        self.bot = bot
        self.store = store
        self.where = Channel.of("telegram", str(GROUP))

    async def finish(self, service: GameService) -> tuple[list[Call], Result]:
        """The last move typed as `/fc play`: what reached the group, and the kept result."""
        seats = [Seat(str(u.id), u.full_name) for u in TELEGRAM_PLAYERS]
        mover = await near_the_end_in(service, self.where, str(GROUP), seats)
        user = next(u for u in TELEGRAM_PLAYERS if str(u.id) == mover.user_id)
        posts = await self.say(user, f"/fc play {await last_move(self.store, self.where)}")
        assert await self.store.load(self.where) is None  # archived
        return posts, await kept_result(self.store, self.where)

    async def say(self, user: TgUser, text: str) -> list[Call]:
        """A command typed in the group; what was delivered to the group for it."""
        calls = await self.bot.feed(self.bot.api.command(GROUP, user, text))
        return self.to_group(calls)

    async def press(self, user: TgUser, on: Call, data: str) -> list[Call]:
        calls = await self.bot.feed(self.bot.api.press(user, on, data))
        alerts = [c for c in calls if c.params.get("show_alert") == "true"]
        assert alerts == [], [c.params for c in alerts]
        return self.to_group(calls)

    @staticmethod
    def to_group(calls: list[Call]) -> list[Call]:
        sends = [c for c in calls if c.method.startswith("send")]
        assert all(c.delivered for c in sends), [c.failed for c in sends]
        return [c for c in sends if c.chat_id == GROUP]


@pytest.fixture
def telegram_group(bot: Harness, store: Store) -> OnTelegram:
    return OnTelegram(bot, store)


def replay_button(posts: list[Call]) -> tuple[Call, str]:
    [(call, data)] = [
        (c, str(b["callback_data"]))
        for c in posts
        for b in c.buttons
        if str(b["callback_data"]).startswith("fc:rp:")
    ]
    return call, data


async def test_telegram_the_last_move_shows_game_over_ratings_and_a_replay_button(
    telegram_group: OnTelegram, service: GameService
) -> None:
    posts, result = await telegram_group.finish(service)
    assert len(result.short) == 8 and result.platform == "telegram"
    assert {s.name for s in result.seats} == {u.full_name for u in TELEGRAM_PLAYERS}
    shown = "\n".join(c.visible for c in posts)
    assert "Game over" in shown
    assert_rating_changes(shown, result)
    _, data = replay_button(posts)
    assert data == f"fc:rp:{GROUP}:0:{result.short}"
    assert [image_format(c.photo) for c in posts if c.photo] == ["PNG"]  # the final board


async def test_telegram_history_lists_the_game_and_replay_and_its_button_post_the_gif(
    telegram_group: OnTelegram, service: GameService
) -> None:
    final, result = await telegram_group.finish(service)
    cid, dee = TELEGRAM_PLAYERS
    listed = await telegram_group.say(dee, "/fc history")
    assert result.short in "\n".join(c.visible for c in listed)
    [replay] = await telegram_group.say(cid, f"/fc replay {result.short}")
    assert replay.method == "sendAnimation" and replay.animation is not None
    assert replay.file == (f"replay-{result.short}.gif", replay.animation)
    assert_gif(replay.animation)
    on, data = replay_button(final)
    [pressed] = await telegram_group.press(dee, on, data)
    assert pressed.method == "sendAnimation" and pressed.animation == replay.animation


async def test_telegram_stats_top_and_export(
    telegram_group: OnTelegram, service: GameService
) -> None:
    _, result = await telegram_group.finish(service)
    cid, dee = TELEGRAM_PLAYERS
    names = [u.full_name for u in TELEGRAM_PLAYERS]
    for typed, by in (("/fc stats", cid), ("/fc top", dee)):
        posts = await telegram_group.say(by, typed)
        shown = "\n".join(c.visible for c in posts)
        assert all(name in shown for name in names), (typed, shown)
        [photo] = [c for c in posts if c.method == "sendPhoto"]
        assert photo.file is not None and photo.file[0].endswith(".png")
        assert photo.photo is not None and image_format(photo.photo) == "PNG"
    [exported] = await telegram_group.say(dee, f"/fc export {result.short}")
    assert exported.method == "sendDocument" and exported.file is not None
    name, data = exported.file
    assert name.endswith(".json") and result.short in name
    assert_engine_record(data, result)
