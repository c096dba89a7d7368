"""The Discord adapter with a scripted service: routing of replies, commands, components, DMs.

The client is the real one, interactions go through discord.py's real `CommandTree` and view
store, and its HTTP requests reach `FakeDiscord` (see tests/fake_discord.py).
"""

from __future__ import annotations

import asyncio
import io
import logging
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

import pytest
from PIL import Image

from bot.discord import FcClient, build_client
from bot.discord.markup import chunks
from bot.exchange.actor import Actor
from bot.exchange.replies import Button, Direct, Message, Reply, mention
from bot.runtime.metrics import REGISTRY
from tests.fake_discord import FakeDiscord, Person, Sent, dispatch, fake_discord, logged_in

ALICE = Person(2001, "Alice", locale="fr")
BOB = Person(2002, "Bob_*bold*")
CAROL = Person(2003, "Carol", admin=True)


def png(colour: str = "red", size: tuple[int, int] = (8, 8)) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", size, colour).save(out, format="PNG")
    return out.getvalue()


@dataclass
class Scripted:
    """A service that records what it is asked and answers what the test scripted."""

    reply: Reply = field(default_factory=Reply)
    choices: list[tuple[str, str]] = field(default_factory=list)
    due: list[tuple[str, str, Reply]] = field(default_factory=list)
    hint: Reply = field(default_factory=Reply)
    calls: list[tuple[str, Actor | None, str]] = field(default_factory=list)
    closed: set[str] = field(default_factory=set)  # platform:user whose DMs refused the bot
    fail: bool = False

    async def command(self, actor: Actor, text: str) -> Reply:
        self.calls.append(("command", actor, text))
        if self.fail:
            raise RuntimeError("boom")
        return self.reply

    async def press(self, actor: Actor, data: str) -> Reply:
        self.calls.append(("press", actor, data))
        return self.reply

    async def complete(self, actor: Actor, text: str) -> list[tuple[str, str]]:
        self.calls.append(("complete", actor, text))
        return self.choices

    async def dm_failed(
        self, platform: str, channel_id: str, user_id: str, link: str | None = None
    ) -> Reply:
        self.calls.append(("dm_failed", None, f"{platform}:{channel_id}:{user_id}"))
        return self.hint

    async def dms_closed(self, platform: str, user_id: str) -> bool:
        return f"{platform}:{user_id}" in self.closed

    async def dms_refused(self, platform: str, user_id: str) -> None:
        self.calls.append(("dms_refused", None, f"{platform}:{user_id}"))
        self.closed.add(f"{platform}:{user_id}")

    async def fire_due(self, platform: str | None = None) -> list[tuple[str, str, Reply]]:
        mine = [d for d in self.due if platform is None or d[0] == platform]
        self.due = [d for d in self.due if d not in mine]
        return mine

    async def place_closed(self, platform: str, channel_id: str) -> Reply:
        self.calls.append(("place_closed", None, f"{platform}:{channel_id}"))
        return Reply()


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    async with fake_discord() as server:
        yield server


@pytest.fixture
def service() -> Scripted:
    return Scripted()


@pytest.fixture
async def client(fake: FakeDiscord, service: Scripted) -> AsyncIterator[FcClient]:
    async with logged_in(FcClient(service, deadline_seconds=None)) as ready:
        yield ready


def assert_settled(fake: FakeDiscord) -> None:
    """Every interaction was acknowledged once and none is left 'thinking' forever."""
    for interaction in fake.interactions.values():
        assert len(interaction.callbacks) == 1, interaction
        assert not interaction.thinking_forever, interaction
    assert fake.unexpected == []


# ---------------------------------------------------------------------- setup
async def test_login_syncs_the_fc_group(fake: FakeDiscord, client: FcClient) -> None:
    assert [c["name"] for c in fake.commands] == ["fc"]
    subcommands = {o["name"]: o for o in fake.commands[0]["options"]}
    assert set(subcommands) == {
        "new", "join", "leave", "start", "play", "hand", "board", "status", "web",
        "rules", "abort", "lang", "notify", "games", "help", "vote", "bot", "back",
        "stats", "top", "history", "replay", "export", "forget",
    }  # fmt: skip
    play = {o["name"]: o for o in subcommands["play"]["options"]}
    assert play["spot"]["autocomplete"] is True and play["spot"]["required"] is True
    assert play["rotation"]["min_value"] == 0 and play["rotation"]["max_value"] == 3
    assert not play["rotation"].get("required", False)
    new = {o["name"]: o for o in subcommands["new"]["options"]}
    assert [c["value"] for c in new["game"]["choices"]] == ["knizia", "stadt"]
    assert [c["value"] for c in new["side"]["choices"]] == ["beginner", "advanced"]
    assert new["teams"]["type"] == 5  # a boolean
    assert (new["bots"]["min_value"], new["bots"]["max_value"]) == (0, 3)
    assert [c["value"] for c in new["level"]["choices"]] == ["easy", "normal", "hard"]
    assert not any(o.get("required", False) for o in new.values())
    languages = subcommands["lang"]["options"][0]["choices"]
    assert [c["value"] for c in languages] == ["en", "fr", "it", "de"]
    assert client.intents.value == 0  # slash commands need no gateway intents


async def test_dev_guild_syncs_there(fake: FakeDiscord, service: Scripted) -> None:
    async with logged_in(FcClient(service, dev_guild_id=fake.guild_id, deadline_seconds=None)):
        pass
    assert ("PUT", f"/applications/{fake.app_id}/guilds/{fake.guild_id}/commands") in (
        fake.requests
    )


# ---------------------------------------------------------------------- commands
@pytest.mark.parametrize(
    ("subcommand", "options", "text"),
    [
        ("new", {"side": "advanced"}, "new advanced"),
        ("new", {}, "new"),
        ("new", {"game": "stadt"}, "new stadt"),
        ("new", {"game": "stadt", "teams": True}, "new stadt teams"),
        ("new", {"game": "knizia", "side": "advanced"}, "new knizia advanced"),
        ("new", {"game": "stadt", "bots": 2, "level": "hard"}, "new stadt bots:2:hard"),
        ("new", {"bots": 3}, "new bots:3"),
        ("play", {"spot": "RB N,E"}, "play RB N,E"),
        ("join", {}, "join"),
        ("play", {"spot": "3", "rotation": 1}, "play 3 1"),
        ("play", {"spot": " 2, -1 ", "rotation": 0}, "play 2,-1 0"),
        ("play", {"spot": "7"}, "play 7"),
        ("lang", {"language": "de"}, "lang de"),
        ("notify", {"setting": "off"}, "notify off"),
        ("vote", {"choice": "skip"}, "vote skip"),
        ("web", {}, "web"),
        ("help", {}, "help"),
    ],
)
async def test_command_text_and_actor(
    fake: FakeDiscord,
    client: FcClient,
    service: Scripted,
    subcommand: str,
    options: dict[str, str | int | bool],
    text: str,
) -> None:
    await dispatch(client, fake.command_payload(ALICE, subcommand, **options))
    assert service.calls == [
        (
            "command",
            Actor(
                platform="discord",
                channel_id=str(fake.channel_id),
                user_id=str(ALICE.id),
                name="Alice",
                locale="fr",
                is_admin=False,
                private=False,
                community=str(fake.guild_id),
                place="#forbidden-city",  # the channel's name
                link=f"https://discord.com/channels/{fake.guild_id}/{fake.channel_id}",
                threads=True,  # a text channel: a table may open in a thread of it
            ),
            text,
        )
    ]
    assert_settled(fake)


async def test_admin_and_dm_actor(fake: FakeDiscord, client: FcClient, service: Scripted) -> None:
    await dispatch(client, fake.command_payload(CAROL, "abort"))
    await dispatch(client, fake.dm_command_payload(CAROL, "games"))
    admin, private = (call[1] for call in service.calls)
    assert admin is not None and admin.is_admin and not admin.private
    assert private is not None and private.private and not private.is_admin
    assert private.channel_id != str(fake.channel_id)  # the DM's own id


async def test_public_and_private_parts_go_to_their_places(
    fake: FakeDiscord, client: FcClient, service: Scripted
) -> None:
    board, secret = png("blue"), png("green")
    service.reply = Reply(
        public=[
            Message(
                f"{mention('2001')} places a tile *here*",
                image=board,
                buttons=[[Button("Join", "fc:j:42", "primary"), Button("Start", "fc:st:42")]],
                names={"2001": "Alice"},
            )
        ],
        private=[Message("Your tile", image=secret, image_name="hand.png")],
    )
    await dispatch(client, fake.command_payload(BOB, "play", spot="3"))

    [public] = fake.channel_messages()
    assert public.content == "<@2001> places a tile \\*here\\*"
    assert [name for name, _ in public.files] == ["table.png"]
    assert public.files[0][1] == board and public.images()[0].format == "PNG"
    assert public.custom_ids() == ["fc:j:42", "fc:st:42"]
    assert public.button("fc:j:")["label"] == "Join" and public.button("fc:j:")["style"] == 1
    assert public.payload["content"] and "everyone" not in public.content
    [private] = fake.ephemerals(BOB)
    assert private.content == "Your tile" and private.files == [("hand.png", secret)]
    # The secret image is nowhere but in Bob's ephemeral answer.
    assert [m for m in fake.sent if any(data == secret for _, data in m.files)] == [private]
    assert_settled(fake)


@pytest.mark.parametrize("in_dm", [False, True])
async def test_two_private_messages_are_both_ephemeral(
    fake: FakeDiscord, client: FcClient, service: Scripted, in_dm: bool
) -> None:
    first, second = png("green"), png("yellow")
    service.reply = Reply(
        public=[Message("Bob played")],
        private=[
            Message("Your new tile", image=first, image_name="your-tile.png"),
            Message("Your turn again", image=second, image_name="your-turn.png"),
        ],
        channel_id=str(fake.channel_id),
    )
    command = fake.dm_command_payload if in_dm else fake.command_payload
    await dispatch(client, command(BOB, "play", spot="3"))
    assert [m.content for m in fake.channel_messages()] == ["Bob played"]
    answers = fake.last_interaction().seen_by_user()
    assert [(m.content, m.where, m.audience) for m in answers] == [
        ("Your new tile", "ephemeral", BOB.id),
        ("Your turn again", "ephemeral", BOB.id),
    ]
    assert [m.files for m in answers] == [
        [("your-tile.png", first)],
        [("your-turn.png", second)],
    ]
    assert [m for m in fake.sent if m.where != "ephemeral"] == fake.channel_messages()
    assert_settled(fake)


async def test_refusal_is_only_ephemeral(
    fake: FakeDiscord, client: FcClient, service: Scripted
) -> None:
    service.reply = Reply.error("It is not your turn.")
    await dispatch(client, fake.command_payload(BOB, "play", spot="3"))
    assert fake.channel_messages() == []
    [answer] = fake.ephemerals(BOB)
    assert answer.content == "It is not your turn."
    assert_settled(fake)


async def test_public_only_reply_leaves_no_thinking_placeholder(
    fake: FakeDiscord, client: FcClient, service: Scripted
) -> None:
    service.reply = Reply(public=[Message("Bob joins the table (2/4).")])
    await dispatch(client, fake.command_payload(BOB, "join"))
    assert [m.content for m in fake.channel_messages()] == ["Bob joins the table (2/4)."]
    assert fake.last_interaction().original_deleted
    assert fake.ephemerals(BOB) == []
    assert_settled(fake)


async def test_service_crash_gives_an_ephemeral_apology(
    fake: FakeDiscord,
    client: FcClient,
    service: Scripted,
    caplog: pytest.LogCaptureFixture,
) -> None:
    service.fail = True
    with caplog.at_level(logging.ERROR):
        await dispatch(client, fake.command_payload(ALICE, "status"))
    [answer] = fake.ephemerals(ALICE)
    assert "Nothing was changed" in answer.content
    assert fake.channel_messages() == []
    assert any("service failed" in r.message for r in caplog.records)
    assert_settled(fake)


async def test_channel_the_bot_cannot_post_in(
    fake: FakeDiscord, client: FcClient, service: Scripted
) -> None:
    fake.unwritable.add(fake.channel_id)
    service.reply = Reply(public=[Message("board")])
    await dispatch(client, fake.command_payload(ALICE, "board"))
    [answer] = fake.ephemerals(ALICE)
    assert "Send Messages" in answer.content
    assert_settled(fake)


async def test_long_text_is_split_with_the_image_on_the_last_piece(
    fake: FakeDiscord, client: FcClient, service: Scripted
) -> None:
    lines = [f"line {n:04d} " + "x" * 40 for n in range(100)]
    service.reply = Reply(public=[Message("\n".join(lines), image=png())])
    await dispatch(client, fake.command_payload(ALICE, "rules"))
    pieces = fake.channel_messages()
    assert len(pieces) == 3 and all(len(p.content) <= 2000 for p in pieces)
    assert "\n".join(p.content for p in pieces) == "\n".join(lines)
    assert [len(p.files) for p in pieces] == [0, 0, 1]


def test_chunks_cut_without_line_breaks() -> None:
    assert chunks("a" * 4500) == ["a" * 2000, "a" * 2000, "a" * 500]
    assert chunks("short") == ["short"]


# ---------------------------------------------------------------------- components
async def _lobby(fake: FakeDiscord, client: FcClient, service: Scripted, data: str) -> Sent:
    """Alice opens a table: its lobby, with a Join button pressing `data`, in the channel."""
    service.reply = Reply(public=[Message("lobby", buttons=[[Button("Join", data)]])])
    await dispatch(client, fake.command_payload(ALICE, "new"))
    [lobby] = fake.channel_messages()
    return lobby


async def test_button_press_reaches_the_service_with_its_data(
    fake: FakeDiscord, client: FcClient, service: Scripted
) -> None:
    data = f"fc:j:{fake.channel_id}"
    lobby = await _lobby(fake, client, service, data)
    service.calls.clear()
    service.reply = Reply(public=[Message(f"{mention('2002')} joins", names={"2002": BOB.name})])
    await dispatch(client, fake.press_payload(BOB, lobby, data))
    [(kind, actor, pressed)] = service.calls
    assert (kind, pressed) == ("press", data)
    assert actor is not None and actor.user_id == str(BOB.id) and actor.name == BOB.name
    assert fake.channel_messages()[-1].content == "<@2002> joins"
    assert_settled(fake)


def _menu(text: str, data: str) -> Reply:
    """The lobby shown again after a press on it, as the service marks it."""
    buttons = [[Button("Join", data), Button("Start", data.replace(":j:", ":st:"))]]
    return Reply(public=[Message(text, buttons=buttons, in_place=True)])


async def test_a_menu_shown_again_edits_the_message_pressed(
    fake: FakeDiscord, client: FcClient, service: Scripted
) -> None:
    data = f"fc:j:{fake.channel_id}"
    lobby = await _lobby(fake, client, service, data)
    service.reply = _menu("Bob joins (2/4).", data)
    await dispatch(client, fake.press_payload(BOB, lobby, data))
    [shown] = fake.channel_messages()  # the channel gets no new message
    assert shown.id == lobby.id and shown.content == "Bob joins (2/4)."
    assert shown.custom_ids() == [data, f"fc:st:{fake.channel_id}"]
    assert shown.payload["edited_timestamp"] is not None and fake.edited == [shown]
    assert fake.ephemerals(BOB) == []  # nor a word for the one who pressed
    assert_settled(fake)


async def test_a_menu_discord_will_not_edit_is_posted_anew(
    fake: FakeDiscord, client: FcClient, service: Scripted
) -> None:
    data = f"fc:j:{fake.channel_id}"
    lobby = await _lobby(fake, client, service, data)
    fake.deleted.add(lobby.id)  # a moderator removed it meanwhile
    service.reply = _menu("Bob joins (2/4).", data)
    await dispatch(client, fake.press_payload(BOB, lobby, data))
    [anew] = fake.channel_messages()
    assert anew.id != lobby.id and anew.content == "Bob joins (2/4)." and anew.custom_ids()
    assert fake.edited == []
    assert_settled(fake)


async def test_a_menu_typed_or_pressed_in_a_dm_is_a_new_message(
    fake: FakeDiscord, client: FcClient, service: Scripted
) -> None:
    data = f"fc:j:{fake.channel_id}"
    service.reply = _menu("Bob joins (2/4).", data)
    await dispatch(client, fake.command_payload(BOB, "join"))  # typed: nothing to edit
    service.reply = Reply(
        direct=[Direct(str(ALICE.id), Message("Your turn", buttons=[[Button("Join", data)]]))]
    )
    await dispatch(client, fake.command_payload(BOB, "status"))
    [notice] = fake.dms(ALICE)
    service.reply = _menu("Alice joins (3/4).", data)
    service.reply.channel_id = str(fake.channel_id)
    await dispatch(client, fake.press_payload(ALICE, notice, data))
    assert [m.content for m in fake.channel_messages()] == [
        "Bob joins (2/4).",
        "Alice joins (3/4).",
    ]
    assert fake.edited == [] and [m.content for m in fake.dms(ALICE)] == ["Your turn"]
    assert_settled(fake)


async def test_select_choice_reaches_the_service(
    fake: FakeDiscord, client: FcClient, service: Scripted
) -> None:
    choices = [Button(f"Spot {n}", f"fc:sp:{fake.channel_id}:4:{n}") for n in range(1, 31)]
    service.reply = Reply(
        private=[Message("Your turn", choices=choices, choices_placeholder="Choose a spot")]
    )
    await dispatch(client, fake.command_payload(ALICE, "hand"))
    [turn] = fake.ephemerals(ALICE)
    menu = turn.menu()
    assert menu is not None and menu["placeholder"] == "Choose a spot"
    assert len(menu["options"]) == 25  # Discord's limit
    service.calls.clear()
    service.reply = Reply(private=[Message("Spot 3: choose a rotation")])
    await dispatch(
        client, fake.press_payload(ALICE, turn, menu["custom_id"], values=[choices[2].data])
    )
    assert [c[2] for c in service.calls] == [choices[2].data]
    assert fake.ephemerals(ALICE)[-1].content == "Spot 3: choose a rotation"
    assert_settled(fake)


async def test_press_in_a_dm_posts_publicly_in_the_game_channel(
    fake: FakeDiscord, client: FcClient, service: Scripted
) -> None:
    data = f"fc:ok:{fake.channel_id}:7:1,0@2"
    service.reply = Reply(
        direct=[Direct(str(ALICE.id), Message("Your turn", buttons=[[Button("Play", data)]]))]
    )
    await dispatch(client, fake.command_payload(BOB, "status"))
    [notice] = fake.dms(ALICE)
    service.reply = Reply(
        public=[Message("Alice played")],
        private=[Message("New tile")],
        channel_id=str(fake.channel_id),  # the service names the game's channel
    )
    await dispatch(client, fake.press_payload(ALICE, notice, data))
    assert [m.content for m in fake.channel_messages()] == ["Alice played"]
    assert [m.content for m in fake.ephemerals(ALICE)] == ["New tile"]
    assert fake.ephemerals(ALICE)[0].channel_id == notice.channel_id  # answered in the DM
    assert service.calls[-1][1] is not None and service.calls[-1][1].private
    assert_settled(fake)


async def test_buttons_survive_a_restart(fake: FakeDiscord, service: Scripted) -> None:
    data = f"fc:st:{fake.channel_id}"
    async with logged_in(FcClient(service, deadline_seconds=None)) as first:
        service.reply = Reply(public=[Message("lobby", buttons=[[Button("Start", data)]])])
        await dispatch(first, fake.command_payload(ALICE, "new"))
    [lobby] = fake.channel_messages()
    service.calls.clear()
    service.reply = Reply(public=[Message("started")])
    async with logged_in(FcClient(service, deadline_seconds=None)) as second:
        await dispatch(second, fake.press_payload(ALICE, lobby, data))
    assert [(c[0], c[2]) for c in service.calls] == [("press", data)]
    assert fake.channel_messages()[-1].content == "started"
    assert_settled(fake)


async def test_unknown_custom_id_is_refused_by_the_service_once(
    fake: FakeDiscord, client: FcClient, service: Scripted
) -> None:
    service.reply = Reply(public=[Message("lobby", buttons=[[Button("Join", "fc:j:1")]])])
    await dispatch(client, fake.command_payload(ALICE, "new"))
    [lobby] = fake.channel_messages()
    lobby.payload["components"][0]["components"][0]["custom_id"] = "other-bot:thing"
    service.calls.clear()
    service.reply = Reply.error("This button is not valid.")
    await dispatch(client, fake.press_payload(ALICE, lobby, "other-bot:thing"))
    assert [(c[0], c[2]) for c in service.calls] == [("press", "other-bot:thing")]
    assert [m.content for m in fake.last_interaction().seen_by_user()] == [
        "This button is not valid."
    ]
    assert fake.ephemerals(ALICE)[-1].content == "This button is not valid."
    assert_settled(fake)


async def test_spot_autocomplete(fake: FakeDiscord, client: FcClient, service: Scripted) -> None:
    service.choices = [(f"{n}: {n},0 (0/1)", str(n)) for n in range(40)]
    await dispatch(client, fake.autocomplete_payload(ALICE, "1"))
    assert service.calls[-1][2] == "play 1"
    interaction = fake.last_interaction()
    assert interaction.callbacks[0]["type"] == 8
    assert interaction.choices is not None and len(interaction.choices) == 25
    assert interaction.choices[1] == {"name": "1: 1,0 (0/1)", "value": "1"}


# ---------------------------------------------------------------------- DMs
async def test_blocked_turn_notice_tells_the_channel(
    fake: FakeDiscord, client: FcClient, service: Scripted
) -> None:
    fake.blocked_dms.add(BOB.id)
    service.hint = Reply(public=[Message(f"{mention('2002')}, I cannot send you DMs", names={})])
    service.reply = Reply(
        public=[Message("Alice played")],
        direct=[
            Direct(str(BOB.id), Message("Your turn", image=png()), turn_notice=True),
            Direct(str(CAROL.id), Message("FYI")),
        ],
    )
    await dispatch(client, fake.command_payload(ALICE, "play", spot="1", rotation=0))
    assert [m.content for m in fake.channel_messages()] == [
        "Alice played",
        "<@2002>, I cannot send you DMs",
    ]
    assert ("dm_failed", None, f"discord:{fake.channel_id}:{BOB.id}") in service.calls
    assert [m.content for m in fake.dms(CAROL)] == ["FYI"]
    assert fake.dms(BOB) == []


async def test_a_busy_channel_gets_its_post_after_discord_py_gives_up_and_the_reply_goes_on(
    fake: FakeDiscord, client: FcClient, service: Scripted, caplog: pytest.LogCaptureFixture
) -> None:
    """discord.py waits out five 429s itself, then raises: nothing may be dropped for that."""
    busy = 12  # Discord says 429 to more than twice discord.py's five tries
    fake.busy[fake.channel_id] = busy
    service.reply = Reply(
        public=[Message("Alice played", image=png())],
        direct=[Direct(str(BOB.id), Message("Your turn"), turn_notice=True)],
    )
    await dispatch(client, fake.command_payload(ALICE, "play", spot="1", rotation=0))
    [post] = fake.channel_messages()
    assert post.content == "Alice played" and len(post.images()) == 1  # its file sent anew
    assert [m.content for m in fake.dms(BOB)] == ["Your turn"]  # the rest of the reply too
    posts = [r for r in fake.requests if r == ("POST", f"/channels/{fake.channel_id}/messages")]
    assert len(posts) == busy + 1
    assert any("busy" in r.getMessage() for r in caplog.records)
    assert_settled(fake)


async def test_after_a_refused_dm_the_adapter_asks_discord_no_more(
    fake: FakeDiscord, client: FcClient, service: Scripted
) -> None:
    fake.blocked_dms.add(BOB.id)
    service.reply = Reply(direct=[Direct(str(BOB.id), Message("reminder"))])
    await dispatch(client, fake.command_payload(ALICE, "status"))
    assert fake.dm_attempts(BOB) == 1
    assert ("dms_refused", None, f"discord:{BOB.id}") in service.calls
    service.reply = Reply(
        direct=[
            Direct(str(BOB.id), Message("Your turn"), turn_notice=True),
            Direct(str(CAROL.id), Message("FYI")),
        ]
    )
    await dispatch(client, fake.command_payload(ALICE, "play", spot="1"))
    assert fake.dm_attempts(BOB) == 1  # not asked again
    assert ("dm_failed", None, f"discord:{fake.channel_id}:{BOB.id}") in service.calls
    assert [m.content for m in fake.dms(CAROL)] == ["FYI"]


async def test_blocked_plain_direct_is_not_reported(
    fake: FakeDiscord, client: FcClient, service: Scripted
) -> None:
    fake.blocked_dms.add(BOB.id)
    service.reply = Reply(direct=[Direct(str(BOB.id), Message("game over"))])
    await dispatch(client, fake.command_payload(ALICE, "abort"))
    assert not [c for c in service.calls if c[0] == "dm_failed"]


# ---------------------------------------------------------------------- deadlines
async def test_deadline_loop_delivers_discord_replies(
    fake: FakeDiscord, service: Scripted, caplog: pytest.LogCaptureFixture
) -> None:
    channel = str(fake.channel_id)
    service.due = [
        ("discord", channel, Reply(public=[Message(f"{mention('2001')}, your turn!")])),
        ("telegram", "-100", Reply(public=[Message("not ours")])),
        ("discord", channel, Reply(direct=[Direct(str(ALICE.id), Message("reminder"))])),
    ]
    async with logged_in(FcClient(service, deadline_seconds=0.05)), asyncio.timeout(30):
        while not fake.dms(ALICE):
            await asyncio.sleep(0.02)
    assert [m.content for m in fake.channel_messages()] == ["<@2001>, your turn!"]
    assert [m.content for m in fake.dms(ALICE)] == ["reminder"]
    assert [d[0] for d in service.due] == ["telegram"]  # left for the Telegram adapter


async def test_a_busy_channel_holds_up_no_other_channels_deadlines(
    fake: FakeDiscord, service: Scripted
) -> None:
    """Others use up one channel's limit, so Discord tells the bot to wait 3 s before it
    posts there: another channel's deadline found by the same poll goes at once, the polls
    go on (a later deadline of the other channel goes too), and the held one follows."""
    busy, quiet = fake.channel_id, fake.channel_id + 1
    fake.busy[busy], fake.retry_after = 1, 3.0
    async with logged_in(FcClient(service, deadline_seconds=0.05)):
        service.due = [
            ("discord", str(busy), Reply(public=[Message("the busy channel's move")])),
            ("discord", str(quiet), Reply(public=[Message("the quiet channel's move")])),
        ]
        async with asyncio.timeout(10):
            while not fake.channel_messages(quiet):
                await asyncio.sleep(0.01)
            service.due = [("discord", str(quiet), Reply(public=[Message("its next move")]))]
            while len(fake.channel_messages(quiet)) < 2:
                await asyncio.sleep(0.01)
        assert fake.channel_messages(busy) == []  # the busy channel's move still waits
        async with asyncio.timeout(30):
            while not fake.channel_messages(busy):
                await asyncio.sleep(0.05)
    assert [m.content for m in fake.channel_messages(quiet)] == [
        "the quiet channel's move",
        "its next move",
    ]
    assert [m.content for m in fake.channel_messages(busy)] == ["the busy channel's move"]


async def test_build_client_reads_the_dev_guild(
    monkeypatch: pytest.MonkeyPatch, service: Scripted
) -> None:
    from bot.config import Settings

    monkeypatch.setenv("DISCORD_GUILD_ID", "1234")
    client = build_client(Settings(_env_file=None), service)  # type: ignore[call-arg]
    assert client.dev_guild_id == 1234
    await client.close()


async def test_translator_gives_discord_only_what_it_accepts() -> None:
    from discord import Locale, app_commands

    from bot.discord.translator import FcTranslator

    where = app_commands.TranslationContextLocation
    translator = FcTranslator()

    def context(location: app_commands.TranslationContextLocation) -> Any:
        return app_commands.TranslationContext(location=location, data=None)  # type: ignore[call-overload]

    join = app_commands.locale_str("join")
    assert await translator.translate(join, Locale.french, context(where.command_name)) == (
        "rejoindre"
    )
    label = app_commands.locale_str("Join")  # a msgid the French catalogue has
    assert await translator.translate(label, Locale.french, context(where.command_description))
    # "Rejoindre" is no command name for Discord (uppercase): the English one stays.
    assert await translator.translate(label, Locale.french, context(where.command_name)) is None
    # A subcommand group's name is translated (`/fc bot`), but `fc` stays `fc` everywhere.
    computers = app_commands.locale_str("bot")
    assert await translator.translate(computers, Locale.french, context(where.group_name)) == (
        "ordinateur"
    )
    fc = app_commands.locale_str("fc")
    assert await translator.translate(fc, Locale.french, context(where.group_name)) is None
    assert (
        await translator.translate(
            label, Locale.american_english, context(where.command_description)
        )
        is None
    )
    assert (
        await translator.translate(label, Locale.japanese, context(where.command_description))
        is None
    )
    unknown = app_commands.locale_str("no such msgid here")
    assert (
        await translator.translate(unknown, Locale.german, context(where.command_description))
        is None
    )


async def test_messages_waiting_for_discord_are_counted_in_the_metrics(
    fake: FakeDiscord, client: FcClient
) -> None:
    def queued() -> float | None:
        return REGISTRY.get_sample_value("fc_outgoing_queued", {"platform": "discord"})

    assert queued() == 0
    fake.posting.clear()  # Discord answers no post for now
    sending = asyncio.create_task(
        client.delivery.to_channel(str(fake.channel_id), Message("your turn"))
    )
    async with asyncio.timeout(30):
        while ("POST", f"/channels/{fake.channel_id}/messages") not in fake.requests:
            await asyncio.sleep(0.01)
    assert queued() == 1
    fake.posting.set()
    assert await sending is True
    assert queued() == 0
    assert [m.content for m in fake.channel_messages()] == ["your turn"]
