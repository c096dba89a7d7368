"""How a game plugs into the bot: one module per game, one small interface.

The service (`bot/service.py`) runs what every game needs: the lobby and seats, languages,
private notices and reminders, time limits and votes, the archive, the store and the replies.
It knows no rules. Everything that depends on a game goes through its `GameModule`, found by the
key stored with the table (`MODULES`):

- what `/fc new` accepts (`words`, `options`), how many may sit (`min_players`, `max_players`),
  and `help` / `rules` texts;
- the engine: `new_game`, `load` / `dump` for the store; the game itself follows
  `engine.core.shape.Engine` (`to_act`, `legal_actions`, `play`, `view`, ...), which the service
  uses to learn who must act now;
- how actions arrive: `typed` (the words after `/fc play`), `pressed` (a button of the game's own
  kinds, `button_kinds`), `complete` (autocomplete);
- what the table hears and sees: `announce` (the words after each action), `table_image` (from
  the public view), `final_text` / `final_image`, `status_text`;
- what each seat is shown privately: `prompt` (the seat must decide: its view's image, buttons
  or menus of legal choices), `private` (`/fc hand`), `after_own` (after the seat's own action);
- when a turn runs out: `on_limit` says whether the seat's decision is made for it (`"default"`)
  or the others vote (`"vote"`); `stand_in` is the action played for it.

Images come from views (`game.view(None)` for the channel, `game.view(seat)` for one seat), so a
secret never reaches a picture it does not belong in. A third game adds its engine, its render
package, a module here and its catalogue entries; nothing else changes.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

from engine.core.errors import IllegalMove

from ..replies import Message, Reply, mention

# Modules by key (stored with each table); the first is the default of `/fc new`.
MODULES: dict[str, str] = {
    "forbidden_city": "bot.games.forbidden_city",
    "verbotene_stadt": "bot.games.verbotene_stadt",
}
DEFAULT = "forbidden_city"


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

    def name(self, seat: str) -> str:
        return self.names.get(seat, seat)

    def mention(self, seat: str) -> str:
        user = self.users.get(seat)
        return mention(user) if user is not None else self.name(seat)

    def user_names(self) -> dict[str, str]:
        """User id -> name, for the mentions of a message."""
        return {self.users[s]: n for s, n in self.names.items() if s in self.users}


class GameModule(Protocol):
    key: str
    title: str  # a message id, translated where shown
    byline: str  # the title with its authors, a message id (Discord's choice of game)
    words: tuple[str, ...]  # what `/fc new <word>` accepts for this game
    min_players: int
    max_players: int
    help: tuple[str, ...]  # message ids, one line each
    rules: tuple[str, ...]
    button_kinds: frozenset[str]  # the `fc:<kind>:...` buttons this game answers
    secret: str  # what a seat keeps hidden ("your tile"), a message id for notices

    def options(self, args: list[str], players: int, lang: str) -> dict[str, str]:
        """The options typed after the game's name at `/fc new`; `Refused` if wrong."""
        ...

    def options_text(self, options: dict[str, str], lang: str) -> str:
        """The options in words, for the opening message (may be empty)."""
        ...

    def check_start(self, options: dict[str, str], players: int, lang: str) -> None:
        """`Refused` if the game cannot start with these options and this many players."""
        ...

    def new_game(self, seats: int, options: dict[str, str], seed: int) -> Any: ...

    def load(self, data: dict[str, Any]) -> Any:
        """The game from its stored record (`CorruptRecord` if it does not replay)."""
        ...

    def dump(self, game: Any) -> dict[str, Any]: ...

    def count(self, game: Any) -> int:
        """Actions played so far."""
        ...

    def begin_text(self, at: At, game: Any) -> str:
        """The channel's words when the game begins: the seats in order, who starts."""
        ...

    def typed(self, at: At, game: Any, seat: str, args: list[str]) -> Any:
        """The action meant by `/fc play <args>`; `Refused` explains a mistake."""
        ...

    def pressed(
        self, at: At, game: Any, seat: str, kind: str, count: int, payload: str
    ) -> Any | Reply:
        """A game button: an action to play, or a private reply (a menu, a preview)."""
        ...

    def complete(self, at: At, game: Any, seat: str, text: str) -> list[tuple[str, str]]: ...

    def explain(self, err: IllegalMove, lang: str) -> str:
        """The engine's refusal in the user's language."""
        ...

    def after_play(self, at: At, game: Any) -> list[str]:
        """Plays what the table does by itself after an action (forced moves), in words."""
        ...

    def announce(self, at: At, game: Any, results: list[Any]) -> list[str]:
        """What the channel is told of these action results."""
        ...

    def draws(self, results: list[Any]) -> bool:
        """Whether these results change the table enough to post its image."""
        ...

    def next_text(self, at: At, game: Any) -> str:
        """Who the game waits for now, in words (for the channel)."""
        ...

    def table_image(self, at: At, game: Any) -> bytes:
        """The channel's image, from the public view."""
        ...

    def final_text(self, at: At, game: Any, voted_end: bool) -> str: ...

    def final_image(self, at: At, game: Any, voted_end: bool) -> bytes: ...

    def status_text(self, at: At, game: Any, waited: str) -> str:
        """Scores and whose turn; `waited` is how long the turn has lasted, in words."""
        ...

    def prompt(self, at: At, game: Any, seat: str, reminder: bool) -> Message:
        """What `seat` must decide now, privately: text, its view's image, its choices."""
        ...

    def private(self, at: At, game: Any, seat: str) -> Message:
        """`/fc hand`: what the seat alone may see, when it is not asked to decide."""
        ...

    def after_own(self, at: At, game: Any, seat: str) -> list[Message]:
        """Private news for the seat that just acted (a new tile), if any."""
        ...

    def on_limit(self, kind: str) -> Literal["vote", "default"]:
        """At the turn limit: the others vote, or the decision is made for the seat."""
        ...

    def stand_in(self, game: Any, seat: str, rng: random.Random) -> Any:
        """The action played for a seat that did not decide in time (or voted away)."""
        ...

    def default_text(self, at: At, game: Any, seat: str, kind: str) -> str:
        """The channel's words when a decision was made for `seat` at the limit."""
        ...


def module(key: str) -> GameModule:
    """The module of game `key` (imported on first use)."""
    found = importlib.import_module(MODULES[key])
    game_module: GameModule = found.MODULE
    return game_module


def by_word(word: str) -> GameModule | None:
    """The game `/fc new <word>` names, if any."""
    for key in MODULES:
        game_module = module(key)
        if word.lower() in game_module.words:
            return game_module
    return None
