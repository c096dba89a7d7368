"""`python -m bot bench`'s message budget: what a game of one person against three computer
players posts, at the default pace, into its group and into private chats.

The platforms cap what a bot may post (Telegram: about 20 messages a minute into one group;
Discord: about 5 in 5 s into one channel), so the figure that matters is the group's worst
minute and worst 5 s. Posts are counted as each platform's adapter would send the service's
messages (a picture with a long caption is two Telegram posts, say), before the outbox
coalesces anything: what the bot asks of the platform, not what pacing makes of it.

The person answers a few seconds after being asked (`PACES`), quicker than most people, so
the group's rate is near the highest a game reaches; computer players wait the default
pause."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from telegram import Bot

from ..config import Settings
from ..discord.markup import pieces
from ..exchange.actor import Actor
from ..exchange.replies import Message, Reply
from ..games import MODULES, GameModule, Playing, module
from ..load.moves import QuickComputer, open_table, waiting_for
from ..records.table import Table, load_game
from ..service import GameService
from ..store import Channel, Store
from ..telegram.delivery import plan

G = TypeVar("G", bound=Playing)
V = TypeVar("V")
A = TypeVar("A")
PLATFORM = "bench"
PACES = (3.0, 6.0)  # seconds the person takes for each decision: very quick, and quick
STEP = 0.25  # how often the simulated clock looks for deadlines that are due
_BOT = Bot("1:bench")  # builds requests offline; nothing is sent


class _Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


@dataclass(slots=True)
class Posts:
    """When each group post went out (simulated seconds), and the private ones' count."""

    group: dict[str, list[float]] = field(default_factory=lambda: {"telegram": [], "discord": []})
    private: dict[str, int] = field(default_factory=lambda: {"telegram": 0, "discord": 0})
    actions: int = 0  # the game's decisions so far

    def add(self, now: float, reply: Reply) -> None:
        for message in reply.public:
            self.group["telegram"] += [now] * _telegram(message)
            self.group["discord"] += [now] * _discord(message)
        for message in [*reply.private, *(d.message for d in reply.direct)]:
            self.private["telegram"] += _telegram(message, private=True)
            self.private["discord"] += _discord(message)


def _telegram(message: Message, private: bool = False) -> int:
    return len(plan(_BOT, message, private=private))


def _discord(message: Message) -> int:
    return len(list(pieces(message)))


def worst(times: Iterable[float], window: float) -> int:
    """The most posts in any `window` seconds.

    >>> worst([0, 1, 2, 10, 10.5], 5)
    3
    >>> worst([], 60)
    0
    """
    ordered = sorted(times)
    most = start = 0
    for end, time in enumerate(ordered):
        while time - ordered[start] >= window:
            start += 1
        most = max(most, end - start + 1)
    return most


def _state(game_module: GameModule[G, V, A], table: Table, person: str) -> tuple[int, str | None]:
    """How many decisions the game has played, and the person's next one if it waits for
    her (`choose`: the greedy baseline's, as a person playing to win would look for)."""
    game = load_game(game_module, table)
    return game_module.count(game), waiting_for(game_module, table, person, game)


async def _person_turn(service: GameService, channel: str, text: str) -> Reply:
    person = channel + "a"
    actor = Actor(PLATFORM, channel, person, person.upper(), private=True)
    reply = await service.command(actor, f"play {text}")
    if not reply.ok:
        raise RuntimeError(f"the person's move was refused: {reply.private[0].text}")
    return reply


async def _solo(url: str, key: str, think: float, max_actions: int) -> Posts:
    """One whole game (or its first `max_actions` decisions) of one person and computers."""
    store = Store.from_url(url)
    clock = _Clock()
    settings = Settings(_env_file=None)  # type: ignore[call-arg]
    seeds = iter(range(1, 100)).__next__  # the same deal on every run: figures compare
    service = GameService(store, settings, clock=clock, seeds=seeds, computer=QuickComputer())
    channel = f"solo-{key}-{think:g}"
    computers = min(3, module(key).max_players - 1)
    await open_table(service, key, channel, PLATFORM, computers=computers)
    posts = Posts()
    try:
        while posts.actions < max_actions:
            record = await store.load(Channel.of(PLATFORM, channel))
            if record is None:  # over, archived
                break
            table = Table.model_validate_json(record.data)
            posts.actions, text = table.module.visit(_state, table, channel + "a")
            if text is not None:  # the person decides, `think` seconds on
                clock.now += think
                posts.add(clock.now, await _person_turn(service, channel, text))
                continue
            clock.now += STEP
            for _, _, reply in await service.fire_due():
                posts.add(clock.now, reply)
    finally:
        await store.close()
    return posts


async def figures(url: str, max_actions: int = 400) -> dict[str, Any]:
    """Each game's budget at each pace: the group's posts in the whole game, in its worst
    minute (Telegram's limit) and its worst 5 s (Discord's), and the private posts."""
    out: dict[str, Any] = {}
    for think in PACES:
        pace = out.setdefault(f"person_every_{think:g}s", {})
        for key in MODULES:
            posts = await _solo(url, key, think, max_actions)
            game: dict[str, Any] = {"actions": posts.actions}
            for platform, times in posts.group.items():
                game[platform] = {
                    "group_posts": len(times),
                    "group_worst_minute": worst(times, 60),
                    "group_worst_5s": worst(times, 5),
                    "private_posts": posts.private[platform],
                }
            pace[module(key).words[0]] = game
    return out
