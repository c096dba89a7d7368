"""How a game plugs into the bot: one module per game, one small interface.

The service (`bot/service/`) runs what every game needs: the lobby and seats, languages, private
notices and reminders, time limits and votes, the archive, the store and the replies. It knows no
rules. Everything that depends on a game goes through its module, found by the key stored with
the table (`MODULES`):

- `GameInfo`, what needs no game: what `/fc new` accepts (`words`, `options`, and `new_options`
  for platforms with typed options), how many may sit, the `help` and `rules` texts;
- `GameModule[G, V, A]`, over the game `G`, its seat view `V` and its action `A`, the union of
  four protocols:
  - `Rules`, what the engine says: `new_game`, `load` / `dump` for the store, `count`, `view`,
    `observe` (what a computer player is given), `parse_action`, `act` (plays an action and
    says it), `after_play` (what the table does by itself); when a turn runs out, `on_limit`
    (the seat's decision is made for it, `"default"`, or the others `"vote"`) and `stand_in`
    (the action played for it); once over, `outcome` (scores, winners, partners, for the kept
    result and ratings), `replay_views` (the public view after each action of a stored record)
    and `replay_log` (those actions as the table saw them);
  - `Words`, what the table is told: `begin_text`, `next_text`, `final_text`, `status_text`,
    `default_text`, `explain` (the engine's refusal), `log_words`;
  - `Pictures`, what is shown: `table_image`, `table_svg`, `sidebar`, `final_image` and
    `replay_image` (drawn from public views), and privately `prompt` (the seat must decide: its
    view's image, buttons or menus of legal choices), `private` (`/fc hand`) and `after_own`;
  - `Inputs`, how actions arrive: `typed` (the words after `/fc play`), `pressed` (a button of
    the game's own kinds, `button_kinds`), `complete` (autocomplete).
  `engine` names the command line that loads an export.

A game writes only what is its own: `EngineModule` (`bot/games/base.py`) gives `visit`, the
engine's `view`, `observe` and `parse_action`, and the usual answers (no options, no forced
moves, a vote at the limit...).

The service holds a module as a `GameInfo` and reaches its typed side through `visit`, which
hands the module to a function generic over `G`, `V` and `A`: the game's types stay the game's,
and nothing in between is `Any`. A third game adds its engine, its render package, a module here
registered in `MODULES` and its catalogue entries; nothing else changes.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Literal, ParamSpec, Protocol, Self, TypeVar

from engine.core.errors import IllegalMove
from engine.core.shape import ToAct

from ..exchange.replies import Message, Reply, mention
from .sidebar import Sidebar

# Modules by key (stored with each table); the first is the default of `/fc new`.
MODULES: dict[str, str] = {
    "forbidden_city": "bot.games.forbidden_city",
    "verbotene_stadt": "bot.games.verbotene_stadt",
}
DEFAULT = "forbidden_city"

# The engine's record as stored with the table: JSON, opaque to everything but its module.
Record = dict[str, object]


class Playing(Protocol):
    """What the service reads of any game: its seats, seed, who must act, whether it is over,
    and a copy of it."""

    @property
    def players(self) -> Sequence[str]: ...

    @property
    def seed(self) -> int: ...

    @property
    def to_act(self) -> list[ToAct]: ...

    @property
    def is_over(self) -> bool: ...

    def copy(self) -> Self:
        """An independent game in the same state, without replaying (`bot.records.replayed`)."""
        ...


G = TypeVar("G", bound=Playing)
V = TypeVar("V")
A = TypeVar("A")
P = ParamSpec("P")
R = TypeVar("R")
R_co = TypeVar("R_co", covariant=True)
G_contra = TypeVar("G_contra", bound=Playing, contravariant=True)
V_contra = TypeVar("V_contra", contravariant=True)
A_co = TypeVar("A_co", covariant=True)


@dataclass(frozen=True, slots=True)
class At:
    """A game module's view of the table it serves: language, channel and who sits where.

    `count` is how many actions the game has played: buttons carry it so a stale one is
    refused. `words` translates image labels (gettext of `lang`). `private` says the command
    was typed in a private chat, where a secret may be typed without the table seeing it.
    """

    lang: str
    channel_id: str
    users: dict[str, str]  # engine seat -> user id, for the seats people play now
    names: dict[str, str]  # engine seat -> display name
    count: int = 0
    words: Callable[[str], str] = field(default=lambda text: text)
    private: bool = False
    # Whether private messages need their pictures: not for the player's own page, which
    # draws the board from its SVG and the tray (`Message.board`, `Message.tray`).
    pictures: bool = True

    def name(self, seat: str) -> str:
        return self.names.get(seat, seat)

    def mention(self, seat: str) -> str:
        user = self.users.get(seat)
        return mention(user) if user is not None else self.name(seat)

    def user_names(self) -> dict[str, str]:
        """User id -> name, for the mentions of a message."""
        return {self.users[s]: n for s, n in self.names.items() if s in self.users}


@dataclass(frozen=True, slots=True)
class Acted:
    """An action played: what the channel is told, and whether its image is worth posting."""

    lines: list[str]
    draws: bool = True


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a game finished, or stood when its players ended it: what results and ratings
    need. `winners` is empty if the game did not say (ended early): the scores decide."""

    scores: dict[str, int]
    winners: list[str]
    teams: list[tuple[str, ...]]  # partners, who share one place


@dataclass(frozen=True, slots=True)
class NewOption:
    """An option of `/fc new` for platforms that type their options (Discord): a choice of
    words, or a flag whose word is its name. Names and texts are message ids."""

    name: str
    description: str
    choices: tuple[str, ...] = ()  # empty: a flag


class Visitor(Protocol[P, R_co]):
    """A function over any game's module (see `GameInfo.visit`)."""

    def __call__(
        self, module: GameModule[G, V, A], /, *args: P.args, **kwargs: P.kwargs
    ) -> R_co: ...


class GameInfo(Protocol):
    key: str
    title: str  # a message id, translated where shown
    byline: str  # the title with its authors, a message id (Discord's choice of game)
    words: tuple[str, ...]  # what `/fc new <word>` accepts for this game
    new_options: tuple[NewOption, ...]  # its options, for Discord's `/fc new`
    min_players: int
    max_players: int
    help: tuple[str, ...]  # message ids, one line each
    rules: tuple[str, ...]
    button_kinds: frozenset[str]  # the `fc:<kind>:...` buttons this game answers
    secret: str  # what a seat keeps hidden ("your tile"), a message id for notices
    engine: str  # `python -m <engine> replay FILE` steps through an exported game
    web_board: str  # the page's picture of the table: "svg" (`table_svg`) or "png"

    def options(self, args: list[str], players: int, lang: str) -> dict[str, str]:
        """The options typed after the game's name at `/fc new`; `Refused` if wrong."""
        ...

    def options_text(self, options: dict[str, str], lang: str) -> str:
        """The options in words, for the opening message (may be empty)."""
        ...

    def seats(self, options: dict[str, str]) -> tuple[int, int]:
        """How many may sit at a table with these options: the fewest and the most."""
        ...

    def check_start(self, options: dict[str, str], players: int, lang: str) -> None:
        """`Refused` if the game cannot start with these options and this many players."""
        ...

    def visit(self, visitor: Visitor[P, R], /, *args: P.args, **kwargs: P.kwargs) -> R:
        """`visitor(self, *args, **kwargs)`, with this module's own game, view and action
        types: how the service works on a game it knows nothing of, fully typed."""
        ...


class Rules(Protocol[G, V, A]):
    """What the engine says: a new game, its record, its views, its actions and its end."""

    def new_game(self, seats: int, options: dict[str, str], seed: int) -> G: ...

    def load(self, data: Record) -> G:
        """The game from its stored record (`CorruptRecord` if it does not replay)."""
        ...

    def dump(self, game: G) -> Record: ...

    def count(self, game: G) -> int:
        """Actions played so far."""
        ...

    def view(self, game: G, seat: str | None) -> V:
        """What `seat` may know (None: the table's public view), as the images draw it."""
        ...

    def observe(self, game: G, seat: str) -> object:
        """All a computer player in `seat` is given: that seat's view and what it has seen."""
        ...

    def parse_action(self, text: str) -> A:
        """An action from its notation (a computer player's decision comes back as text)."""
        ...

    def act(self, at: At, game: G, seat: str, action: A) -> Acted:
        """Plays `action` for `seat` and says what happened; `IllegalMove` changes nothing."""
        ...

    def after_play(self, at: At, game: G) -> list[str]:
        """Plays what the table does by itself after an action (forced moves), in words."""
        ...

    def on_limit(self, kind: str) -> Literal["vote", "default"]:
        """At the turn limit: the others vote, or the decision is made for the seat."""
        ...

    def stand_in(self, game: G, seat: str, rng: random.Random) -> A:
        """The action played for a seat that did not decide in time (or voted away)."""
        ...

    def outcome(self, game: G) -> Outcome: ...

    def replay_views(self, data: Record) -> list[V]:
        """The public view at the start and after every action of a stored record: all a
        replay may show (`CorruptRecord` if it does not replay)."""
        ...

    def replay_log(self, data: Record) -> list[tuple[str, str]]:
        """Each action of a stored record as the table saw it: the seat and the action in the
        game's notation, what a seat kept hidden hidden (`CorruptRecord` if it does not
        replay)."""
        ...


class Words(Protocol[G_contra]):
    """What the table is told, in words."""

    def begin_text(self, at: At, game: G_contra) -> str:
        """The channel's words when the game begins: the seats in order, who starts."""
        ...

    def explain(self, err: IllegalMove, lang: str) -> str:
        """The engine's refusal in the user's language."""
        ...

    def next_text(self, at: At, game: G_contra) -> str:
        """Who the game waits for now, in words (for the channel)."""
        ...

    def log_words(self, at: At, data: Record) -> list[str]:
        """Every action of the game of `data` in the sentences the chat was told, in order
        (replayed from the record: the chat's own words, so nothing secret)."""
        ...

    def final_text(self, at: At, game: G_contra, voted_end: bool) -> str: ...

    def status_text(self, at: At, game: G_contra, waited: str) -> str:
        """Scores and whose turn; `waited` is when the turn started and how long it has
        left, in words ("turn started 3 h ago, 2 d 21 h left")."""
        ...

    def default_text(self, at: At, game: G_contra, seat: str, kind: str) -> str:
        """The channel's words when a decision was made for `seat` at the limit."""
        ...


class Pictures(Protocol[G_contra, V_contra]):
    """What the table and each seat are shown: images from views, private messages."""

    def table_image(self, at: At, view: V_contra) -> bytes:
        """The channel's image, from the public view."""
        ...

    def table_svg(self, at: At, view: V_contra) -> str:
        """The board as SVG for the web page, from the public view: crisp at any size
        (only asked of a game whose `web_board` is "svg")."""
        ...

    def sidebar(self, at: At, view: V_contra) -> Sidebar:
        """What the page shows beside the board, from the public view: what the channel's
        picture shows around it (seats, scores, dice...), as words and small pieces."""
        ...

    def final_image(self, at: At, view: V_contra, voted_end: bool) -> bytes:
        """The last table, from the public view."""
        ...

    def replay_image(self, at: At, views: Sequence[V_contra]) -> bytes:
        """The views drawn as the channel sees them, as one animation (a GIF)."""
        ...

    def prompt(self, at: At, game: G_contra, seat: str, reminder: bool) -> Message:
        """What `seat` must decide now, privately: text, its view's image, its choices."""
        ...

    def private(self, at: At, game: G_contra, seat: str) -> Message:
        """`/fc hand`: what the seat alone may see, when it is not asked to decide."""
        ...

    def after_own(self, at: At, game: G_contra, seat: str) -> list[Message]:
        """Private news for the seat that just acted (a new tile), if any."""
        ...


class Inputs(Protocol[G_contra, A_co]):
    """How actions arrive: typed, pressed, completed."""

    def typed(self, at: At, game: G_contra, seat: str, args: list[str]) -> A_co:
        """The action meant by `/fc play <args>`; `Refused` explains a mistake."""
        ...

    def pressed(
        self, at: At, game: G_contra, seat: str, kind: str, count: int, payload: str
    ) -> A_co | Reply:
        """A game button: an action to play, or a private reply (a menu, a preview)."""
        ...

    def complete(self, at: At, game: G_contra, seat: str, text: str) -> list[tuple[str, str]]: ...


class GameModule(
    GameInfo, Rules[G, V, A], Words[G], Pictures[G, V], Inputs[G, A], Protocol[G, V, A]
):
    """All of a game the service uses: its `GameInfo`, `Rules`, `Words`, `Pictures` and
    `Inputs`, over its game `G`, seat view `V` and action `A`."""


def module(key: str) -> GameInfo:
    """The module of game `key` (imported on first use)."""
    found = importlib.import_module(MODULES[key])
    game_module: GameInfo = found.MODULE
    return game_module


def by_word(word: str) -> GameInfo | None:
    """The game `/fc new <word>` names, if any."""
    for key in MODULES:
        game_module = module(key)
        if word.lower() in game_module.words:
            return game_module
    return None
