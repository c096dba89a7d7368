"""Live and archived games: each write is one script on the channel's bucket (see `keys`),
checked against the version the caller read (optimistic concurrency: of two clicks applying
the same move, one wins, the other gets `Conflict`)."""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterable, Mapping, Sequence
from typing import cast

from .base import guarded
from .connecting import Script
from .errors import AlreadyExists, Conflict, NotFound
from .keys import GAME_PATTERN, Channel, GameRecord, check_part, user_ids
from .moving import Moving
from .plans import ArchivePlan, CreatePlan, SavePlan
from .scripts import ARCHIVE, CREATE, SAVE
from .settled import confirm_absent
from .users import reindex

__all__ = ["MAX_DATA_BYTES", "Games"]

# A record is expected to be a few KB; this catches runaway growth long before Redis would.
MAX_DATA_BYTES = 256 * 1024

_CREATE, _SAVE, _ARCHIVE = Script(CREATE), Script(SAVE), Script(ARCHIVE)


def _check_size(data: str) -> None:
    size = len(data.encode())
    if size > MAX_DATA_BYTES:
        raise ValueError(f"game record of {size} bytes exceeds {MAX_DATA_BYTES}")


def _players(text: object) -> list[str]:
    return [str(uid) for uid in json.loads(text)] if isinstance(text, str) and text else []


class Games(Moving):
    """Create, load, save and archive games; list the live ones."""

    @guarded
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
        """Store a new game at version 1 and index it under each player. `language` is the
        one it was opened in; the chat keeps its first table's (`ChatSettings.spoken`).

        Raises `AlreadyExists` if the channel already has a live game: the script checks
        and writes in one step, so a table is never replaced, whatever the caller read
        before. When the master has a replica, returns once one has the table too.
        """
        _check_size(data)
        now = self._clock()
        ids = user_ids(players)
        game_id = check_part("game_id", game_id or uuid.uuid4().hex)
        plan = CreatePlan(
            channel=str(channel),
            game_id=game_id,
            data=data,
            now=repr(now),
            creator=str(creator),
            players=json.dumps(ids),
            language=language,
        )
        keys = [channel.game_key, channel.settings_key]
        client = await self._client()
        reply = await self._replicas.write(client, _CREATE, keys, [plan.to_json()])
        if reply[0] == "exists":
            raise AlreadyExists(f"{channel} already has a game")
        await reindex(client, channel.platform, channel.channel_id, add=ids)
        return GameRecord(channel, game_id, 1, data, now, now, str(creator), tuple(ids), language)

    @guarded
    async def load(self, channel: Channel) -> GameRecord | None:
        """The channel's live game. A table moved to another channel (`move_channel`) is
        read there, its move finished first if it was under way. On a cluster, None only
        once the cluster agrees who holds the table (`settled`): `StoreUnavailable` while
        it is changing."""
        client = await self._client()
        fields = cast(dict[str, str], await client.hgetall(channel.game_key))
        if fields and "moving" in fields:
            return await self._finish_move(channel, fields["moving"])
        if fields:
            return GameRecord._from_hash(channel, fields)
        moved = await client.get(channel.moved_key)
        if moved is None:
            await confirm_absent(client, channel.game_key)  # else "try again", not "no table"
            return None
        return await self._read(Channel.parse(str(moved)))

    @guarded
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

        Returns the new version. `players`, if given, replaces the player list; `deadlines`
        sets (a time) or cancels (None) the channel's deadlines of those kinds in the same
        step, so they always match the stored turn. When the master has a replica, returns
        once one has the move too (or after a short wait). Raises `Conflict` if someone
        saved first, `NotFound` if the game is gone.
        """
        _check_size(data)
        new_players = None if players is None else user_ids(players)
        timing = {check_part("kind", k): due for k, due in (deadlines or {}).items()}
        plan = SavePlan(
            channel=str(channel),
            version=expected_version,
            data=data,
            now=repr(self._clock()),
            players=None if new_players is None else json.dumps(new_players),
            schedule={k: repr(float(due)) for k, due in timing.items() if due is not None},
            cancel=tuple(k for k, due in timing.items() if due is None),
        )
        client = await self._client()
        keys = [channel.game_key, channel.deadlines_key]
        reply = await self._replicas.write(client, _SAVE, keys, [plan.to_json()])
        status, value = reply[0], int(reply[1])
        if status == "missing":
            raise NotFound(f"{channel} has no game")
        if status in ("conflict", "moving"):
            if status == "moving":
                await self._settle_move(channel)
            raise Conflict(channel, expected_version, value)
        before = _players(reply[2])
        now = before if new_players is None else new_players
        await reindex(client, channel.platform, channel.channel_id, add=now, remove=before)
        return value

    @guarded
    async def archive(
        self,
        channel: Channel,
        expected_version: int | None = None,
        *,
        data: str | None = None,
        result: str | None = None,
        game_id: str = "-",
        cancel_deadlines: Iterable[str] = (),
    ) -> str:
        """Move the live game to its archive key with the archive TTL and cancel the given
        deadline kinds, all at once, then drop it from its players' indexes. `data`, if
        given, is saved as the game's last version in the same step (the end of a game);
        `result`, if given, is kept for good under `game_id` in that step too (`Conflict` if
        the live game is another one), and listed as not rated yet (`Results`).

        Returns the archive key; a resend of the same call (a lost reply) returns it too.
        Raises `NotFound` if there is no live game (e.g. it was archived already) and
        `Conflict` if `expected_version` is given and stale.
        """
        if data is not None:
            _check_size(data)
        if result is not None:
            _check_size(result)
        plan = ArchivePlan(
            channel=str(channel),
            archive_prefix=channel.archive_key(""),
            now=repr(self._clock()),
            ttl=self._archive_ttl,
            game_id=check_part("game_id", game_id),
            cancel=tuple(check_part("kind", kind) for kind in cancel_deadlines),
            version=expected_version,
            data=data or None,  # "" saves nothing, as None
            result=result or None,
        )
        keys = [
            channel.game_key,
            channel.deadlines_key,
            channel.last_key,
            channel.claims_key,
            channel.result_key(plan.game_id),
            channel.results_key,
            channel.unrated_key,
        ]
        client = await self._client()
        reply = await _ARCHIVE(client, keys, [plan.to_json()])
        status = reply[0]
        if status == "missing":
            raise NotFound(f"{channel} has no game")
        if status in ("conflict", "moving"):
            if status == "moving":
                await self._settle_move(channel)
            raise Conflict(channel, expected_version or 0, int(reply[1]))
        await reindex(client, channel.platform, channel.channel_id, remove=_players(reply[2]))
        return str(reply[1])

    @guarded
    async def last_archived(self, channel: Channel) -> GameRecord | None:
        """The channel's most recently archived game, while its archive lasts."""
        client = await self._client()
        game_id = await client.get(channel.last_key)
        if game_id is None:
            return None
        return await self.load_archived(channel, str(game_id))

    @guarded
    async def load_archived(self, channel: Channel, game_id: str) -> GameRecord | None:
        client = await self._client()
        fields = cast(dict[str, str], await client.hgetall(channel.archive_key(game_id)))
        if not fields:
            return None
        return GameRecord._from_hash(channel, fields)

    @guarded
    async def live_channels(self) -> list[Channel]:
        """Every channel with a live game (SCAN on every master, so a big keyspace does not
        block Redis)."""
        client = await self._client()
        found = []
        async for key in client.scan_iter(match=GAME_PATTERN, count=500):
            channel = Channel.of_game_key(str(key))
            if channel is not None:
                found.append(channel)
        return sorted(found, key=str)
