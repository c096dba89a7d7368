"""The console adapter: a chat in the terminal, through the real service and Redis."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from bot.config import Settings
from bot.console import Console, run
from bot.service import GameService
from bot.service import results as kept
from bot.store import Channel, Store
from tests.conftest import fixed_seeds
from tests.late_table import advance
from tests.procs import ROOT
from tests.tables import load_game
from tests.test_results_details import keep_result, made_result, person


async def test_a_console_game_starts_and_saves_images(store: Store, tmp_path: Path) -> None:
    config = Settings(_env_file=None)  # type: ignore[call-arg]
    service = GameService(store, config, seeds=fixed_seeds())
    console = Console(service, tmp_path)
    assert any(
        "opens a Forbidden City table" in line for line in await console.handle_line("ann new")
    )
    await console.handle_line("bob join")
    out = await console.handle_line("ann /fc start")
    assert any(line.startswith("[#table] The game begins") for line in out)
    images = sorted(tmp_path.glob("*.png"))
    assert images and images[0].read_bytes()[:4] == b"\x89PNG"
    dm = [line for line in out if line.startswith("[DM ")]
    assert dm and "press fc:sp:table:0:1" in " ".join(dm)  # spot choices, pressable by text
    mover = dm[0].split()[1].rstrip("]")
    picked = await console.handle_line(f"{mover} press fc:sp:table:0:1")
    assert any("press fc:pv:table:0:" in line for line in picked)
    assert await console.handle_line("") == []
    assert "Unknown command" in " ".join(await console.handle_line("ann juggle"))


async def test_run_reads_lines_until_quit(store: Store, tmp_path: Path) -> None:
    config = Settings(_env_file=None)  # type: ignore[call-arg]
    service = GameService(store, config, seeds=fixed_seeds())
    lines = iter(["ann new", "bob join", "quit"])
    said: list[str] = []

    async def read() -> str:
        return next(lines)

    await run(service, tmp_path, read=read, write=said.append)
    assert any("joins the table (2/4)" in line for line in said)


async def test_images_of_a_later_run_never_overwrite_earlier_ones(
    store: Store, tmp_path: Path
) -> None:
    config = Settings(_env_file=None)  # type: ignore[call-arg]
    service = GameService(store, config, seeds=fixed_seeds())
    first = Console(service, tmp_path)
    for line in ("ann new", "bob join", "ann start"):
        await first.handle_line(line)
    earlier = {path: path.read_bytes() for path in tmp_path.glob("*.png")}
    assert earlier
    later = Console(service, tmp_path)  # the next `make run`: a new console, same folder
    await later.handle_line("ann board")
    for path, content in earlier.items():
        assert path.read_bytes() == content, f"{path.name} was overwritten"
    assert len(list(tmp_path.glob("*.png"))) > len(earlier)


async def test_dm_types_in_the_users_private_chat(store: Store, tmp_path: Path) -> None:
    """A secret (a Verbotene Stadt bribe) can be typed on the console, where the table does not
    see it; typed at the table it is refused."""
    config = Settings(_env_file=None)  # type: ignore[call-arg]
    console = Console(GameService(store, config, seeds=fixed_seeds()), tmp_path)
    for line in ("ann new stadt", "bob join", "ann start"):
        await console.handle_line(line)
    at_table = await console.handle_line("ann play bribe RB")
    assert any("private chat" in line for line in at_table)
    secret = await console.handle_line("ann dm play bribe RB")
    assert any(line.startswith("[to ann]") and "RB" in line for line in secret)
    public = [line for line in secret if line.startswith("[#table]")]
    assert public and not any("RB" in line for line in public)
    helped = await console.handle_line("ann help")
    assert any("dm <command>" in line for line in helped)


async def test_names_in_any_script_keep_their_mention(store: Store, tmp_path: Path) -> None:
    config = Settings(_env_file=None)  # type: ignore[call-arg]
    console = Console(GameService(store, config, seeds=fixed_seeds()), tmp_path)
    await console.handle_line("Zoë new")
    joined = await console.handle_line("美玲 join")
    assert joined[0] == "[#table] @美玲 joins the table (2/4). Zoë starts the game with /fc start."
    begun = " ".join(await console.handle_line("zoë start"))
    assert "@zoë" in begun and "u:zoë" not in begun and "u:" not in begun


async def test_a_console_started_again_shows_the_table_and_whose_turn(
    store: Store, tmp_path: Path
) -> None:
    config = Settings(_env_file=None)  # type: ignore[call-arg]
    service = GameService(store, config, seeds=fixed_seeds())
    first = Console(service, tmp_path)
    for line in ("ann new", "bob join", "ann start"):
        await first.handle_line(line)
    said: list[str] = []

    async def read() -> str:
        return "quit"

    await run(service, tmp_path, read=read, write=said.append)  # the next `make run`
    assert any(line.startswith("[#table] The game stands as shown") for line in said)
    prompts = [line for line in said if line.startswith("[DM ")]
    assert prompts and any("press fc:sp:table:0:1" in line for line in prompts)


NAMES = {"NNA": "Ann", "BOB": "Bob"}  # `person`'s seats, and the names they were given


async def test_an_export_is_written_under_the_name_its_message_gives(
    store: Store, tmp_path: Path
) -> None:
    """`python -m engine.<game> replay FILE` works with the FILE the message names; a name
    another file already holds gets a number, and the console names the file it wrote."""
    config = Settings(_env_file=None)  # type: ignore[call-arg]
    service = GameService(store, config, seeds=fixed_seeds())
    result = made_result(7, [person("ann", 1, 30), person("bob", 2, 20)], channel="table")
    await keep_result(store, result)
    await kept.apply(service.ctx, result)
    console = Console(service, tmp_path)
    said = await console.handle_line(f"ann export {result.short}")
    named = re.search(r"replay (\S+\.json)", said[0])
    assert named and Path(named[1]).is_file()  # outside the working folder: its whole path
    assert said[1] == f"[#table] (file: {named[1]})"
    assert json.loads(Path(named[1]).read_text()) == {**result.record, "names": NAMES}
    again = await console.handle_line(f"bob export {result.short}")  # the same record again
    assert again[1] == said[1] and len(list(tmp_path.iterdir())) == 1
    Path(named[1]).write_text("someone else's notes")
    taken = await console.handle_line(f"ann export {result.short}")
    written = Path(taken[1].removeprefix("[#table] (file: ").removesuffix(")"))
    assert written.parent == tmp_path and written != Path(named[1])
    assert json.loads(written.read_text()) == {**result.record, "names": NAMES}
    assert Path(named[1]).read_text() == "someone else's notes"


async def test_the_replay_command_an_export_prints_works_as_printed(
    store: Store, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Typed from where the console runs (the project's folder, its data below it), the
    command the message gives reads the file the console wrote."""
    config = Settings(_env_file=None)  # type: ignore[call-arg]
    service = GameService(store, config, seeds=fixed_seeds())
    result = made_result(7, [person("ann", 1, 30), person("bob", 2, 20)], channel="table")
    await keep_result(store, result)
    await kept.apply(service.ctx, result)
    monkeypatch.chdir(tmp_path)
    console = Console(service, Path("data") / "images")
    said = await console.handle_line(f"ann export {result.short}")
    command = re.search(r"(python -m \S+ replay \S+)", said[0])
    assert command is not None and " data/images/" in command[1]
    printed = command[1].split()[-1]
    assert json.loads((tmp_path / printed).read_text()) == {**result.record, "names": NAMES}
    ran = subprocess.run(  # this record is made up: the engine reads it, then refuses it
        [sys.executable, *command[1].split()[1:]],
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert "cannot read" not in ran.stderr and "not a game record" in ran.stderr


async def test_a_user_is_mentioned_with_at_and_their_name(store: Store, tmp_path: Path) -> None:
    """`bob stats @ann` is about Ann, who has typed here; a name nobody has typed is answered
    privately, and nothing is asked of the bot."""
    config = Settings(_env_file=None)  # type: ignore[call-arg]
    service = GameService(store, config, seeds=fixed_seeds())
    result = made_result(3, [person("ann", 1, 30), person("bob", 2, 20)], channel="table")
    await keep_result(store, result)
    await kept.apply(service.ctx, result)
    console = Console(service, tmp_path)
    await console.handle_line("ann help")
    stats = await console.handle_line("bob stats @Ann")
    assert stats[0].startswith("[#table] Ann: ratings") and "place 1 of 2" in stats[0]
    history = await console.handle_line("bob dm history @ann")
    assert history[0].startswith("[#table] Their last games:") and result.short in history[0]
    unknown = await console.handle_line("bob stats @zed")
    assert unknown == [
        "[to bob] Nobody called zed has typed here yet: a user is named by the first word of "
        "their lines ('zed help'), and mentioned as @zed."
    ]
    assert len(list(tmp_path.glob("*-stats.png"))) == 1  # the bot was asked for one stats only


async def test_a_console_started_again_knows_the_players_it_waits_for(
    store: Store, tmp_path: Path
) -> None:
    config = Settings(_env_file=None)  # type: ignore[call-arg]
    service = GameService(store, config, seeds=fixed_seeds())
    first = Console(service, tmp_path)
    for line in ("ann new", "bob join", "ann start"):
        await first.handle_line(line)
    again = Console(service, tmp_path)  # the next `make run`
    prompted = [line for line in await again.resume() if line.startswith("[DM ")]
    mover = prompted[0].split()[1].rstrip("]")
    stats = await again.handle_line(f"cat stats @{mover}")
    assert stats == ["[#table] No rated games yet for this player."]


async def test_a_name_nobody_typed_is_answered_in_the_chats_language(
    store: Store, tmp_path: Path
) -> None:
    config = Settings(_env_file=None)  # type: ignore[call-arg]
    console = Console(GameService(store, config, seeds=fixed_seeds()), tmp_path)
    await console.handle_line("ann lang fr")
    unknown = await console.handle_line("ann history @zed")
    assert unknown == [
        "[to ann] Personne du nom de zed n'a encore écrit ici : un utilisateur est nommé par "
        "le premier mot de ses lignes ('zed help') et mentionné par @zed."
    ]


async def test_a_page_of_spots_lists_the_spots_then_the_pages(store: Store, tmp_path: Path) -> None:
    config = Settings(_env_file=None)  # type: ignore[call-arg]
    console = Console(GameService(store, config, seeds=fixed_seeds()), tmp_path)
    for line in ("ann new", "bob join", "ann start"):
        await console.handle_line(line)
    late = await advance(store, Channel.of("console", "table"), spots=41)
    mover = late.user_of(load_game(late).current).user_id
    [listed] = [line for line in await console.handle_line(f"{mover} hand") if "press" in line]
    assert listed.index("press fc:sp:") < listed.index("press fc:pg:")
    assert listed.rstrip("]").endswith(f"fc:pg:table:{len(load_game(late).moves)}:1")
