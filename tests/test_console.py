"""The console adapter: a chat in the terminal, through the real service and Redis."""

from __future__ import annotations

from pathlib import Path

from bot.config import Settings
from bot.console import Console, run
from bot.service import GameService
from bot.store import Channel, Store
from tests.conftest import fixed_seeds
from tests.late_table import advance
from tests.tables import load_game


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
