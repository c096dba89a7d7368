"""The store as it was with the first key layout (bot/store.py before it became a package),
kept verbatim below this paragraph so the migration test writes exactly the keys it wrote.

Games, deadlines and chat settings in Redis, safe for many clicks and many processes.

Each live game is one hash `fc:game:<platform>:<channel_id>`; the engine's record is an
opaque string in it, so the store knows nothing of the rules. Every write is a single
Lua script, so it is atomic (nothing half-written if Redis dies) and checks a version
number (optimistic concurrency: of two clicks applying the same move, one wins, the
other gets `Conflict`). Each write also carries a random operation id, so a write that
redis-py retries after a lost reply is recognised as already applied instead of
reported as a conflict with itself. A turn's deadlines are written in the same step as
the turn, and claiming a deadline is a lease that runs out if its work is never done.

Nothing is cached in process memory: every call reads or writes Redis.
This targets a single Redis (not Cluster): scripts derive the user-index keys themselves.
"""

from __future__ import annotations

import json
import re
import time
import uuid
from collections.abc import Awaitable, Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import timedelta
from functools import wraps
from typing import ParamSpec, TypeVar, cast

import redis.asyncio as aioredis
from redis.asyncio.retry import Retry
from redis.backoff import ExponentialWithJitterBackoff
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import RedisError
from redis.exceptions import TimeoutError as RedisTimeoutError

__all__ = [
    "CLAIM_LEASE",
    "DEADLINES_KEY",
    "AlreadyExists",
    "Channel",
    "ChatSettings",
    "Conflict",
    "Deadline",
    "GameRecord",
    "NotFound",
    "Store",
    "StoreError",
    "StoreUnavailable",
]

DEADLINES_KEY = "fc:deadlines"
CLAIMS_KEY = "fc:claims"  # deadline member -> token of the process that holds its lease
# How long a claimed deadline is held before it comes due again, if its work was not done.
CLAIM_LEASE = 300.0
# A record is expected to be a few KB; this catches runaway growth long before Redis would.
MAX_DATA_BYTES = 256 * 1024
# Redis connections per process; more calls at once wait for one (see `Store.from_url`).
MAX_CONNECTIONS = 50

_PART = re.compile(r"[^:\s]+")


class StoreError(Exception):
    """Base of the store's errors."""


class StoreUnavailable(StoreError):
    """Redis cannot be reached (down, restarting, timed out); nothing was written."""


class Conflict(StoreError):
    """The stored version is not the one the caller read: someone else wrote first."""

    def __init__(self, channel: Channel, expected: int, current: int) -> None:
        super().__init__(f"{channel}: expected version {expected}, found {current}")
        self.channel = channel
        self.expected = expected
        self.current = current


class AlreadyExists(StoreError):
    """The channel already has a live game."""


class NotFound(StoreError):
    """The channel has no live game (never created, or already archived)."""


def _check_part(name: str, value: str) -> str:
    if not _PART.fullmatch(value):
        raise ValueError(f"{name} must be non-empty without ':' or spaces: {value!r}")
    return value


@dataclass(frozen=True, slots=True)
class Channel:
    """Where a game is played: a Discord channel or a Telegram chat."""

    platform: str
    channel_id: str

    def __post_init__(self) -> None:
        _check_part("platform", self.platform)
        _check_part("channel_id", self.channel_id)

    @classmethod
    def of(cls, platform: str, channel_id: int | str) -> Channel:
        return cls(platform, str(channel_id))

    def __str__(self) -> str:
        return f"{self.platform}:{self.channel_id}"

    @property
    def game_key(self) -> str:
        return f"fc:game:{self}"

    @property
    def settings_key(self) -> str:
        return f"fc:chat:{self}"

    @property
    def user_key_prefix(self) -> str:
        return f"fc:user:{self.platform}:"

    def archive_key(self, game_id: str) -> str:
        return f"fc:archive:{self}:{game_id}"

    @property
    def last_key(self) -> str:
        """Points to the channel's last archived game, so its end can still be shown."""
        return f"fc:last:{self}"

    def deadline_member(self, kind: str) -> str:
        return f"{self}:{_check_part('kind', kind)}"


@dataclass(frozen=True, slots=True)
class GameRecord:
    """One stored game. `data` is the engine's record, opaque to the store."""

    channel: Channel
    game_id: str
    version: int
    data: str
    created: float
    updated: float
    creator: str
    players: tuple[str, ...]
    language: str

    @classmethod
    def _from_hash(cls, channel: Channel, fields: Mapping[str, str]) -> GameRecord:
        return cls(
            channel=channel,
            game_id=fields["game_id"],
            version=int(fields["version"]),
            data=fields["data"],
            created=float(fields["created"]),
            updated=float(fields["updated"]),
            creator=fields["creator"],
            players=tuple(json.loads(fields["players"])),
            language=fields["language"],
        )


@dataclass(frozen=True, slots=True)
class Deadline:
    """A scheduled event (reminder, turn limit...) of one channel, due at `due` (epoch s).
    A claimed one carries its lease: `due` is then the end of the lease, `token` its holder."""

    channel: Channel
    kind: str
    due: float
    token: str = ""

    @property
    def member(self) -> str:
        return self.channel.deadline_member(self.kind)

    @classmethod
    def _parse(cls, member: str, score: float) -> Deadline:
        platform, channel_id, kind = member.split(":", 2)
        return cls(Channel(platform, channel_id), kind, score)


@dataclass(frozen=True, slots=True)
class ChatSettings:
    """Per-chat preferences; `language` None means the bot's default."""

    language: str | None
    notify: Mapping[str, bool]

    def notify_enabled(self, user_id: int | str, default: bool = True) -> bool:
        return self.notify.get(str(user_id), default)


# --- Lua scripts: each is one atomic step; replies are {status, value}. Redis does not
# roll back a script that fails halfway, so each decodes its inputs before its first write.

_CREATE = """
if redis.call('EXISTS', KEYS[1]) == 1 then
  if redis.call('HGET', KEYS[1], 'op') == ARGV[7] then return {'ok', 1} end
  return {'exists', 0}
end
local players = cjson.decode(ARGV[5])
redis.call('HSET', KEYS[1], 'game_id', ARGV[1], 'version', 1, 'data', ARGV[2],
  'created', ARGV[3], 'updated', ARGV[3], 'creator', ARGV[4], 'players', ARGV[5],
  'language', ARGV[6], 'op', ARGV[7])
for _, uid in ipairs(players) do
  redis.call('SADD', ARGV[8] .. uid, ARGV[9])
end
return {'ok', 1}
"""

_SAVE = """
local cur = redis.call('HMGET', KEYS[1], 'version', 'op', 'players')
if not cur[1] then return {'missing', 0} end
local version = tonumber(cur[1])
local expected = tonumber(ARGV[1])
if version ~= expected then
  if version == expected + 1 and cur[2] == ARGV[4] then return {'ok', version} end
  return {'conflict', version}
end
local old, new = nil, nil
if ARGV[5] ~= '' then
  old = cjson.decode(cur[3])
  new = cjson.decode(ARGV[5])
end
redis.call('HSET', KEYS[1], 'version', version + 1, 'data', ARGV[2], 'updated', ARGV[3],
  'op', ARGV[4])
if new then
  local keep = {}
  for _, uid in ipairs(new) do keep[uid] = true end
  for _, uid in ipairs(old) do
    if not keep[uid] then redis.call('SREM', ARGV[6] .. uid, ARGV[7]) end
  end
  for _, uid in ipairs(new) do redis.call('SADD', ARGV[6] .. uid, ARGV[7]) end
  redis.call('HSET', KEYS[1], 'players', ARGV[5])
end
for i = 9, #ARGV, 2 do
  if ARGV[i + 1] == '' then
    redis.call('ZREM', KEYS[2], ARGV[8] .. ARGV[i])
  else
    redis.call('ZADD', KEYS[2], ARGV[i + 1], ARGV[8] .. ARGV[i])
  end
end
return {'ok', version + 1}
"""

_ARCHIVE = """
local last = redis.call('GET', KEYS[3])
if last and redis.call('HGET', ARGV[4] .. last, 'op') == ARGV[8] then
  return {'ok', ARGV[4] .. last}
end
local cur = redis.call('HMGET', KEYS[1], 'version', 'game_id', 'players')
if not cur[1] then return {'missing', 0} end
if ARGV[1] ~= '' and tonumber(cur[1]) ~= tonumber(ARGV[1]) then
  return {'conflict', tonumber(cur[1])}
end
local players = cjson.decode(cur[3])
local dest = ARGV[4] .. cur[2]
if ARGV[9] ~= '' then
  redis.call('HSET', KEYS[1], 'version', tonumber(cur[1]) + 1, 'data', ARGV[9],
    'updated', ARGV[2])
end
redis.call('HSET', KEYS[1], 'archived', ARGV[2], 'op', ARGV[8])
redis.call('RENAME', KEYS[1], dest)
redis.call('EXPIRE', dest, ARGV[3])
redis.call('SET', KEYS[3], cur[2], 'EX', ARGV[3])
for _, uid in ipairs(players) do redis.call('SREM', ARGV[5] .. uid, ARGV[6]) end
for i = 10, #ARGV do
  redis.call('ZREM', KEYS[2], ARGV[7] .. ARGV[i])
  redis.call('HDEL', KEYS[4], ARGV[7] .. ARGV[i])
end
return {'ok', dest}
"""

# A claim is a lease: the deadline moves to the lease's end, so it comes due again unless
# `done` (or a new schedule) replaces it. A resent claim with the same token still wins.
_CLAIM = """
local score = redis.call('ZSCORE', KEYS[1], ARGV[1])
if not score then return 0 end
if tonumber(score) == tonumber(ARGV[2]) then
  redis.call('ZADD', KEYS[1], ARGV[3], ARGV[1])
  redis.call('HSET', KEYS[2], ARGV[1], ARGV[4])
  return 1
end
if tonumber(score) == tonumber(ARGV[3]) and redis.call('HGET', KEYS[2], ARGV[1]) == ARGV[4] then
  return 1
end
return 0
"""

_DONE = """
if redis.call('HGET', KEYS[2], ARGV[1]) ~= ARGV[3] then return 0 end
redis.call('HDEL', KEYS[2], ARGV[1])
local score = redis.call('ZSCORE', KEYS[1], ARGV[1])
if score and tonumber(score) == tonumber(ARGV[2]) then
  redis.call('ZREM', KEYS[1], ARGV[1])
  return 1
end
return 0
"""

_P = ParamSpec("_P")
_T = TypeVar("_T")


def _guarded(method: Callable[_P, Awaitable[_T]]) -> Callable[_P, Awaitable[_T]]:
    """Turn redis-py's connection errors into `StoreUnavailable` so callers need not
    know redis-py, and can tell the user to try again later."""

    @wraps(method)
    async def wrapper(*args: _P.args, **kwargs: _P.kwargs) -> _T:
        try:
            return await method(*args, **kwargs)
        except (RedisConnectionError, RedisTimeoutError, OSError) as exc:
            raise StoreUnavailable(f"Redis is unavailable: {exc}") from exc
        except RedisError as exc:
            raise StoreError(f"Redis error: {exc}") from exc

    return wrapper


def _user_ids(ids: Iterable[int | str]) -> list[str]:
    out: list[str] = []
    for uid in ids:
        text = _check_part("user id", str(uid))
        if text not in out:
            out.append(text)
    return out


def _check_size(data: str) -> None:
    size = len(data.encode())
    if size > MAX_DATA_BYTES:
        raise ValueError(f"game record of {size} bytes exceeds {MAX_DATA_BYTES}")


class Store:
    """Async access to the bot's Redis data. Holds only the client: no game state."""

    # The client is created with decode_responses=True, hence the casts from bytes | str.

    def __init__(
        self,
        client: aioredis.Redis,
        *,
        archive_ttl: timedelta = timedelta(days=30),
        clock: Callable[[], float] = time.time,
    ) -> None:
        """`client` must be created with `decode_responses=True`."""
        self._redis = client
        self._archive_ttl = max(1, int(archive_ttl.total_seconds()))
        self._clock = clock
        self._create = client.register_script(_CREATE)
        self._save = client.register_script(_SAVE)
        self._archive = client.register_script(_ARCHIVE)
        self._claim = client.register_script(_CLAIM)
        self._done = client.register_script(_DONE)

    @classmethod
    def from_url(
        cls,
        url: str,
        *,
        archive_ttl: timedelta = timedelta(days=30),
        timeout: float = 5.0,
        retries: int = 3,
        clock: Callable[[], float] = time.time,
    ) -> Store:
        """A store with a short retry policy, so an outage is reported in seconds
        rather than hanging a chat command; retried writes are safe (see module doc).

        A burst of calls (hundreds of autocompletes at once) waits for a free connection,
        up to `timeout`, instead of failing at once as redis-py's default pool does."""
        pool = aioredis.BlockingConnectionPool.from_url(
            url,
            max_connections=MAX_CONNECTIONS,
            timeout=timeout,
            decode_responses=True,
            socket_timeout=timeout,
            socket_connect_timeout=timeout,
            retry=Retry(ExponentialWithJitterBackoff(base=0.05, cap=0.5), retries),
            health_check_interval=30,
        )
        return cls(aioredis.Redis.from_pool(pool), archive_ttl=archive_ttl, clock=clock)

    @property
    def client(self) -> aioredis.Redis:
        return self._redis

    async def close(self) -> None:
        await self._redis.aclose()

    @_guarded
    async def ping(self) -> bool:
        return bool(await self._redis.ping())

    # --- games ---

    @_guarded
    async def create(
        self,
        channel: Channel,
        data: str,
        *,
        creator: int | str,
        players: Sequence[int | str],
        language: str,
        game_id: str | None = None,
    ) -> GameRecord:
        """Store a new game at version 1 and index it under each player.

        Raises `AlreadyExists` if the channel already has a live game.
        """
        _check_size(data)
        now = self._clock()
        ids = _user_ids(players)
        game_id = _check_part("game_id", game_id or uuid.uuid4().hex)
        reply = await self._create(
            keys=[channel.game_key],
            args=[
                game_id,
                data,
                repr(now),
                str(creator),
                json.dumps(ids),
                language,
                uuid.uuid4().hex,
                channel.user_key_prefix,
                channel.channel_id,
            ],
        )
        if reply[0] == "exists":
            raise AlreadyExists(f"{channel} already has a game")
        return GameRecord(channel, game_id, 1, data, now, now, str(creator), tuple(ids), language)

    @_guarded
    async def load(self, channel: Channel) -> GameRecord | None:
        fields = cast(dict[str, str], await self._redis.hgetall(channel.game_key))
        if not fields:
            return None
        return GameRecord._from_hash(channel, fields)

    @_guarded
    async def save(
        self,
        channel: Channel,
        data: str,
        expected_version: int,
        *,
        players: Sequence[int | str] | None = None,
        deadlines: Mapping[str, float | None] | None = None,
    ) -> int:
        """Replace the game's data if its version is still `expected_version`.

        Returns the new version. `players`, if given, replaces the player list and
        updates the user index in the same step; `deadlines` sets (a time) or cancels
        (None) the channel's deadlines of those kinds in that step too, so they always
        match the stored turn. Raises `Conflict` if someone saved first, `NotFound` if
        the game is gone.
        """
        _check_size(data)
        players_json = "" if players is None else json.dumps(_user_ids(players))
        timing: list[str] = []
        for kind, due in (deadlines or {}).items():
            timing += [_check_part("kind", kind), "" if due is None else repr(float(due))]
        reply = await self._save(
            keys=[channel.game_key, DEADLINES_KEY],
            args=[
                expected_version,
                data,
                repr(self._clock()),
                uuid.uuid4().hex,
                players_json,
                channel.user_key_prefix,
                channel.channel_id,
                f"{channel}:",
                *timing,
            ],
        )
        status, value = reply[0], int(reply[1])
        if status == "missing":
            raise NotFound(f"{channel} has no game")
        if status == "conflict":
            raise Conflict(channel, expected_version, value)
        return value

    @_guarded
    async def archive(
        self,
        channel: Channel,
        expected_version: int | None = None,
        *,
        data: str | None = None,
        cancel_deadlines: Iterable[str] = (),
    ) -> str:
        """Move the live game to its archive key with the archive TTL, drop it from its
        players' indexes and cancel the given deadline kinds, all at once. `data`, if
        given, is saved as the game's last version in the same step (the end of a game).

        Returns the archive key; a resend of the same call (a lost reply) returns it too.
        Raises `NotFound` if there is no live game (e.g. it was archived already) and
        `Conflict` if `expected_version` is given and stale.
        """
        if data is not None:
            _check_size(data)
        kinds = [_check_part("kind", kind) for kind in cancel_deadlines]
        reply = await self._archive(
            keys=[channel.game_key, DEADLINES_KEY, channel.last_key, CLAIMS_KEY],
            args=[
                "" if expected_version is None else expected_version,
                repr(self._clock()),
                self._archive_ttl,
                channel.archive_key(""),
                channel.user_key_prefix,
                channel.channel_id,
                f"{channel}:",
                uuid.uuid4().hex,
                data or "",
                *kinds,
            ],
        )
        status = reply[0]
        if status == "missing":
            raise NotFound(f"{channel} has no game")
        if status == "conflict":
            raise Conflict(channel, expected_version or 0, int(reply[1]))
        return str(reply[1])

    @_guarded
    async def last_archived(self, channel: Channel) -> GameRecord | None:
        """The channel's most recently archived game, while its archive lasts."""
        game_id = await self._redis.get(channel.last_key)
        if game_id is None:
            return None
        return await self.load_archived(channel, str(game_id))

    @_guarded
    async def load_archived(self, channel: Channel, game_id: str) -> GameRecord | None:
        fields = cast(dict[str, str], await self._redis.hgetall(channel.archive_key(game_id)))
        if not fields:
            return None
        return GameRecord._from_hash(channel, fields)

    @_guarded
    async def live_channels(self) -> list[Channel]:
        """Every channel with a live game (SCAN, so a big keyspace does not block Redis)."""
        found = []
        async for key in self._redis.scan_iter(match="fc:game:*", count=500):
            platform, channel_id = str(key).removeprefix("fc:game:").split(":", 1)
            found.append(Channel(platform, channel_id))
        return sorted(found, key=str)

    @_guarded
    async def user_games(self, platform: str, user_id: int | str) -> list[Channel]:
        """The channels where the user plays a live game."""
        key = f"fc:user:{_check_part('platform', platform)}:{_check_part('user', str(user_id))}"
        members = cast(set[str], await self._redis.smembers(key))
        return [Channel(platform, member) for member in sorted(members)]

    # --- deadlines ---

    @_guarded
    async def schedule(self, channel: Channel, kind: str, due: float) -> Deadline:
        """Set (or move) the channel's deadline of this kind; moving it invalidates any
        claim based on the old time."""
        deadline = Deadline(channel, kind, float(due))
        await self._redis.zadd(DEADLINES_KEY, {deadline.member: deadline.due})
        return deadline

    @_guarded
    async def cancel(self, channel: Channel, kind: str) -> bool:
        return bool(await self._redis.zrem(DEADLINES_KEY, channel.deadline_member(kind)))

    @_guarded
    async def deadline(self, channel: Channel, kind: str) -> Deadline | None:
        score = await self._redis.zscore(DEADLINES_KEY, channel.deadline_member(kind))
        return None if score is None else Deadline(channel, kind, float(score))

    @_guarded
    async def due(self, now: float | None = None, limit: int = 100) -> list[Deadline]:
        """Deadlines due at `now` (default: the clock), earliest first. Read-only: a
        caller must `claim` one before acting on it."""
        at = self._clock() if now is None else now
        rows = cast(
            list[tuple[str, float]],
            await self._redis.zrangebyscore(
                DEADLINES_KEY, "-inf", at, start=0, num=limit, withscores=True
            ),
        )
        return [Deadline._parse(member, float(score)) for member, score in rows]

    @_guarded
    async def claim(self, deadline: Deadline) -> bool:
        """Claim the deadline for `CLAIM_LEASE` seconds by the store's clock (see `lease`).
        True for exactly one caller across all processes."""
        return await self.lease(deadline, self._clock() + CLAIM_LEASE) is not None

    @_guarded
    async def lease(self, deadline: Deadline, until: float) -> Deadline | None:
        """Claim the deadline if it is still set for the same time: it then comes due
        again at `until` unless the work is `done` or the deadline is set anew first.
        Returns the claimed deadline (for `done`), or None for every other caller."""
        claimed = Deadline(deadline.channel, deadline.kind, float(until), uuid.uuid4().hex)
        won = await self._claim(
            keys=[DEADLINES_KEY, CLAIMS_KEY],
            args=[deadline.member, repr(deadline.due), repr(claimed.due), claimed.token],
        )
        return claimed if won else None

    @_guarded
    async def done(self, claimed: Deadline) -> bool:
        """The work of a claimed deadline is done: drop it, unless it was set anew since."""
        removed = await self._done(
            keys=[DEADLINES_KEY, CLAIMS_KEY],
            args=[claimed.member, repr(claimed.due), claimed.token],
        )
        return bool(removed)

    # --- per-chat settings ---

    @_guarded
    async def chat_settings(self, channel: Channel) -> ChatSettings:
        fields = cast(dict[str, str], await self._redis.hgetall(channel.settings_key))
        notify = {
            name.removeprefix("notify:"): value == "1"
            for name, value in fields.items()
            if name.startswith("notify:")
        }
        return ChatSettings(language=fields.get("language"), notify=notify)

    @_guarded
    async def set_chat_language(self, channel: Channel, language: str | None) -> None:
        if language is None:
            await self._redis.hdel(channel.settings_key, "language")
        else:
            await self._redis.hset(channel.settings_key, "language", language)

    @_guarded
    async def set_notify(self, channel: Channel, user_id: int | str, enabled: bool) -> None:
        field = f"notify:{_check_part('user id', str(user_id))}"
        await self._redis.hset(channel.settings_key, field, "1" if enabled else "0")

    # --- direct messages ---

    @staticmethod
    def _dms_key(platform: str, user_id: int | str) -> str:
        return f"fc:dms:{_check_part('platform', platform)}:{_check_part('user', str(user_id))}"

    @_guarded
    async def set_dms_closed(
        self, platform: str, user_id: int | str, at: float, *, keep: timedelta
    ) -> None:
        """Remember when the platform refused to let the bot write to the user privately;
        forgotten after `keep`, so a stale refusal never lingers."""
        seconds = max(1, int(keep.total_seconds()))
        await self._redis.set(self._dms_key(platform, user_id), repr(at), ex=seconds)

    @_guarded
    async def clear_dms_closed(self, platform: str, user_id: int | str) -> None:
        await self._redis.delete(self._dms_key(platform, user_id))

    @_guarded
    async def dms_closed_at(self, platform: str, user_id: int | str) -> float | None:
        value = await self._redis.get(self._dms_key(platform, user_id))
        return None if value is None else float(value)
