"""A table at a moment: the game module, the loaded table, its game and the language spoken,
built once where a command, a press or a deadline arrives and handed down to all that serves it.

The service knows no game: a moment is built inside the module's `visit`, so its game, view
and action types stay those of the module (`enter` runs a function on the moment of a table).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Generic, ParamSpec, Protocol, TypeVar

from ..games import At, GameModule, Playing
from ..records.table import Table, load_game
from ..store import Channel, ChatSettings
from ..text.i18n import translations
from .context import Context, Loaded, game_of

G = TypeVar("G", bound=Playing)
V = TypeVar("V")
A = TypeVar("A")
P = ParamSpec("P")
R_co = TypeVar("R_co", covariant=True)
R = TypeVar("R")


@dataclass(slots=True)
class Moment(Generic[G, V, A]):
    """One table's game as a command found it, in the language its answer speaks, for the
    channel it came for (a deadline's may be the old id of a table that moved). The game
    changes in place as actions are played: `count` and `at` always tell its present."""

    module: GameModule[G, V, A]
    ctx: Context
    loaded: Loaded
    game: G
    lang: str
    channel: Channel
    chat: ChatSettings | None = None  # the chat's settings, once read

    @property
    def table(self) -> Table:
        return self.loaded.table

    async def settings(self) -> ChatSettings:
        """The chat's settings, read once (a press has them from its language already)."""
        if self.chat is None:
            self.chat = await self.ctx.store.chat_settings(self.channel)
        return self.chat

    @property
    def count(self) -> int:
        """How many actions the game has played."""
        return self.module.count(self.game)

    def at(self, *, pictures: bool = True, count: int | None = None) -> At:
        """What the game module is told of the table now (see `bot.games.At`)."""
        return At(
            lang=self.lang,
            channel_id=self.channel.channel_id,
            users=self.table.users(),
            names=self.table.names(),
            count=self.count if count is None else count,
            words=translations(self.lang).gettext,
            pictures=pictures,
        )


class OnMoment(Protocol[P, R_co]):
    """A function over the moment of any game's table (see `enter`)."""

    def __call__(self, moment: Moment[G, V, A], /, *args: P.args, **kwargs: P.kwargs) -> R_co: ...


def enter(
    ctx: Context, loaded: Loaded, lang: str, fn: OnMoment[P, R], *args: P.args, **kwargs: P.kwargs
) -> R:
    """`fn(moment, *args, **kwargs)` on the game under way at `loaded`: `Refused` if there is
    none or it is unreadable (a command's)."""
    entered = _Enter(fn, ctx, loaded, lang, loaded.channel, strict=True)
    return loaded.table.module.visit(entered, *args, **kwargs)


def enter_stored(
    ctx: Context,
    loaded: Loaded,
    lang: str,
    channel: Channel,
    fn: OnMoment[P, R],
    *args: P.args,
    **kwargs: P.kwargs,
) -> R:
    """`fn(moment, *args, **kwargs)` on the game of a table known to be dealt, for `channel`
    (a deadline's or a page's, where nobody is refused): as `load_game` reads it."""
    entered = _Enter(fn, ctx, loaded, lang, channel, strict=False)
    return loaded.table.module.visit(entered, *args, **kwargs)


@dataclass(frozen=True, slots=True)
class _Enter(Generic[P, R]):
    """`fn` as a visitor of the table's module: it builds the moment with the module's types."""

    fn: OnMoment[P, R]
    ctx: Context
    loaded: Loaded
    lang: str
    channel: Channel
    strict: bool

    def __call__(self, module: GameModule[G, V, A], /, *args: P.args, **kwargs: P.kwargs) -> R:
        if self.strict:
            game = game_of(module, self.loaded, self.lang)
        else:
            game = load_game(module, self.loaded.table)
        moment = Moment(module, self.ctx, self.loaded, game, self.lang, self.channel)
        return self.fn(moment, *args, **kwargs)
