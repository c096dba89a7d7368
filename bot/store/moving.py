"""Moving a table to another chat id (a Telegram group that became a supergroup).

On a cluster the two channels lie in different slots, so no one script can move a table.
The move is three idempotent steps instead, each one script, each safe to run again by any
process after a crash: `begin_move` marks the old table as moving (a versioned write: a save
racing with it conflicts, and the table takes no more writes) and reads everything to copy;
`copy_move` creates the new table from that copy, once per move (its operation id), refusing
if the new channel already has another live table (the mark is then lifted); `end_move`
removes the old table, its chat settings and deadlines, leaving a `moved` pointer. A `load`
of a table marked moving finishes its move first.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import cast

from .base import StoreBase, guarded
from .connecting import Script
from .errors import AlreadyExists, StoreError
from .keys import Channel, GameRecord
from .plans import BeginMovePlan, CopyMovePlan, EndMovePlan
from .users import reindex

__all__ = ["Move", "Moving"]

# KEYS (old bucket): game, chat, last, deadlines, claims, moved. ARGV: a `BeginMovePlan`.
# Marks the table (unless already marked for the same channel) and replies {'ok', op,
# snapshot JSON}; {'elsewhere', channel} if marked for another one; without a table, {'none',
# moved pointer, snapshot without the game}.
_BEGIN = """
local game_key, chat_key, last_key, deadlines_key = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
local claims_key, moved_key = KEYS[5], KEYS[6]
local plan = cjson.decode(ARGV[1])
local game = redis.call('HGETALL', game_key)
local state, op = 'none', ''
if #game > 0 then
  local moving = redis.call('HGET', game_key, 'moving')
  if moving and moving ~= plan.new_channel then return {'elsewhere', moving, ''} end
  if not moving then
    local version = tonumber(redis.call('HGET', game_key, 'version'))
    redis.call('HSET', game_key, 'moving', plan.new_channel, 'move_op', plan.op,
      'version', version + 1)
    game = redis.call('HGETALL', game_key)
  end
  state, op = 'ok', redis.call('HGET', game_key, 'move_op')
else
  op = redis.call('GET', moved_key) or ''
end
local snap = {game = game, chat = redis.call('HGETALL', chat_key), deadlines = {}}
local last = redis.call('GET', last_key)
if last then
  snap.last = {last, redis.call('PTTL', last_key)}
  snap.archive = redis.call('HGETALL', plan.archive_prefix .. last)
  snap.archive_ttl = redis.call('PTTL', plan.archive_prefix .. last)
end
local prefix = plan.deadline_prefix
local rows = redis.call('ZRANGE', deadlines_key, 0, -1, 'WITHSCORES')
for i = 1, #rows, 2 do
  if string.sub(rows[i], 1, #prefix) == prefix then
    local token = redis.call('HGET', claims_key, rows[i]) or ''
    table.insert(snap.deadlines, {string.sub(rows[i], #prefix + 1), rows[i + 1], token})
  end
end
return {state, op, cjson.encode(snap)}
"""

# KEYS (new bucket): game, chat, last, deadlines, claims. ARGV: a `CopyMovePlan`. Nothing
# already at the new channel is overwritten.
_COPY = """
local game_key, chat_key, last_key, deadlines_key = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
local claims_key = KEYS[5]
local plan = cjson.decode(ARGV[1])
local snap = cjson.decode(plan.snapshot)
if plan.op ~= '' then
  if redis.call('EXISTS', game_key) == 1 then
    if redis.call('HGET', game_key, 'move_op') == plan.op then return 'ok' end
    return 'exists'
  end
  for i = 1, #snap.game, 2 do
    if snap.game[i] ~= 'moving' then
      redis.call('HSET', game_key, snap.game[i], snap.game[i + 1])
    end
  end
end
for i = 1, #snap.chat, 2 do redis.call('HSETNX', chat_key, snap.chat[i], snap.chat[i + 1]) end
if snap.last and redis.call('EXISTS', last_key) == 0 then
  local id, ttl = snap.last[1], tonumber(snap.last[2])
  if ttl > 0 then
    redis.call('SET', last_key, id, 'PX', ttl)
  else
    redis.call('SET', last_key, id)
  end
  local dest = plan.archive_prefix .. id
  if #snap.archive > 0 and redis.call('EXISTS', dest) == 0 then
    redis.call('HSET', dest, unpack(snap.archive))
    if tonumber(snap.archive_ttl) > 0 then redis.call('PEXPIRE', dest, snap.archive_ttl) end
  end
end
local prefix = plan.deadline_prefix
for _, row in ipairs(snap.deadlines) do
  redis.call('ZADD', deadlines_key, 'NX', row[2], prefix .. row[1])
  if row[3] ~= '' then redis.call('HSETNX', claims_key, prefix .. row[1], row[3]) end
end
return 'ok'
"""

# KEYS (old bucket): game, chat, last, deadlines, claims, moved. ARGV: an `EndMovePlan`.
_END = """
local game_key, chat_key, last_key, deadlines_key = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
local claims_key, moved_key = KEYS[5], KEYS[6]
local plan = cjson.decode(ARGV[1])
if plan.op ~= '' then
  local marked = redis.call('HMGET', game_key, 'move_op', 'moving')
  if marked[1] ~= plan.op or not marked[2] then
    if redis.call('GET', moved_key) == plan.new_channel then return 'ok' end
    return 'gone'
  end
elseif redis.call('EXISTS', game_key) == 1 then
  return 'live'
end
local last = redis.call('GET', last_key)
if last then redis.call('DEL', plan.archive_prefix .. last) end
redis.call('DEL', game_key, chat_key, last_key)
local prefix = plan.deadline_prefix
for _, member in ipairs(redis.call('ZRANGE', deadlines_key, 0, -1)) do
  if string.sub(member, 1, #prefix) == prefix then redis.call('ZREM', deadlines_key, member) end
end
for _, member in ipairs(redis.call('HKEYS', claims_key)) do
  if string.sub(member, 1, #prefix) == prefix then redis.call('HDEL', claims_key, member) end
end
redis.call('SET', moved_key, plan.new_channel, 'EX', plan.ttl)
return 'ok'
"""

# KEYS (old bucket): game, moved. ARGV: op, new channel (two: no plan). Lifts a mark the
# copy could not honour; 'moved' if the move had been finished by another process meanwhile.
_ABORT = """
local game_key, moved_key = KEYS[1], KEYS[2]
local op, new_channel = ARGV[1], ARGV[2]
local marked = redis.call('HMGET', game_key, 'move_op', 'moving')
if marked[1] == op and marked[2] then
  local version = tonumber(redis.call('HGET', game_key, 'version'))
  redis.call('HDEL', game_key, 'moving', 'move_op')
  redis.call('HSET', game_key, 'version', version + 1)
  return 'aborted'
end
if redis.call('GET', moved_key) == new_channel then return 'moved' end
return 'gone'
"""

BEGIN, COPY, END, ABORT = Script(_BEGIN), Script(_COPY), Script(_END), Script(_ABORT)


@dataclass(frozen=True, slots=True)
class Move:
    """A move under way: `op` identifies it ('' when the old channel had no live table:
    only its chat settings and last archived game move); `snapshot` is what `copy_move`
    writes at the new channel."""

    old: Channel
    new: Channel
    op: str
    snapshot: str
    players: tuple[str, ...] = ()
    finished: bool = False  # found already done: the old channel points to the new one


class Moving(StoreBase):
    """`move_channel` and its steps (see the module's docstring)."""

    @guarded
    async def move_channel(self, old: Channel, new: Channel) -> GameRecord | None:
        """Move the old channel's live table (with its chat settings, last archived game,
        deadlines and their claims) to `new`, and the players' index entries. Returns the
        table at `new`, None if the old channel had no live table. Raises `AlreadyExists`
        if `new` has another live table (nothing moves then), `Conflict` if the old table
        is being moved elsewhere. Safe to call again, and from two processes at once."""
        move = await self.begin_move(old, new)
        if not move.finished:
            await self.copy_move(move)
            await self.end_move(move)
        if not (move.op or move.finished):
            return None
        return await self._read(new)

    @guarded
    async def begin_move(self, old: Channel, new: Channel) -> Move:
        """Step 1: mark the old table as moving to `new` and read what is to be copied."""
        if old == new or old.platform != new.platform:
            raise ValueError(f"cannot move {old} to {new}")
        client = await self._client()
        state, op, snapshot = await BEGIN(
            client,
            [
                old.game_key,
                old.settings_key,
                old.last_key,
                old.deadlines_key,
                old.claims_key,
                old.moved_key,
            ],
            [
                BeginMovePlan(
                    new_channel=str(new),
                    deadline_prefix=f"{old}:",
                    archive_prefix=old.archive_key(""),
                ).to_json()
            ],
        )
        if state == "elsewhere":
            raise StoreError(f"{old} is being moved to {op}, not to {new}")
        if state == "none":
            return Move(old, new, "", snapshot, finished=op == str(new))
        game = json.loads(snapshot)["game"]
        fields = dict(zip(game[::2], game[1::2], strict=True))
        return Move(old, new, str(op), snapshot, tuple(json.loads(fields["players"])))

    @guarded
    async def copy_move(self, move: Move) -> None:
        """Step 2: create the new table (once per move). If the new channel has another
        live table, the old table's mark is lifted and `AlreadyExists` raised."""
        new = move.new
        client = await self._client()
        status = await COPY(
            client,
            [new.game_key, new.settings_key, new.last_key, new.deadlines_key, new.claims_key],
            [
                CopyMovePlan(
                    op=move.op,
                    snapshot=move.snapshot,
                    deadline_prefix=f"{new}:",
                    archive_prefix=new.archive_key(""),
                ).to_json()
            ],
        )
        if status != "exists":
            return
        old = move.old
        status = await ABORT(client, [old.game_key, old.moved_key], [move.op, str(new)])
        if status != "moved":
            raise AlreadyExists(f"{new} already has a game; {old} stays where it is")

    @guarded
    async def end_move(self, move: Move) -> None:
        """Step 3: remove the old table and leave a pointer to the new one; then move the
        players' index entries (best effort, as after any write)."""
        old = move.old
        client = await self._client()
        await END(
            client,
            [
                old.game_key,
                old.settings_key,
                old.last_key,
                old.deadlines_key,
                old.claims_key,
                old.moved_key,
            ],
            [
                EndMovePlan(
                    op=move.op,
                    new_channel=str(move.new),
                    ttl=self._archive_ttl,
                    deadline_prefix=f"{old}:",
                    archive_prefix=old.archive_key(""),
                ).to_json()
            ],
        )
        if move.players:
            await reindex(client, old.platform, old.channel_id, remove=move.players)
            await reindex(client, old.platform, move.new.channel_id, add=move.players)

    async def _finish_move(self, old: Channel, target: str) -> GameRecord | None:
        """A `load` met a table marked moving: finish the move, then read where it is."""
        new = Channel.parse(target)
        move = await self.begin_move(old, new)
        try:
            await self.copy_move(move)
        except AlreadyExists:
            return await self._read(old)
        await self.end_move(move)
        return await self._read(new)

    async def _settle_move(self, old: Channel) -> None:
        """A write met a table marked moving: finish its move, so the caller's next read
        finds the table where it went."""
        client = await self._client()
        target = await client.hget(old.game_key, "moving")
        if target:
            await self._finish_move(old, str(target))

    async def _read(self, channel: Channel) -> GameRecord | None:
        client = await self._client()
        fields = cast(dict[str, str], await client.hgetall(channel.game_key))
        return GameRecord._from_hash(channel, fields) if fields else None
