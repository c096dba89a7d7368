"""Ratings, leaderboards and each person's history: all derived from the kept results
(`Results`), so `python -m bot ratings rebuild` can always make them again.

Every key lies in one slot (the `{fc-ratings}` tag), so applying a result is one script: the
players' new ratings, the boards, histories and favourite opponents, and the mark that the
result was applied, all at once or not at all; a result applied twice changes nothing. The
store holds no rating maths: the caller works the new ratings out (`bot.standing`).

    fc:{fc-ratings}:applied                       results applied (set of references)
    fc:{fc-ratings}:rating:<game>                 player -> Player (JSON)
    fc:{fc-ratings}:board:<game>                  every player of the game, by rank (zset)
    fc:{fc-ratings}:members:<game>:<community>    players who played in that server or group
    fc:{fc-ratings}:history:<player>              a person's results, by end time (zset)
    fc:{fc-ratings}:opponents:<game>:<player>     opponent -> games played together
    fc:{fc-ratings}:boards:<player>               the members sets a person is in (forget me)
    fc:{fc-ratings}:ids                           short id -> references (space-separated)

A player is `<platform>:<user id>` for a person, `ai:<level>` for a computer level.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from typing import Literal, cast

from .base import StoreBase, guarded
from .connecting import Script
from .keys import check_part
from .plans import ApplyPerson, ApplyPlan, ApplyPlayer
from .scripts import APPLY

__all__ = ["PREFIX", "Applied", "Player", "Ratings", "Update"]

PREFIX = "fc:{fc-ratings}"
_APPLIED, _IDS = f"{PREFIX}:applied", f"{PREFIX}:ids"
_APPLY = Script(APPLY)
Applied = Literal["ok", "applied", "retry"]


@dataclass(frozen=True, slots=True)
class Player:
    """A player's standing at one game: the rating (`mu`, `sigma`), counts, and the trend of
    the shown rating (oldest first)."""

    name: str
    mu: float
    sigma: float
    games: int = 0
    wins: int = 0
    best: int | None = None  # best score
    trend: tuple[int, ...] = ()

    def to_json(self) -> str:
        return json.dumps(asdict(self), separators=(",", ":"))

    @classmethod
    def from_json(cls, text: str) -> Player:
        data = json.loads(text)
        data["trend"] = tuple(data.get("trend", ()))
        return cls(**data)


@dataclass(frozen=True, slots=True)
class Update:
    """One player's new standing after a result, and the games they had before it."""

    key: str
    before: int
    player: Player
    ordinal: float  # what ranks the board
    person: bool
    opponents: tuple[str, ...] = field(default=())


def _key(*parts: str) -> str:
    """A key of the ratings' slot; a player's key (`discord:123`) may be one of the parts."""
    return ":".join(
        [PREFIX, *(check_part("key part", p) for part in parts for p in part.split(":"))]
    )


def _player_key(key: str) -> str:
    """`discord:123` or `ai:hard`: two parts, checked."""
    first, second = key.split(":", 1)
    return f"{check_part('platform', first)}:{check_part('user', second)}"


def board_name(game: str, community: str) -> str:
    """The members set of a community (`<platform>:<server or group>`)."""
    return _key("members", game, _player_key(community))


class Ratings(StoreBase):
    """Apply results once; read the boards, a player's standing, history and opponents."""

    @guarded
    async def players(self, game: str, keys: Sequence[str]) -> dict[str, Player]:
        """The standing of each of `keys` who has one at `game`."""
        if not keys:
            return {}
        client = await self._client()
        values = await client.hmget(_key("rating", game), [_player_key(k) for k in keys])
        return {k: Player.from_json(str(v)) for k, v in zip(keys, values, strict=True) if v}

    @guarded
    async def apply(
        self,
        ref: str,
        short: str,
        ended: float,
        game: str,
        community: str,
        updates: Sequence[Update],
    ) -> Applied:
        """Apply one result's updates unless it was applied before: "ok", "applied" (nothing
        done), or "retry" (a player's standing changed since it was read: read again)."""
        people = [u for u in updates if u.person]
        board = board_name(game, community)
        keys = [_APPLIED, _key("rating", game), _key("board", game), _IDS, board]
        for update in people:
            player = _player_key(update.key)
            keys += [
                _key("history", player),
                _key("opponents", game, player),
                _key("boards", player),
            ]
        plan = ApplyPlan(
            ref=ref,
            short=check_part("short", short),
            ended=repr(ended),
            players=tuple(
                ApplyPlayer(_player_key(u.key), u.before, u.player.to_json(), u.ordinal)
                for u in updates
            ),
            members=tuple(_player_key(u.key) for u in updates),
            people=tuple(ApplyPerson(tuple(_player_key(o) for o in u.opponents)) for u in people),
            board=board,
        )
        client = await self._client()
        answer = await _APPLY(client, keys, [plan.to_json()])
        return cast(Applied, str(answer))

    @guarded
    async def board(self, game: str, limit: int) -> list[tuple[str, Player]]:
        """The best `limit` players of the game everywhere: best rating first, equal ratings
        by key (`engine.ratings.leaderboard`'s order), even where the limit cuts through them.

        Redis lists equal scores by member, backwards from the top, so the rows above the
        last one's rating are put in order here and the ones at it read forwards."""
        client = await self._client()
        board = _key("board", game)
        ranged = await client.zrevrange(board, 0, limit - 1, withscores=True)
        top = [(str(k), float(v)) for k, v in cast(list[tuple[str, float]], ranged)]
        if not top:
            return []
        cut = top[-1][1]
        above = sorted(((k, v) for k, v in top if v > cut), key=lambda kv: (-kv[1], kv[0]))
        at_cut = await client.zrangebyscore(board, cut, cut, start=0, num=limit - len(above))
        keys = [k for k, _ in above] + [str(k) for k in at_cut]
        found = await self.players(game, keys)
        return [(k, found[k]) for k in keys if k in found]

    @guarded
    async def rank(self, game: str, player: str) -> tuple[int, int] | None:
        """The player's place on the game's board everywhere and how many are on it; None if
        they have no rating at that game. The place is one more than the players rated
        strictly higher: equal ratings share a place (1, 2, 2, 4), whatever their keys."""
        client = await self._client()
        board = _key("board", game)
        score = await client.zscore(board, _player_key(player))
        if score is None:
            return None
        pipe = client.pipeline(transaction=False)
        pipe.zcount(board, f"({float(score)!r}", "+inf")
        pipe.zcard(board)
        higher, total = await pipe.execute()
        return int(higher) + 1, int(total)

    @guarded
    async def members(self, game: str, community: str) -> list[str]:
        """Everyone who played the game in that server or group."""
        client = await self._client()
        return sorted(str(m) for m in await client.smembers(board_name(game, community)))

    @guarded
    async def history(self, player: str, limit: int | None) -> list[str]:
        """A person's last `limit` results (None: all), newest first."""
        client = await self._client()
        end = -1 if limit is None else limit - 1
        found = await client.zrevrange(_key("history", _player_key(player)), 0, end)
        return [str(ref) for ref in found]

    @guarded
    async def opponents(self, game: str, player: str) -> dict[str, int]:
        client = await self._client()
        found = await client.hgetall(_key("opponents", game, _player_key(player)))
        return {str(k): int(v) for k, v in found.items()}

    @guarded
    async def find(self, short: str) -> list[str]:
        """The references a short id names (usually one)."""
        client = await self._client()
        found = await client.hget(_IDS, check_part("short", short))
        return str(found).split() if found else []

    @guarded
    async def forget_player(self, player: str, games: Sequence[str]) -> None:
        """Remove every trace of a person from the derived data: their standing in each of
        `games`, their place on every board, their history, and them from others' opponents."""
        key = _player_key(player)
        client = await self._client()
        boards = [str(b) for b in await client.smembers(_key("boards", key))]
        pipe = client.pipeline(transaction=False)
        for game in games:
            opponents = await client.hkeys(_key("opponents", game, key))
            for other in opponents:
                if not str(other).startswith("ai:"):
                    pipe.hdel(_key("opponents", game, _player_key(str(other))), key)
            pipe.delete(_key("opponents", game, key))
            pipe.hdel(_key("rating", game), key)
            pipe.zrem(_key("board", game), key)
        for board in boards:
            pipe.srem(board, key)
        pipe.delete(_key("history", key), _key("boards", key))
        await pipe.execute()

    @guarded
    async def merge_community(self, games: Sequence[str], old: str, new: str) -> int:
        """Everyone on the old community's boards joins the new one's (a Telegram group that
        became a supergroup keeps its leaderboard). Idempotent. Returns the players moved."""
        client = await self._client()
        moved = 0
        for game in games:
            before, after = board_name(game, old), board_name(game, new)
            members = [str(m) for m in await client.smembers(before)]
            if not members:
                continue
            pipe = client.pipeline(transaction=False)
            pipe.sadd(after, *members)
            for member in members:
                if not member.startswith("ai:"):
                    pipe.sadd(_key("boards", member), after)
                    pipe.srem(_key("boards", member), before)
            pipe.delete(before)
            await pipe.execute()
            moved += len(members)
        return moved

    @guarded
    async def clear(self) -> int:
        """Delete every rating, board and history (before a rebuild). Returns keys deleted."""
        client = await self._client()
        keys = [str(k) async for k in client.scan_iter(match=f"{PREFIX}:*", count=500)]
        for start in range(0, len(keys), 500):
            await client.delete(*keys[start : start + 500])
        return len(keys)
