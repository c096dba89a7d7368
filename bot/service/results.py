"""A game's result: built when it ends, kept with its archive in one step, rated once.

The result is written with the archive (`Store.archive`), so a finished game is never kept
without it nor rated twice: ratings are applied by the result's reference, once
(`Store.apply`), right after the archive, and whatever a process that died in between left
unrated is rated by the next sweep (`sweep`, every minute). `rebuild` makes every rating
again from the kept results, in the order the games ended.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TypeVar

from engine.ratings import Rating, Team, rate

from ..exchange.buttons import REPLAY
from ..exchange.replies import Button, Message, Reply
from ..games import GameModule, Playing
from ..records.finished import Result, ResultSeat
from ..records.table import Table
from ..store import Channel, Player, StoreUnavailable, Update
from ..text.i18n import tr
from .context import Context, Loaded, user_names
from .moment import Moment
from .schedule import DEADLINE_KINDS
from .standings import player_name

G = TypeVar("G", bound=Playing)
V = TypeVar("V")
A = TypeVar("A")

log = logging.getLogger(__name__)
TREND = 12  # shown ratings kept per player, for the leaderboard's line
RETRIES = 8  # tries when other results change the same players meanwhile
SWEEP_EVERY = 60.0  # seconds between looks for results left unrated


@dataclass(frozen=True, slots=True)
class Change:
    """A rated player's rating before and after a game: a person's seat, or a computer
    level's (`key` says which: `ai:<level>` for a level, whichever seats it held)."""

    seat: str
    before: Rating
    after: Rating
    key: str = ""


def build(
    game_module: GameModule[G, V, A],
    table: Table,
    game: G,
    loaded: Loaded,
    ended: float,
    voted_end: bool,
) -> Result:
    """The result of a game that ended (or that its players ended)."""
    outcome = game_module.outcome(game)
    scores, winners = outcome.scores, set(outcome.winners)

    def rank(seat: str) -> tuple[bool, int]:
        return seat in winners, scores[seat]

    seats = []
    for engine_seat, seat in zip(game.players, table.seats, strict=True):
        place = 1 + sum(rank(other) > rank(engine_seat) for other in game.players)
        seats.append(
            ResultSeat(
                seat=engine_seat,
                name=seat.name,
                user_id=None if seat.bot is not None else seat.user_id,
                level=seat.bot,
                score=scores[engine_seat],
                place=place,
            )
        )
    channel = loaded.channel
    assert table.game is not None
    return Result(
        id=loaded.record.game_id,
        kind=table.kind,
        options=dict(table.options),
        ended=ended,
        platform=channel.platform,
        channel=channel.channel_id,
        community=table.community or channel.channel_id,
        moves=game_module.count(game),
        voted_end=voted_end,
        seats=seats,
        teams=[list(team) for team in outcome.teams],
        record=table.game,
    )


def kept(ctx: Context, result: Result) -> bool:
    """Whether a result is worth keeping: a game played out, or ended by a vote after
    enough moves (an aborted game never reaches here)."""
    return not result.voted_end or result.moves >= ctx.settings.results_min_moves


async def archive(ctx: Context, channel: Channel, loaded: Loaded, result: Result | None) -> None:
    """The game's archive, with its result (if kept) in the same step."""
    await ctx.store.archive(
        channel,
        loaded.record.version,
        data=loaded.table.model_dump_json(),
        result=None if result is None else result.model_dump_json(),
        game_id=loaded.record.game_id,
        cancel_deadlines=DEADLINE_KINDS,
    )


def updates(result: Result, standing: Mapping[str, Player]) -> tuple[list[Update], list[Change]]:
    """Every player's new standing after `result`, from their standing before it.

    Two seats of one computer level at a table are rated as the level once (the best placed
    seat); the other plays from the level's rating but changes nothing.
    """
    sides = result.sides()
    seen: set[str] = set()
    keys: dict[str, str] = {}  # engine seat -> who is rated for it
    for side in sorted(sides, key=lambda s: s[0].place):
        for seat in side:
            key = result.player(seat)
            keys[seat.seat] = key if key not in seen else f"{key}#{seat.seat}"
            seen.add(key)
    ratings = {}
    for seat in result.seats:
        prior = standing.get(result.player(seat))
        ratings[keys[seat.seat]] = Rating() if prior is None else Rating(prior.mu, prior.sigma)
    teams = [Team(tuple(keys[s.seat] for s in side), -side[0].place) for side in sides]
    new = rate(ratings, teams)
    out: list[Update] = []
    changes: list[Change] = []
    for seat in result.seats:
        key = keys[seat.seat]
        if "#" in key:  # a level's other seat: it played from the level's rating, kept none
            continue
        changes.append(Change(seat.seat, ratings[key], new[key], key))
        if key.startswith("anon:"):  # rated for this game only
            continue
        prior = standing.get(key)
        after = new[key]
        best = seat.score if prior is None or prior.best is None else max(prior.best, seat.score)
        trend = ((prior.trend if prior else ()) + (after.shown,))[-TREND:]
        player = Player(
            name=seat.name if seat.level is None else seat.level,
            mu=after.mu,
            sigma=after.sigma,
            games=(prior.games if prior else 0) + 1,
            wins=(prior.wins if prior else 0) + (seat.place == 1),
            best=best,
            trend=trend,
        )
        others = {result.player(o) for o in result.seats if o.seat != seat.seat} - {key}
        opponents = tuple(sorted(o for o in others if not o.startswith("anon:")))
        person = seat.user_id is not None
        out.append(
            Update(
                key,
                prior.games if prior else 0,
                player,
                after.ordinal,
                person,
                opponents if person else (),
            )
        )
    return out, changes


async def apply(ctx: Context, result: Result) -> list[Change] | None:
    """Rate a kept result once; the seats' rating changes, or None if it was rated before."""
    for _ in range(RETRIES):
        players = [result.player(s) for s in result.seats]
        standing = await ctx.store.players(result.kind, players)
        made, changes = updates(result, standing)
        community = f"{result.platform}:{result.community}"
        answer = await ctx.store.apply(
            result.ref, result.short, result.ended, result.kind, community, made
        )
        if answer != "retry":
            await ctx.store.mark_rated(result.ref)
            return changes if answer == "ok" else None
    raise StoreUnavailable(f"ratings of {result.ref} kept changing: left to the next sweep")


async def sweep(ctx: Context) -> int:
    """Rate every kept result a process left unrated (it died, or Redis was away)."""
    rated = 0
    for ref in await ctx.store.unrated():
        text = await ctx.store.result(ref)
        if text is None:
            await ctx.store.mark_rated(ref)
            continue
        try:
            result = Result.model_validate_json(text)
        except ValueError as err:
            log.error("result %s is unreadable and stays unrated: %s", ref, err)
            continue
        if await apply(ctx, result) is not None:
            rated += 1
    return rated


async def rebuild(ctx: Context) -> tuple[int, int]:
    """Every rating, board and history made again from the kept results, oldest game first.
    Returns (results, keys deleted first)."""
    cleared = await ctx.store.clear()
    refs = await ctx.store.all_results()
    results = [Result.model_validate_json(t) for t in await ctx.store.results(refs) if t]
    for result in sorted(results, key=lambda r: (r.ended, r.id)):
        await apply(ctx, result)
    return len(results), cleared


@dataclass(frozen=True, slots=True)
class Concluded:
    """A game just ended: its kept result (None if not kept) and the seats' rating changes
    (None if not rated now: the sweep rates it later)."""

    result: Result | None
    changes: list[Change] | None


async def conclude(
    game_module: GameModule[G, V, A], ctx: Context, loaded: Loaded, game: G, voted_end: bool
) -> Concluded:
    """Archive a game that ended, with its result, then rate it."""
    result = build(game_module, loaded.table, game, loaded, ctx.clock(), voted_end)
    kept_result = result if kept(ctx, result) else None
    await archive(ctx, loaded.channel, loaded, kept_result)
    if kept_result is None:
        return Concluded(None, None)
    try:
        return Concluded(kept_result, await apply(ctx, kept_result))
    except StoreUnavailable as err:
        log.warning("result %s is rated later: %s", kept_result.ref, err)
        return Concluded(kept_result, None)


async def ended(moment: Moment[G, V, A], lines: list[str], *, voted_end: bool) -> Reply:
    """A game over, played out or ended by its players' vote: archived with its result
    (`conclude`), then told after `lines` with the rating changes and drawn, with a button to
    watch its replay."""
    game_module, ctx, loaded, game = moment.module, moment.ctx, moment.loaded, moment.game
    at = moment.at()
    concluded = await conclude(game_module, ctx, loaded, game, voted_end)
    lines = [*lines, game_module.final_text(at, game, voted_end)]
    buttons: list[list[Button]] = []
    if concluded.result is not None:
        if concluded.changes:
            changes = change_lines(concluded.changes, at.names, at.lang)
            lines.append(tr(at.lang, "Ratings: {changes}.", changes=changes))
        data = REPLAY.encode(loaded.channel.channel_id, 0, concluded.result.short)
        buttons = [[Button(tr(at.lang, "▶ Replay"), data, "secondary")]]
    view = game_module.view(game, None)
    image = await ctx.draw(lambda: game_module.final_image(at, view, voted_end))
    names = user_names(loaded.table)
    message = Message(
        " ".join(lines), image=image, image_name="final.png", buttons=buttons, names=names
    )
    return Reply(public=[message])


def change_lines(changes: Sequence[Change], names: Mapping[str, str], lang: str) -> str:
    """`Ann 1000 → 1042 (+42), Computer (normal) ...`: each rated player's change, in seat
    order, named as the boards name them: a computer level once, whichever of its seats
    (the best placed) moved its one rating, so what is told is what is kept."""
    parts = []
    for change in changes:
        delta = change.after.shown - change.before.shown
        name = player_name(change.key, None, lang) if change.key.startswith("ai:") else None
        shown = name or names[change.seat]
        parts.append(f"{shown} {change.before.shown} → {change.after.shown} ({delta:+d})")
    return ", ".join(parts)
