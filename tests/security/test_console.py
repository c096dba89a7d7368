"""The console adapter against hostile user names and forged buttons: every line typed gets an
answer and the console goes on working; `forget me` confirms from a user's private chat, while
button data that names no button of the bot is still refused. Real service, real Redis."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.config import Settings
from bot.console import Console
from bot.service import GameService
from bot.service import results as kept
from bot.store import Channel, Store
from tests.conftest import fixed_seeds
from tests.test_results_details import keep_result, made_result, person

HOSTILE = ["javascript:alert(1)", "a:b", "../x", "<script>"]
NOT_VALID = "This button is not valid."
_BUTTON = re.compile(r"\[([^\[\]]+?): press (\S+?)\]")


def console_on(store: Store, tmp_path: Path) -> Console:
    config = Settings(_env_file=None)  # type: ignore[call-arg]
    return Console(GameService(store, config, seeds=fixed_seeds()), tmp_path / "images")


def said(lines: list[str]) -> str:
    assert lines, "the console said nothing"
    return "\n".join(lines)


def button(lines: list[str], label: str) -> str:
    """The data of the button with that label, as the console shows it."""
    found = [data for line in lines for shown, data in _BUTTON.findall(line) if shown == label]
    assert found, lines
    return str(found[0])


async def test_users_with_hostile_names_play_a_game(store: Store, tmp_path: Path) -> None:
    """`javascript:alert(1)` crashed the console (a `:` in a user id): such names sit, play,
    are mentioned and shown as typed, and files stay in the images folder."""
    console = console_on(store, tmp_path)
    opened = said(await console.handle_line(f"{HOSTILE[0]} new"))
    assert f"@{HOSTILE[0]} opens a Forbidden City table" in opened
    for number, name in enumerate(HOSTILE[1:], start=2):
        assert f"@{name} joins the table ({number}/4)" in said(
            await console.handle_line(f"{name} join")
        )
    begun = await console.handle_line(f"{HOSTILE[0]} start")
    assert said(begun).startswith("[#table] The game begins!")
    assert all(f"@{name}" in begun[0] for name in HOSTILE)
    [prompt] = [line for line in begun if line.startswith("[DM ") and "press fc:sp:" in line]
    mover = prompt.removeprefix("[DM ").split("] ")[0]
    assert mover in HOSTILE  # named as typed: the name answers the prompt
    first_spot = _BUTTON.findall(prompt)[0][1]
    picked = await console.handle_line(f"{mover} press {first_spot}")
    assert "press fc:pv:table:" in said(picked) or "press fc:ok:table:" in said(picked)
    stats = await console.handle_line(f"{HOSTILE[2]} stats @{HOSTILE[1]}")
    assert stats == ["[#table] No rated games yet for this player."]
    board = said(await console.handle_line(f"{HOSTILE[3]} board"))
    assert "[#table]" in board and "(image: " in board
    assert [p.name for p in tmp_path.iterdir()] == ["images"]  # nothing written beside it


@pytest.mark.parametrize(
    ("line", "answer"),
    [
        ("   bob    help   ", "[to bob] Forbidden City commands"),  # spaces around
        ("bob\tstats", "[#table] No rated games yet for Bob."),  # a tab between
        ("\u200b help", "[to \u200b] Forbidden City commands"),  # looks empty, is a name
        ("\x00\x07 help", "Type '<user> <command>', e.g. 'ann help'."),  # no name at all
        ("z" * 3000 + " join", "joins the table (2/4)"),  # very long
        ("a:b dm help", "[to a:b] Forbidden City commands"),  # a private chat of its own
        ("../x dm lang de", "[#table] Dieser Chat spielt jetzt auf Deutsch."),
        ("<script> stats @a:b", "[to <script>] Nobody called a:b has typed here yet"),
        ("a%3Ab stats @", "[to a%3ab] Name the player by mentioning them"),
    ],
)
async def test_every_odd_name_is_answered_and_the_console_goes_on(
    store: Store, tmp_path: Path, line: str, answer: str
) -> None:
    console = console_on(store, tmp_path)
    assert "opens a Forbidden City table" in said(await console.handle_line("ann new"))
    assert answer in said(await console.handle_line(line))
    table = said(await console.handle_line("ann board"))  # still working, the table as it was
    assert table.startswith("[to ann] Waiting for Ann to start (")
    assert "Forbidden City commands" in said(await console.handle_line("cat help"))


async def test_names_with_a_colon_or_percent_are_people_of_their_own(
    store: Store, tmp_path: Path
) -> None:
    """`a:b` and `a%3Ab` are two users, each answered under the name they typed."""
    console = console_on(store, tmp_path)
    await console.handle_line("a:b new")
    joined = await console.handle_line("a%3Ab join")
    assert joined[0] == "[#table] @a%3ab joins the table (2/4). A:b starts the game with /fc start."
    refused = await console.handle_line("a%3Ab start")
    assert refused[0].startswith("[to a%3ab] ") and "game begins" not in said(refused)


async def kept_game(console: Console, store: Store) -> str:
    """Ann and Bob finished a game here: kept and rated. Its short id."""
    result = made_result(3, [person("ann", 1, 30), person("bob", 2, 20)], channel="table")
    await keep_result(store, result)
    await kept.apply(console.service.ctx, result)
    await console.handle_line("ann help")  # Ann has typed here: @ann names her
    return result.short


async def test_forget_me_is_confirmed_in_the_users_private_chat(
    store: Store, tmp_path: Path
) -> None:
    console = console_on(store, tmp_path)
    await kept_game(console, store)
    asked = await console.handle_line("ann dm forget me")
    assert asked[0].startswith("[to ann] Forget you?")
    data = button(asked, "Yes, forget me")
    assert data == "fc:fg:dm-ann:0:ann"  # made in her private chat, which it names
    stranger = await console.handle_line(f"bob dm press {data}")
    assert stranger == ["[to bob] Only the person who asked can confirm this."]
    assert (await console.handle_line("bob stats @ann"))[0].startswith("[#table] Ann: ratings")
    assert await console.handle_line(f"ann dm press {data}") == [
        "[to ann] Done: you are forgotten."
    ]
    assert await console.handle_line("bob stats @ann") == [
        "[#table] No rated games yet for this player."
    ]
    assert "(anonymous)" in said(await console.handle_line("bob history"))


async def test_forget_me_answers_in_the_private_chats_language_and_forgets_it(
    store: Store, tmp_path: Path
) -> None:
    """The private chat's own settings are named by the user (`dm-ann`): they go too."""
    console = console_on(store, tmp_path)
    await kept_game(console, store)
    await console.handle_line("ann dm lang fr")
    private = Channel.of("console", "dm-ann")
    assert await store.client.exists(private.settings_key) == 1
    data = button(await console.handle_line("ann dm forget me"), "Oui, m’oublier")
    done = await console.handle_line(f"ann dm press {data}")
    assert done == ["[to ann] C’est fait : vous êtes oublié."]
    assert await store.client.exists(private.settings_key) == 0


@pytest.mark.parametrize(
    "data",
    [
        "fc:fg:dm-ann:0:ann\n",  # a line break after the data
        "fc:fg:table:0:ann\n",
        "fc:fg:-:0:ann",  # a channel of only a dash
        "fc:fg:dm:ann:0:ann",  # a separator inside the channel
        "fc:fg:dm-ann/../x:0:ann",
        "fc:fg:dm ann:0:ann",
        "fc:fg:dm-" + "a" * 30 + ":0:ann",  # longer than any channel id
        "fc:fg:dm-ann:0:ann:ann",
        "fc:fg:dm-ann:0:a:b",
        "fc:fg:dm-ann:0:",
    ],
)
async def test_forged_forget_buttons_are_refused_and_forget_nobody(
    store: Store, tmp_path: Path, data: str
) -> None:
    console = console_on(store, tmp_path)
    await kept_game(console, store)
    await console.handle_line("ann dm forget me")
    actor = console._actor("ann", private=True)
    refused = await console.service.press(actor, data)
    assert [m.text for m in refused.private] == [NOT_VALID]
    assert (await console.handle_line("bob stats @ann"))[0].startswith("[#table] Ann: ratings")
