"""`/fc stats` and `/fc top`: a player's standing and the leaderboards, as text and as an
image worth a screenshot. All of it is read from the ratings (`Store.players`, boards), which
are derived from the kept results.

One order everywhere: the best rating (the conservative estimate the shown rating rounds)
first; equal ratings share the better place (1, 2, 2, 4), the place `stats` gives too, and are
listed by their key among themselves.

What a board says (`Standings`) is apart from how it is shown: the chat's words and picture
(`chat_reply`), the web page's table (bot/web/page.py), which draws no picture."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from engine.ratings import Rating, leaderboard
from render.leaderboard import GAME, HEADINGS, PLAYER, Row, Spark, leaderboard_png, spark

from ..exchange.actor import Actor
from ..exchange.refused import Refused
from ..exchange.replies import Message, Reply
from ..games import DEFAULT, MODULES, GameInfo, by_word, module
from ..store import Player
from ..text.i18n import tr, translations, trn
from .context import Context
from .weblinks import board_link, player_link, standing_line, with_line

BOARD_ROWS = 15  # players on a leaderboard image
TEXT_ROWS = 10  # and in its text
FAVOURITES = 3
MENTION = re.compile(r"^<@!?([^\s<>@:]{1,40})>$")


@dataclass(frozen=True)
class Standings:
    """A board or a player's standing, in `lang`'s words: its `title` and `subtitle`, its
    `rows` (`per_game`: one player's, one a game), the chat's `lines` (the title first, the
    `note` on the ratings' uncertainty last), and what the lines say that the rows do not
    (`details`: a player's totals, best scores and usual opponents, one a game)."""

    lang: str
    title: str
    subtitle: str
    per_game: bool
    rows: tuple[Row, ...]
    lines: tuple[str, ...]
    note: str
    details: tuple[str, ...] = ()

    @property
    def headings(self) -> tuple[str, ...]:
        """The columns' headings, translated, as the picture's."""
        names = GAME if self.per_game else PLAYER
        words = [names if column == "player" else word for column, word, _ in HEADINGS]
        return tuple(tr(self.lang, word) for word in words)

    @property
    def sparks(self) -> tuple[Spark | None, ...]:
        """Each row's trend line, laid out as the picture's (`render.leaderboard.spark`)."""
        return tuple(spark(row.trend) for row in self.rows)


async def chat_reply(ctx: Context, shown: Standings) -> Reply:
    """The chat's answer: the lines, and the picture of the rows if there are any."""
    text = "\n".join(shown.lines)
    if not shown.rows:
        return Reply(public=[Message(text)])
    words = translations(shown.lang).gettext
    image = await ctx.draw(
        lambda: leaderboard_png(
            shown.title, shown.rows, tr=words, subtitle=shown.subtitle, per_game=shown.per_game
        )
    )
    name = "stats.png" if shown.per_game else "top.png"
    return Reply(public=[Message(text, image=image, image_name=name)])


def shown_name(name: str, lang: str) -> str:
    """A person's name, or what stands for one they asked to be forgotten."""
    return name or tr(lang, "(anonymous)")


def player_name(key: str, player: Player | None, lang: str) -> str:
    """A computer level by its name in the language, a person by the name they last had."""
    if key.startswith("ai:"):
        return tr(lang, "Computer ({level})", level=tr(lang, key.removeprefix("ai:")))
    return shown_name(player.name if player is not None else "", lang)


def target(actor: Actor, args: Sequence[str], lang: str) -> tuple[str, str | None]:
    """Whose standing or history is asked: the actor, or the user mentioned; their rated
    key and their user id (None for the actor's own)."""
    if not args:
        return f"{actor.platform}:{actor.user_id}", None
    found = MENTION.match(args[0]) if len(args) == 1 else None
    if found is None:
        raise Refused(
            tr(
                lang,
                "Name the player by mentioning them (or answer one of their messages with the "
                "command).",
            )
        )
    return f"{actor.platform}:{found[1]}", found[1]


def places(ratings: Sequence[Rating]) -> list[int]:
    """The places of ratings listed best first: one more than those strictly better, so
    equal ratings share a place, as `Store.rank` counts it for `stats`."""
    return [
        1 + next(n for n, other in enumerate(ratings) if other.ordinal == rating.ordinal)
        for rating in ratings
    ]


def _rating(player: Player) -> Rating:
    return Rating(player.mu, player.sigma)


async def stats(ctx: Context, actor: Actor, args: list[str], lang: str) -> Reply:
    """`/fc stats [@user]`: games, wins, rating with its uncertainty, best score, favourite
    opponents and place on the board, per game; with the player's page when there is one."""
    key, user = target(actor, args, lang)
    shown = await standing(ctx, key, actor.name if user is None else "", lang)
    if shown is None:
        who = actor.name if user is None else tr(lang, "this player")
        return Reply(public=[Message(tr(lang, "No rated games yet for {name}.", name=who))])
    reply = await chat_reply(ctx, shown)
    message = reply.public[0]
    message.text = with_line(message.text, standing_line(ctx, lang, player_link(ctx, key)))
    return reply


async def standing(ctx: Context, key: str, name: str, lang: str) -> Standings | None:
    """The standing of the player rated as `key` (`name`: how to call them, else the name
    they last played under), as `/fc stats` and their page show it; None if unrated."""
    lines: list[str] = []
    details: list[str] = []
    rows: list[Row] = []
    for kind in MODULES:
        found = (await ctx.store.players(kind, [key])).get(key)
        if found is None:
            continue
        name = name or player_name(key, found, lang)
        rank = await ctx.store.rank(kind, key)
        place = rank[0] if rank else 0
        favourites = await _favourites(ctx, kind, key, lang)
        rating = _rating(found)
        title = tr(lang, module(kind).title)
        line = tr(
            lang,
            "{game}: rating {rating} (± {uncertainty}), place {place} of {total}; {games}, "
            "{wins}; best score {best}.",
            game=title,
            rating=rating.shown,
            uncertainty=rating.uncertainty,
            place=place,
            total=rank[1] if rank else 0,
            games=trn(lang, "{n} game", "{n} games", found.games),
            wins=trn(lang, "{n} win", "{n} wins", found.wins),
            best=found.best if found.best is not None else "-",
        )
        detail = tr(
            lang,
            "{game}: place {place} of {total}, best score {best}.",
            game=title,
            place=place,
            total=rank[1] if rank else 0,
            best=found.best if found.best is not None else "-",
        )
        if favourites:
            against = tr(lang, "Most played against: {names}.", names=favourites)
            line, detail = f"{line} {against}", f"{detail} {against}"
        lines.append(line)
        details.append(detail)
        rows.append(
            Row(
                place, title, rating.shown, rating.uncertainty, found.games, found.wins, found.trend
            )
        )
    if not lines:
        return None
    heading = tr(lang, "{name}: ratings", name=name)
    subtitle = tr(lang, "The place is on the board of all players.")
    note = _uncertainty_note(lang)
    return Standings(
        lang, heading, subtitle, True, tuple(rows), (heading, *lines, note), note, tuple(details)
    )


async def _favourites(ctx: Context, kind: str, key: str, lang: str) -> str:
    played = await ctx.store.opponents(kind, key)
    best = sorted(played.items(), key=lambda item: (-item[1], item[0]))[:FAVOURITES]
    found = await ctx.store.players(kind, [k for k, _ in best])
    return ", ".join(f"{player_name(k, found.get(k), lang)} ({n})" for k, n in best)


def _uncertainty_note(lang: str) -> str:
    return tr(
        lang,
        "A rating is a cautious estimate of skill; the ± shrinks as more games are played.",
    )


async def top(ctx: Context, actor: Actor, args: list[str], lang: str) -> Reply:
    """`/fc top [game] [global]`: the best players of a game here (everyone who played in
    this server or group, computer levels included) or everywhere; with the board's page."""
    words = [a.lower() for a in args]
    everywhere = "global" in words
    words = [w for w in words if w != "global"]
    game = by_word(words[0]) if words else module(DEFAULT)
    if game is None or len(words) > 1:
        raise Refused(tr(lang, "Write /fc top, /fc top <game> or /fc top <game> global."))
    community = None if everywhere else actor.community
    where = None if community is None else f"{actor.platform}:{community}"
    reply = await chat_reply(ctx, await board(ctx, game, where, lang))
    message = reply.public[0]
    message.text = with_line(message.text, standing_line(ctx, lang, board_link(ctx, game, where)))
    return reply


async def board(ctx: Context, game: GameInfo, community: str | None, lang: str) -> Standings:
    """A game's best players in a community (`<platform>:<server or group>`: everyone who
    played there, computer levels included), or everywhere (None), as `/fc top` and the
    board's page show them."""
    if community is None:
        standing = await ctx.store.board(game.key, BOARD_ROWS)
        place = tr(lang, "everywhere")
    else:
        members = await ctx.store.members(game.key, community)
        found = await ctx.store.players(game.key, members)
        ranked = leaderboard({k: _rating(p) for k, p in found.items()})[:BOARD_ROWS]
        standing = [(k, found[k]) for k, _ in ranked]
        place = tr(lang, "here")
    title = tr(lang, "{game}: best players {where}", game=tr(lang, game.title), where=place)
    if not standing:
        empty = tr(lang, "{title}: no rated games yet.", title=title)
        return Standings(lang, title, "", False, (), (empty,), "")
    rows = []
    ratings = [_rating(player) for _, player in standing]
    for rank, (key, player), rating in zip(places(ratings), standing, ratings, strict=True):
        name = player_name(key, player, lang)
        rows.append(
            Row(
                rank,
                name,
                rating.shown,
                rating.uncertainty,
                player.games,
                player.wins,
                player.trend,
            )
        )
    lines = [
        f"{row.rank}. {row.name} {row.rating} ± {row.uncertainty} ("
        + trn(lang, "{n} game", "{n} games", row.games)
        + ", "
        + trn(lang, "{n} win", "{n} wins", row.wins)
        + ")"
        for row in rows[:TEXT_ROWS]
    ]
    note = _uncertainty_note(lang)
    return Standings(lang, title, "", False, tuple(rows), (title, *lines, note), note)
