"""The Telegram adapter against a fake Bot API server, with a scripted service.

python-telegram-bot runs for real (HTTP requests, update dispatch, handlers); only the
service is scripted, so each test shows exactly what one `Reply` looks like to users.
"""

from __future__ import annotations

import asyncio
import io
from collections.abc import AsyncIterator
from dataclasses import dataclass, field

import pytest
from PIL import Image

from bot.exchange.actor import Actor
from bot.exchange.replies import Button, Direct, Message, Reply, mention
from bot.store import Claim, Held
from bot.telegram import build_application, run
from bot.telegram.app import command_text, file_url
from bot.telegram.markup import split_text, visible_length
from tests.fake_telegram import BOT_USERNAME, Call, FakeBotApi, Harness, TgUser, settings_for

GROUP = -100_500
ALICE = TgUser(101, "Alice", "A.", "fr")
BOB = TgUser(102, "Bob <&>")


def png(colour: str = "red", size: tuple[int, int] = (40, 30)) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", size, colour).save(out, format="PNG")
    return out.getvalue()


@dataclass
class ScriptedService:
    """Answers every call with the reply set beforehand and records what it was asked."""

    reply: Reply = field(default_factory=Reply)
    dm_reply: Reply = field(default_factory=Reply)
    due: list[tuple[str, str, Reply]] = field(default_factory=list)
    commands: list[tuple[Actor, str]] = field(default_factory=list)
    presses: list[tuple[Actor, str]] = field(default_factory=list)
    dm_failures: list[tuple[str, str, str]] = field(default_factory=list)
    polls: int = 0

    async def command(self, actor: Actor, text: str) -> Reply:
        self.commands.append((actor, text))
        return self.reply

    async def press(self, actor: Actor, data: str) -> Reply:
        self.presses.append((actor, data))
        return self.reply

    async def dm_failed(
        self, platform: str, channel_id: str, user_id: str, link: str | None = None
    ) -> Reply:
        self.dm_failures.append((platform, channel_id, user_id))
        return self.dm_reply

    async def chat_moved(self, platform: str, old_id: str, new_id: str) -> bool:
        return False

    async def place_closed(self, platform: str, channel_id: str) -> Reply:
        return Reply()

    async def claim_delivery(self, platform: str, update_id: int) -> Claim:
        return "claimed"

    async def delivered(self, platform: str, update_id: int) -> None:
        return None

    async def hold(self, job: str, holder: str, seconds: float) -> Held | None:
        return Held(taken=True)  # the only process: it polls

    async def let_go(self, job: str, holder: str) -> None:
        return None

    async def fire_due(self, platform: str | None = None) -> list[tuple[str, str, Reply]]:
        self.polls += 1
        mine = [d for d in self.due if platform is None or d[0] == platform]
        self.due = [d for d in self.due if d not in mine]
        return mine


@pytest.fixture
def service() -> ScriptedService:
    return ScriptedService()


@pytest.fixture
async def bot(api: FakeBotApi, service: ScriptedService) -> AsyncIterator[Harness]:
    async with Harness.running(api, service) as harness:
        yield harness


# ---------------------------------------------------------------------- parsing


def test_command_text_keeps_the_arguments_verbatim() -> None:
    assert command_text("/fc play 2,-1 0") == "play 2,-1 0"
    assert command_text("/fc@FcTestBot  new advanced ") == "new advanced"
    assert command_text("/fc") == ""
    assert command_text("/fc\nhand") == "hand"


def test_file_url_follows_the_api_url() -> None:
    assert file_url("https://api.telegram.org/bot") == "https://api.telegram.org/file/bot"
    assert file_url("http://127.0.0.1:8081/bot") == "http://127.0.0.1:8081/file/bot"


async def test_fc_command_reaches_the_service_with_the_actor(
    bot: Harness, service: ScriptedService
) -> None:
    typed = bot.api.command(GROUP, ALICE, "/fc play 2,-1 0")
    await bot.feed(typed)
    await bot.feed(bot.api.command(GROUP, BOB, f"/fc@{BOT_USERNAME} play 3 1"))
    await bot.feed(bot.api.command(GROUP, BOB, "/fc"))
    assert [text for _, text in service.commands] == ["play 2,-1 0", "play 3 1", ""]
    actor = service.commands[0][0]
    assert (
        actor
        == Actor(
            platform="telegram",
            channel_id=str(GROUP),
            user_id="101",
            name="Alice A.",
            locale="fr",
            is_admin=False,
            private=False,
            community=str(GROUP),
            place=f"group{GROUP}",  # the group's title
            # The command's message, in a supergroup without a public name.
            link=f"https://t.me/c/{str(GROUP)[4:]}/{typed['message']['message_id']}",
        )
    )
    # Admin rights are only looked up for abort.
    assert not [c for c in bot.api.calls if c.method == "getChatMember"]


async def test_commands_for_another_bot_and_edits_are_ignored(
    bot: Harness, service: ScriptedService
) -> None:
    await bot.feed(bot.api.command(GROUP, ALICE, "/fc@SomeOtherBot join"))
    await bot.feed(bot.api.command(GROUP, ALICE, "/fc play 1 0", edited=True))
    await bot.feed(bot.api.command(GROUP, ALICE, "/fcx join"))
    assert service.commands == []
    assert bot.api.sent() == []


async def test_abort_carries_admin_rights(bot: Harness, service: ScriptedService) -> None:
    bot.api.admins.add((GROUP, BOB.id))
    await bot.feed(bot.api.command(GROUP, ALICE, "/fc abort"))
    await bot.feed(bot.api.command(GROUP, BOB, "/fc ABORT"))
    assert [(a.user_id, a.is_admin) for a, _ in service.commands] == [("101", False), ("102", True)]


async def test_start_in_private_shows_the_services_welcome(
    bot: Harness, service: ScriptedService
) -> None:
    service.reply = Reply(private=[Message("Welcome! Commands: ...")])
    await bot.feed(bot.api.command(ALICE.id, ALICE, "/start fc"))
    await bot.feed(bot.api.command(GROUP, ALICE, "/start"))  # not in groups
    assert [(a.private, a.channel_id, t) for a, t in service.commands] == [(True, "101", "help")]
    [welcome] = bot.api.sent()
    assert (welcome.chat_id, welcome.text) == (ALICE.id, "Welcome! Commands: ...")


async def test_anonymous_admins_are_told_to_speak_as_themselves(
    bot: Harness, service: ScriptedService
) -> None:
    update = bot.api.command(GROUP, TgUser(1087968824, "Group"), "/fc join")
    update["message"]["from"]["is_bot"] = True
    update["message"]["sender_chat"] = {"id": GROUP, "type": "supergroup", "title": "g"}
    await bot.feed(update)
    assert service.commands == []
    [note] = bot.api.sent(GROUP)
    assert "as yourself" in note.text


# ---------------------------------------------------------------------- delivery


async def test_public_image_with_caption_mentions_and_buttons(
    bot: Harness, service: ScriptedService
) -> None:
    image = png()
    service.reply = Reply(
        public=[
            Message(
                f"{mention('102')} joins <the> table & waits.",
                image=image,
                buttons=[[Button("Join", "fc:j:1", "primary"), Button("Start", "fc:st:1")]],
                names={"102": "Bob <&>"},
            )
        ]
    )
    await bot.feed(bot.api.command(GROUP, BOB, "/fc join"))
    [post] = bot.api.sent()
    assert post.method == "sendPhoto" and post.chat_id == GROUP
    assert post.photo == image
    assert Image.open(io.BytesIO(post.photo)).size == (40, 30)
    assert post.params["parse_mode"] == "HTML"
    assert post.text == (
        '<a href="tg://user?id=102">Bob &lt;&amp;&gt;</a> joins &lt;the&gt; table &amp; waits.'
    )
    assert post.keyboard == [
        [
            {"text": "Join", "callback_data": "fc:j:1", "style": "primary"},
            {"text": "Start", "callback_data": "fc:st:1"},
        ]
    ]


async def test_choices_become_rows_of_buttons_after_a_long_caption(
    bot: Harness, service: ScriptedService
) -> None:
    choices = [Button(f"Spot {n}", f"fc:sp:1:0:{n}") for n in range(1, 11)]
    text = "Your turn. " + "x" * 1100
    service.reply = Reply(
        private=[Message(text, image=png(), choices=choices, buttons=[[Button("Ok", "fc:ok")]])]
    )
    await bot.feed(bot.api.command(GROUP, ALICE, "/fc hand"))
    photo, words = bot.api.sent()
    # Too long for a caption: the photo alone, then the text with the keyboard.
    assert (photo.method, photo.chat_id, photo.text, photo.keyboard) == (
        "sendPhoto",
        ALICE.id,
        "",
        [],
    )
    assert (words.method, words.chat_id, words.text) == ("sendMessage", ALICE.id, text)
    assert [[b["callback_data"][-2:].lstrip(":") for b in row] for row in words.keyboard] == [
        ["1", "2", "3", "4"],
        ["5", "6", "7", "8"],
        ["9", "10"],
        ["ok"],
    ]


async def test_long_text_is_split_between_lines(bot: Harness, service: ScriptedService) -> None:
    lines = [f"{n}. {mention('101')} " + "rule & more " * 20 for n in range(60)]
    service.reply = Reply(private=[Message("\n".join(lines), names={"101": "Alice"})])
    await bot.feed(bot.api.command(GROUP, ALICE, "/fc rules"))
    parts = bot.api.sent(ALICE.id)
    assert len(parts) > 1
    assert all(len(p.text) <= 4096 for p in parts)
    joined = "".join(p.text for p in parts)
    assert joined.count('<a href="tg://user?id=101">Alice</a>') == 60
    assert "59. " in parts[-1].text


def test_split_text_cuts_an_endless_line_at_words() -> None:
    message = Message("word " * 3000)
    pieces = split_text(message)
    assert len(pieces) == 4
    assert all(visible_length(p) <= 4096 for p in pieces)
    assert "".join(p.text for p in pieces) == message.text


async def test_private_never_falls_back_to_the_group(
    bot: Harness, service: ScriptedService
) -> None:
    bot.api.unreachable.add(ALICE.id)
    secret = png("blue")
    service.reply = Reply(
        public=[Message("Alice looks at her tile.")],
        private=[Message("Your tile: aa..G+1A", image=secret), Message("second")],
    )
    # The service tells the group (once per game) that Alice must open the private chat.
    service.dm_reply = Reply(
        public=[Message(f"{mention('101')}, open a private chat.", names={"101": "Alice A."})]
    )
    await bot.feed(bot.api.command(GROUP, ALICE, "/fc hand"))
    assert service.dm_failures == [("telegram", str(GROUP), "101")]
    group = bot.api.sent(GROUP)
    assert group[0].text == "Alice looks at her tile."
    hint = group[1]
    assert '<a href="tg://user?id=101">Alice A.</a>' in hint.text
    assert all("aa..G" not in c.text and c.photo != secret for c in group)
    assert len(group) == 2
    # The second private message was not even tried once the first could not arrive.
    assert len([c for c in bot.api.calls if c.chat_id == ALICE.id]) == 1


async def test_undeliverable_turn_notice_is_reported_and_the_hint_posted(
    bot: Harness, service: ScriptedService
) -> None:
    bot.api.unreachable.add(BOB.id)
    service.reply = Reply(
        public=[Message("Alice places a tile.")],
        direct=[
            Direct("102", Message("Your turn", image=png()), turn_notice=True),
            Direct("102", Message("FYI")),  # not a turn notice: no report
        ],
    )
    service.dm_reply = Reply(public=[Message(f"{mention('102')}, open a private chat with me.")])
    await bot.feed(bot.api.command(GROUP, ALICE, "/fc play 1 0"))
    assert service.dm_failures == [("telegram", str(GROUP), "102")]
    assert [c.text for c in bot.api.sent(GROUP)] == [
        "Alice places a tile.",
        '<a href="tg://user?id=102">102</a>, open a private chat with me.',
    ]
    assert bot.api.sent(BOB.id) == []


async def test_directs_reach_each_users_private_chat(
    bot: Harness, service: ScriptedService
) -> None:
    service.reply = Reply(
        direct=[Direct("101", Message("to Alice")), Direct("102", Message("to Bob"))]
    )
    await bot.feed(bot.api.command(GROUP, ALICE, "/fc start"))
    assert [(c.chat_id, c.text) for c in bot.api.sent()] == [
        (ALICE.id, "to Alice"),
        (BOB.id, "to Bob"),
    ]


# ---------------------------------------------------------------------- buttons


async def _posted_button(bot: Harness, service: ScriptedService, chat: int) -> Call:
    service.reply = Reply(public=[Message("table", buttons=[[Button("Join", "fc:j:x")]])])
    await bot.feed(bot.api.command(chat, ALICE, "/fc new"))
    post = bot.api.sent()[-1]
    bot.api.clear()
    return post


async def test_refused_press_is_an_alert_and_posts_nothing(
    bot: Harness, service: ScriptedService
) -> None:
    post = await _posted_button(bot, service, GROUP)
    service.reply = Reply.error("You are already at the table. " + "x" * 300)
    await bot.feed(bot.api.press(BOB, post, "fc:j:x"))
    assert service.presses[-1][1] == "fc:j:x"
    [answer] = bot.api.answers()
    assert answer.params["show_alert"] == "true"
    assert answer.params["text"].startswith("You are already at the table.")
    assert len(answer.params["text"]) == 200
    assert bot.api.sent() == []


async def test_an_alert_of_emoji_is_cut_as_telegram_counts(
    bot: Harness, service: ScriptedService
) -> None:
    """Telegram counts an alert's 200 in UTF-16 units: a name of 100 emoji makes a refusal of
    127 characters but 227 units, which it refuses whole. The alert is cut to fit, between
    two emoji, never inside one."""
    post = await _posted_button(bot, service, GROUP)
    name = "🐉🔥" * 50
    service.reply = Reply.error(f"It is {name}'s turn, not yours.")
    await bot.feed(bot.api.press(BOB, post, "fc:j:x"))
    [answer] = bot.api.answers()
    assert answer.delivered, answer.failed
    text = answer.params["text"]
    assert text.startswith("It is 🐉🔥🐉") and text.endswith("…")
    assert len(text.encode("utf-16-le")) // 2 <= 200 < len(text.encode("utf-16-le")) // 2 + 4


async def test_accepted_press_is_answered_then_delivered(
    bot: Harness, service: ScriptedService
) -> None:
    post = await _posted_button(bot, service, GROUP)
    service.reply = Reply(public=[Message("Bob joins (2/4).")])
    await bot.feed(bot.api.press(BOB, post, "fc:j:x"))
    [answer] = bot.api.answers()
    assert "text" not in answer.params
    assert [(c.chat_id, c.text) for c in bot.api.sent()] == [(GROUP, "Bob joins (2/4).")]
    actor = service.presses[-1][0]
    assert (actor.channel_id, actor.user_id, actor.private) == (str(GROUP), "102", False)


async def test_press_in_private_posts_the_move_in_the_games_group(
    bot: Harness, service: ScriptedService
) -> None:
    post = await _posted_button(bot, service, ALICE.id)
    service.reply = Reply(
        public=[Message("Alice places a tile.", image=png())],
        private=[Message("Your next tile", image=png("green"))],
        channel_id=str(GROUP),  # the service names the game's group
    )
    await bot.feed(bot.api.press(ALICE, post, f"fc:ok:{GROUP}:4:1,0@2"))
    assert [(c.chat_id, c.text) for c in bot.api.sent()] == [
        (GROUP, "Alice places a tile."),
        (ALICE.id, "Your next tile"),
    ]


async def test_press_in_a_group_stays_in_that_group(bot: Harness, service: ScriptedService) -> None:
    post = await _posted_button(bot, service, GROUP)
    service.reply = Reply(public=[Message("Bob joins.")])
    await bot.feed(bot.api.press(BOB, post, "fc:j:-999"))  # forged: names another chat
    assert [c.chat_id for c in bot.api.sent()] == [GROUP]


def _menu(text: str) -> Reply:
    """The lobby shown again after a press on it, as the service marks it."""
    buttons = [[Button("Join", "fc:j:x"), Button("Start", "fc:st:x")]]
    return Reply(public=[Message(text, buttons=buttons, in_place=True)])


async def test_a_menu_shown_again_edits_the_message_pressed(
    bot: Harness, service: ScriptedService
) -> None:
    post = await _posted_button(bot, service, GROUP)
    service.reply = _menu("Bob joins the table (2/4).")
    await bot.feed(bot.api.press(BOB, post, "fc:j:x"))
    assert bot.api.sent(GROUP) == []  # the group gets no new message
    [lobby] = bot.api.shown(GROUP)
    assert lobby["message_id"] == post.result["message_id"]
    assert lobby["text"] == "Bob joins the table (2/4)."
    rows = lobby["reply_markup"]["inline_keyboard"]
    assert [[b["callback_data"] for b in row] for row in rows] == [["fc:j:x", "fc:st:x"]]
    # The same lobby again (a press Telegram delivered twice) is no error and no message.
    await bot.feed(bot.api.press(BOB, post, "fc:j:x"))
    assert bot.api.sent(GROUP) == [] and len(bot.api.edits(GROUP)) == 1


async def test_a_menu_telegram_will_not_edit_is_sent_anew(
    bot: Harness, service: ScriptedService
) -> None:
    post = await _posted_button(bot, service, GROUP)
    del bot.api.kept[(GROUP, post.result["message_id"])]  # deleted by an admin meanwhile
    service.reply = _menu("Bob joins the table (2/4).")
    await bot.feed(bot.api.press(BOB, post, "fc:j:x"))
    [anew] = bot.api.sent(GROUP)
    assert anew.text == "Bob joins the table (2/4)." and anew.buttons


async def test_a_menu_typed_or_pressed_elsewhere_is_a_new_message(
    bot: Harness, service: ScriptedService
) -> None:
    service.reply = _menu("Bob joins the table (2/4).")
    await bot.feed(bot.api.command(GROUP, BOB, "/fc join"))  # typed: nothing to edit
    assert [c.text for c in bot.api.sent(GROUP)] == ["Bob joins the table (2/4)."]
    bot.api.clear()
    post = await _posted_button(bot, service, ALICE.id)  # a button in a private chat
    service.reply = _menu("Alice joins the table (2/4).")
    service.reply.channel_id = str(GROUP)
    await bot.feed(bot.api.press(ALICE, post, f"fc:j:{GROUP}"))
    assert [c.text for c in bot.api.sent(GROUP)] == ["Alice joins the table (2/4)."]
    assert bot.api.edits() == []


# ---------------------------------------------------------------------- deadlines, polling


async def test_deadline_poller_delivers_this_platforms_replies(
    api: FakeBotApi, service: ScriptedService
) -> None:
    service.due = [
        ("discord", "555", Reply(public=[Message("not for Telegram")])),
        ("telegram", str(GROUP), Reply(public=[Message(f"{mention('101')} is late.")])),
        ("telegram", str(GROUP), Reply(direct=[Direct("102", Message("Reminder: your turn"))])),
    ]
    app = build_application(settings_for(api), service, deadline_interval=0.05)
    async with app:
        assert app.post_init is not None and app.post_stop is not None
        await app.post_init(app)
        for _ in range(100):
            if service.polls >= 2:
                break
            await asyncio.sleep(0.02)
        await app.post_stop(app)
    assert service.polls >= 2
    assert [(c.chat_id, c.text) for c in api.sent()] == [
        (GROUP, '<a href="tg://user?id=101">101</a> is late.'),
        (BOB.id, "Reminder: your turn"),
    ]
    assert any(c.method == "setMyCommands" for c in api.calls)


async def test_a_group_at_its_limit_holds_up_no_other_groups_deadlines(
    api: FakeBotApi, service: ScriptedService
) -> None:
    """Twenty messages just went to one group, so the bot's limiter holds that group's next
    one for about 3 s: another group's deadline found by the same poll goes at once, the
    polls go on, and the held one follows the twenty, in order."""
    api.allow(group=40)  # only the bot's own limiter holds the group back here
    quiet = GROUP - 1
    app = build_application(settings_for(api), service, deadline_interval=0.05)
    async with app:
        assert app.post_init is not None and app.post_stop is not None
        delivery = app.bot_data["adapter"].delivery
        for n in range(20):
            await delivery.public(str(GROUP), Message(f"m{n}"))
        service.due = [
            ("telegram", str(GROUP), Reply(public=[Message("the busy group's move")])),
            ("telegram", str(quiet), Reply(public=[Message("the quiet group's move")])),
        ]
        await app.post_init(app)
        async with asyncio.timeout(10):
            while not api.sent(quiet):
                await asyncio.sleep(0.01)
            polls = service.polls
            while service.polls < polls + 2:
                await asyncio.sleep(0.01)
        assert len(api.sent(GROUP)) == 20  # the busy group's move still waits its turn
        async with asyncio.timeout(30):
            while len(api.sent(GROUP)) < 21:
                await asyncio.sleep(0.05)
        await app.post_stop(app)
    assert [c.text for c in api.sent(quiet)] == ["the quiet group's move"]
    assert [c.text for c in api.sent(GROUP)] == [f"m{n}" for n in range(20)] + [
        "the busy group's move"
    ]


async def test_run_long_polls_until_stopped(api: FakeBotApi, service: ScriptedService) -> None:
    service.reply = Reply(public=[Message("Forbidden City table opened.")])
    stop = asyncio.Event()
    runner = asyncio.create_task(run(settings_for(api), service, stop))
    api.serve_update(api.command(GROUP, ALICE, "/fc new advanced"))
    for _ in range(200):
        if api.sent(GROUP):
            break
        await asyncio.sleep(0.02)
    stop.set()
    await asyncio.wait_for(runner, 10)
    assert [t for _, t in service.commands] == ["new advanced"]
    assert [c.text for c in api.sent(GROUP)] == ["Forbidden City table opened."]
    polls = [c for c in api.calls if c.method == "getUpdates"]
    assert polls and set(polls[0].params["allowed_updates"]) == {"message", "callback_query"}


@dataclass
class RoutedReply(Reply):
    """A reply naming its game's channel, as proposed for the contract."""

    channel_id: str = ""


async def test_a_reply_naming_its_channel_is_posted_there(
    bot: Harness, service: ScriptedService
) -> None:
    service.reply = RoutedReply(
        public=[Message("Alice places a tile.")],
        private=[Message("Your next tile")],
        channel_id=str(GROUP),
    )
    await bot.feed(bot.api.command(ALICE.id, ALICE, "/fc play 1 0"))  # typed in private
    assert [(c.chat_id, c.text) for c in bot.api.sent()] == [
        (GROUP, "Alice places a tile."),
        (ALICE.id, "Your next tile"),
    ]
