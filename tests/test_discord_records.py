"""`/fc stats`, `top`, `history`, `replay`, `export`, `forget` through Discord, and the files a
reply may carry (a GIF replay, a JSON record).

The client is the real one against `FakeDiscord`; the service is the real `GameService` on a
real redis-server, wrapped so the test sees the text each command became. A test that needs a
given reply (a file) scripts it; every other call goes through to the service.
"""

from __future__ import annotations

import io
import json
from collections.abc import AsyncIterator
from dataclasses import dataclass, field

import pytest
from PIL import Image

from bot.config import Settings
from bot.discord import FcClient
from bot.exchange.actor import Actor
from bot.exchange.replies import Button, Message, Reply
from bot.service import GameService
from bot.store import Store
from tests.conftest import fixed_seeds
from tests.fake_discord import FakeDiscord, Person, Sent, Value, dispatch, fake_discord, logged_in

ANN = Person(4001, "Ann")
BEN = Person(4002, "Ben", locale="de")
GAME_ID = "0a1b2c3d"


def gif(frames: int = 3) -> bytes:
    """A small animated GIF, as a replay is."""
    colours = ["red", "green", "blue", "yellow"][:frames]
    pictures = [Image.new("RGB", (16, 12), colour) for colour in colours]
    out = io.BytesIO()
    pictures[0].save(out, format="GIF", save_all=True, append_images=pictures[1:], duration=200)
    return out.getvalue()


def png() -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (8, 8), "red").save(out, format="PNG")
    return out.getvalue()


def record() -> bytes:
    """An exported game, as a JSON document."""
    return json.dumps({"game": "forbidden_city", "seed": 7, "actions": ["3 1"]}).encode()


@dataclass
class Recording:
    """The real service, with each command's actor and text kept; `canned`, when set, is
    the reply to the next commands instead of the service's (a reply with files)."""

    inner: GameService
    commands: list[tuple[Actor, str]] = field(default_factory=list)
    replies: list[Reply] = field(default_factory=list)
    canned: Reply | None = None

    @property
    def texts(self) -> list[str]:
        return [text for _, text in self.commands]

    async def command(self, actor: Actor, text: str) -> Reply:
        self.commands.append((actor, text))
        reply = self.canned or await self.inner.command(actor, text)
        self.replies.append(reply)
        return reply

    async def press(self, actor: Actor, data: str) -> Reply:
        return await self.inner.press(actor, data)

    async def complete(self, actor: Actor, text: str) -> list[tuple[str, str]]:
        return await self.inner.complete(actor, text)

    async def dm_failed(
        self, platform: str, channel_id: str, user_id: str, link: str | None = None
    ) -> Reply:
        return await self.inner.dm_failed(platform, channel_id, user_id, link)

    async def dms_closed(self, platform: str, user_id: str) -> bool:
        return await self.inner.dms_closed(platform, user_id)

    async def dms_refused(self, platform: str, user_id: str) -> None:
        await self.inner.dms_refused(platform, user_id)

    async def chat_moved(self, platform: str, old_id: str, new_id: str) -> bool:
        return await self.inner.chat_moved(platform, old_id, new_id)

    async def place_closed(self, platform: str, channel_id: str) -> Reply:
        return await self.inner.place_closed(platform, channel_id)

    async def fire_due(self, platform: str | None = None) -> list[tuple[str, str, Reply]]:
        return await self.inner.fire_due(platform)


@pytest.fixture
def service(store: Store) -> Recording:
    settings = Settings(_env_file=None)  # type: ignore[call-arg]
    return Recording(GameService(store, settings, seeds=fixed_seeds()))


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    async with fake_discord() as server:
        yield server


@pytest.fixture
async def client(fake: FakeDiscord, service: Recording) -> AsyncIterator[FcClient]:
    async with logged_in(FcClient(service, deadline_seconds=None)) as ready:
        yield ready


def assert_answered(fake: FakeDiscord, service: Recording, user: Person) -> None:
    """The interaction was acknowledged once and not left thinking, and what the service
    answered reached the user: its public part where they typed the command (the channel,
    or their DM), its private part to them alone."""
    interaction = fake.last_interaction()
    assert len(interaction.callbacks) == 1 and not interaction.thinking_forever
    assert fake.unexpected == []
    reply = service.replies[-1]
    seen = interaction.seen_by_user()
    assert all(m.where == "ephemeral" and m.audience == user.id for m in seen)
    assert len(seen) >= len(reply.private)
    public = [
        m
        for m in fake.sent
        if m.where in ("channel", "dm") and m.channel_id == interaction.channel_id
    ]
    assert len(public) >= len(reply.public)


# ---------------------------------------------------------------------- the commands
async def test_the_record_commands_are_synced_with_their_options(
    fake: FakeDiscord, client: FcClient
) -> None:
    subcommands = {o["name"]: o for o in fake.commands[0]["options"]}
    assert {"stats", "top", "history", "replay", "export", "forget"} <= set(subcommands)
    assert len(subcommands) <= 25  # Discord's limit for a group
    for name in ("stats", "history"):
        [user] = subcommands[name]["options"]
        assert (user["name"], user["type"], user.get("required", False)) == ("user", 6, False)
    top = {o["name"]: o for o in subcommands["top"]["options"]}
    assert [c["value"] for c in top["game"]["choices"]] == ["knizia", "stadt"]
    assert [c["value"] for c in top["scope"]["choices"]] == ["here", "global"]
    assert not any(o.get("required", False) for o in top.values())
    for name in ("replay", "export"):
        [game_id] = subcommands[name]["options"]
        assert (game_id["name"], game_id["type"], game_id["required"]) == ("id", 3, True)
    assert not subcommands["forget"].get("options")
    # Localized like every other subcommand (the catalogues have the new names).
    assert subcommands["top"]["name_localizations"]["de"] == "rangliste"
    assert subcommands["forget"]["name_localizations"]["fr"] == "oublier"


@pytest.mark.parametrize(
    ("subcommand", "options", "text"),
    [
        ("stats", {}, "stats"),
        ("stats", {"user": BEN}, f"stats <@{BEN.id}>"),
        ("top", {}, "top"),
        ("top", {"game": "stadt"}, "top stadt"),
        ("top", {"scope": "global"}, "top global"),
        ("top", {"game": "knizia", "scope": "global"}, "top knizia global"),
        ("top", {"game": "stadt", "scope": "here"}, "top stadt"),
        ("history", {}, "history"),
        ("history", {"user": BEN}, f"history <@{BEN.id}>"),
        ("replay", {"id": f" {GAME_ID} "}, f"replay {GAME_ID}"),
        ("export", {"id": GAME_ID}, f"export {GAME_ID}"),
        ("forget", {}, "forget me"),
    ],
)
async def test_each_command_reaches_the_service_as_its_text(
    fake: FakeDiscord,
    client: FcClient,
    service: Recording,
    subcommand: str,
    options: dict[str, Value],
    text: str,
) -> None:
    await dispatch(client, fake.command_payload(ANN, subcommand, **options))
    assert service.texts == [text]
    assert_answered(fake, service, ANN)


@pytest.mark.parametrize("subcommand", ["stats", "history"])
async def test_a_user_picked_in_a_dm_is_named_too(
    fake: FakeDiscord, client: FcClient, service: Recording, subcommand: str
) -> None:
    await dispatch(client, fake.dm_command_payload(ANN, subcommand, user=BEN))
    assert service.texts == [f"{subcommand} <@{BEN.id}>"]
    assert_answered(fake, service, ANN)


async def test_the_community_is_the_server_and_none_in_a_dm(
    fake: FakeDiscord, client: FcClient, service: Recording
) -> None:
    await dispatch(client, fake.command_payload(ANN, "top"))
    await dispatch(client, fake.dm_command_payload(ANN, "top"))
    await dispatch(client, fake.command_payload(BEN, "stats"))
    (in_server, _), (in_dm, _), (other, _) = service.commands
    assert in_server.community == str(fake.guild_id) and not in_server.private
    assert in_dm.community is None and in_dm.private
    assert other.community == str(fake.guild_id)


# ---------------------------------------------------------------------- files
def attachments(message: Sent) -> list[str]:
    return [a["filename"] for a in message.payload["attachments"]]


async def test_a_gif_and_a_json_are_attachments_with_their_names(
    fake: FakeDiscord, client: FcClient, service: Recording
) -> None:
    replay, exported = gif(), record()
    service.canned = Reply(
        public=[
            Message(
                f"Replay of {GAME_ID}",
                image=replay,
                image_name=f"replay-{GAME_ID}.gif",
                buttons=[[Button("Again", f"fc:rp:{fake.channel_id}")]],
            )
        ],
        private=[Message("Your record", image=exported, image_name=f"game-{GAME_ID}.json")],
    )
    await dispatch(client, fake.command_payload(ANN, "replay", id=GAME_ID))
    await dispatch(client, fake.command_payload(ANN, "export", id=GAME_ID))

    shown = fake.channel_messages()
    assert [m.files for m in shown] == [[(f"replay-{GAME_ID}.gif", replay)]] * 2
    assert attachments(shown[0]) == [f"replay-{GAME_ID}.gif"]
    assert shown[0].payload["embeds"] == []  # attached as a file, not embedded
    assert shown[0].custom_ids() == [f"fc:rp:{fake.channel_id}"]
    [animation] = shown[0].images()
    assert animation.format == "GIF" and getattr(animation, "n_frames", 1) == 3
    answers = fake.ephemerals(ANN)
    assert [m.files for m in answers] == [[(f"game-{GAME_ID}.json", exported)]] * 2
    assert [m.content for m in answers] == ["Your record"] * 2
    assert json.loads(answers[0].files[0][1])["seed"] == 7
    assert service.texts == [f"replay {GAME_ID}", f"export {GAME_ID}"]
    assert fake.unexpected == []


async def test_a_png_is_still_a_picture(
    fake: FakeDiscord, client: FcClient, service: Recording
) -> None:
    board = png()
    service.canned = Reply(public=[Message("The board", image=board)])
    await dispatch(client, fake.command_payload(ANN, "top"))
    [post] = fake.channel_messages()
    assert post.files == [("table.png", board)] and post.images()[0].format == "PNG"
