"""The store's Lua scripts (run by `connecting.Script`): each is one atomic step on the keys
of one slot (one channel's bucket, see `keys`), so redis-py routes it by its first key on a
cluster as on one Redis.

A script with more than two arguments takes one, a plan (JSON, `plans`) with named fields,
and names its KEYS (positional, as a cluster routes by them) at its top.

Replies are {status, value...}. Redis does not roll back a script that fails halfway, so each
decodes its inputs before its first write. Every write carries a random operation id, so a
write that redis-py resends after a lost reply is recognised as already applied.
"""

from __future__ import annotations

__all__ = [
    "APPLY",
    "ARCHIVE",
    "CHANGES",
    "CLAIM",
    "CREATE",
    "DONE",
    "FORGET_ARCHIVE",
    "RENEW",
    "SAVE",
]

# Where CREATE, SAVE and ARCHIVE say which table changed ("<platform>:<channel>"), in the same
# step as the write: open web pages learn of a move from any process, and no write goes
# unsaid (a process dying after the write has published already). Plain PUBLISH reaches every
# node of a cluster, so a listener may subscribe on any one (`changes`).
CHANGES = "fc:changed"

# KEYS: game, chat settings. ARGV: a `CreatePlan`. The chat keeps the language of its first
# table (`ChatSettings.table_language`).
CREATE = """
local game_key, settings_key = KEYS[1], KEYS[2]
local plan = cjson.decode(ARGV[1])
if redis.call('EXISTS', game_key) == 1 then
  if redis.call('HGET', game_key, 'op') == plan.op then return {'ok', 1} end
  return {'exists', 0}
end
redis.call('HSET', game_key, 'game_id', plan.game_id, 'version', 1, 'data', plan.data,
  'created', plan.now, 'updated', plan.now, 'creator', plan.creator, 'players', plan.players,
  'language', plan.language, 'op', plan.op)
redis.call('HSETNX', settings_key, 'table_language', plan.language)
redis.call('PUBLISH', 'fc:changed', plan.channel)
return {'ok', 1}
"""

# KEYS: game, bucket deadlines. ARGV: a `SavePlan`.
# Replies {status, version, players before the save (JSON)}; a table being moved to another
# channel takes no more writes.
SAVE = """
local game_key, deadlines_key = KEYS[1], KEYS[2]
local plan = cjson.decode(ARGV[1])
local cur = redis.call('HMGET', game_key, 'version', 'op', 'players', 'moving')
if not cur[1] then return {'missing', 0, ''} end
local version = tonumber(cur[1])
if cur[4] then return {'moving', version, ''} end
if version ~= plan.version then
  if version == plan.version + 1 and cur[2] == plan.op then return {'ok', version, cur[3]} end
  return {'conflict', version, ''}
end
redis.call('HSET', game_key, 'version', version + 1, 'data', plan.data, 'updated', plan.now,
  'op', plan.op)
if plan.players then redis.call('HSET', game_key, 'players', plan.players) end
local prefix = plan.channel .. ':'
for kind, due in pairs(plan.schedule) do redis.call('ZADD', deadlines_key, due, prefix .. kind) end
for _, kind in ipairs(plan.cancel) do redis.call('ZREM', deadlines_key, prefix .. kind) end
redis.call('PUBLISH', 'fc:changed', plan.channel)
return {'ok', version + 1, cur[3]}
"""

# KEYS: game, bucket deadlines, last, bucket claims, result, channel's results, bucket's
# unrated results. ARGV: an `ArchivePlan`. The result is kept for good (no TTL), in the same
# step as the archive. Replies {status, archive key or version, players (JSON)}.
ARCHIVE = """
local game_key, deadlines_key, last_key, claims_key = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
local result_key, results_key, unrated_key = KEYS[5], KEYS[6], KEYS[7]
local plan = cjson.decode(ARGV[1])
local prefix = plan.channel .. ':'
local last = redis.call('GET', last_key)
if last and redis.call('HGET', plan.archive_prefix .. last, 'op') == plan.op then
  local kept = plan.archive_prefix .. last
  return {'ok', kept, redis.call('HGET', kept, 'players')}
end
local cur = redis.call('HMGET', game_key, 'version', 'game_id', 'players', 'moving')
if not cur[1] then return {'missing', 0, ''} end
local version = tonumber(cur[1])
if cur[4] then return {'moving', version, ''} end
if plan.version and version ~= plan.version then return {'conflict', version, ''} end
if plan.result and plan.game_id ~= cur[2] then return {'conflict', version, ''} end
local dest = plan.archive_prefix .. cur[2]
if plan.data then
  redis.call('HSET', game_key, 'version', version + 1, 'data', plan.data, 'updated', plan.now)
end
redis.call('HSET', game_key, 'archived', plan.now, 'op', plan.op)
redis.call('RENAME', game_key, dest)
redis.call('EXPIRE', dest, plan.ttl)
redis.call('SET', last_key, cur[2], 'EX', plan.ttl)
if plan.result then
  redis.call('SET', result_key, plan.result)
  redis.call('ZADD', results_key, plan.now, prefix .. plan.game_id)
  redis.call('SADD', unrated_key, prefix .. plan.game_id)
end
for _, kind in ipairs(plan.cancel) do
  redis.call('ZREM', deadlines_key, prefix .. kind)
  redis.call('HDEL', claims_key, prefix .. kind)
end
redis.call('PUBLISH', 'fc:changed', plan.channel)
return {'ok', dest, cur[3]}
"""

# An ended game's archive with a forgotten person's seat made anonymous (`forget me`), only if
# it is still the one read: one moved to another chat meanwhile is renamed, and a write to its
# old key would make a new key that never expires. HSET keeps the archive's TTL.
# Its version moves on and its chat is published, as for a move: a page or picture of it kept
# by any process (`bot/web/hub.py`) or browser, by version, is not shown again.
# KEYS: archive (`fc:{..}:archive:<platform>:<chat>:<game id>`). ARGV: a `ForgetArchivePlan`.
# Replies 1 if written, 0 if the archive changed or is gone.
FORGET_ARCHIVE = """
local archive_key = KEYS[1]
local plan = cjson.decode(ARGV[1])
if redis.call('HGET', archive_key, 'data') ~= plan.read then return 0 end
local parts = {}
for part in string.gmatch(archive_key, '[^:]+') do parts[#parts + 1] = part end
local written = 1
if plan.data == '' then
  written = redis.call('DEL', archive_key)
else
  redis.call('HSET', archive_key, 'data', plan.data, 'players', plan.players,
    'creator', plan.creator)
  redis.call('HINCRBY', archive_key, 'version', 1)
end
redis.call('PUBLISH', 'fc:changed', parts[#parts - 2] .. ':' .. parts[#parts - 1])
return written
"""

# A claim is a lease: the deadline moves to the lease's end, so it comes due again unless
# `done` (or a new schedule) replaces it. A resent claim with the same token still wins.
# KEYS: bucket deadlines, bucket claims. ARGV: a `ClaimPlan` (`new_due`: the lease's end).
CLAIM = """
local deadlines_key, claims_key = KEYS[1], KEYS[2]
local plan = cjson.decode(ARGV[1])
local score = redis.call('ZSCORE', deadlines_key, plan.member)
if not score then return 0 end
if tonumber(score) == tonumber(plan.due) then
  redis.call('ZADD', deadlines_key, plan.new_due, plan.member)
  redis.call('HSET', claims_key, plan.member, plan.token)
  return 1
end
if tonumber(score) == tonumber(plan.new_due)
  and redis.call('HGET', claims_key, plan.member) == plan.token then
  return 1
end
return 0
"""

# A lease still held (same token, same end) is pushed back to a new end; a resend wins too.
# KEYS: bucket deadlines, bucket claims. ARGV: a `ClaimPlan` (`due`: the lease's end,
# `new_due`: the new end).
RENEW = """
local deadlines_key, claims_key = KEYS[1], KEYS[2]
local plan = cjson.decode(ARGV[1])
if redis.call('HGET', claims_key, plan.member) ~= plan.token then return 0 end
local score = redis.call('ZSCORE', deadlines_key, plan.member)
if not score then return 0 end
if tonumber(score) == tonumber(plan.due) or tonumber(score) == tonumber(plan.new_due) then
  redis.call('ZADD', deadlines_key, plan.new_due, plan.member)
  return 1
end
return 0
"""

# KEYS: bucket deadlines, bucket claims. ARGV: a `LeasePlan` (`due`: the lease's end).
DONE = """
local deadlines_key, claims_key = KEYS[1], KEYS[2]
local plan = cjson.decode(ARGV[1])
if redis.call('HGET', claims_key, plan.member) ~= plan.token then return 0 end
redis.call('HDEL', claims_key, plan.member)
local score = redis.call('ZSCORE', deadlines_key, plan.member)
if score and tonumber(score) == tonumber(plan.due) then
  redis.call('ZREM', deadlines_key, plan.member)
  return 1
end
return 0
"""

# A result's ratings, applied once (by its reference), all in the ratings' slot. The caller
# worked the new ratings out from what it read; if any of its players has played a game since
# (their count of games moved), nothing is written and it reads again.
# KEYS: applied, ratings (game), board (game), ids, members (game, community), then for each
# of the plan's people: history, opponents (game), boards they are on. ARGV: an `ApplyPlan`.
APPLY = """
local applied_key, ratings_key, board_key, ids_key = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
local members_key = KEYS[5]
local plan = cjson.decode(ARGV[1])
if redis.call('SISMEMBER', applied_key, plan.ref) == 1 then return 'applied' end
for _, player in ipairs(plan.players) do
  local cur = redis.call('HGET', ratings_key, player.key)
  local games = 0
  if cur then games = cjson.decode(cur).games end
  if games ~= player.before then return 'retry' end
end
for _, player in ipairs(plan.players) do
  redis.call('HSET', ratings_key, player.key, player.value)
  redis.call('ZADD', board_key, player.ordinal, player.key)
end
for _, key in ipairs(plan.members) do redis.call('SADD', members_key, key) end
local k = 6
for _, person in ipairs(plan.people) do
  local history_key, opponents_key, boards_key = KEYS[k], KEYS[k + 1], KEYS[k + 2]
  redis.call('ZADD', history_key, plan.ended, plan.ref)
  for _, o in ipairs(person.opponents) do redis.call('HINCRBY', opponents_key, o, 1) end
  redis.call('SADD', boards_key, plan.board)
  k = k + 3
end
local prior = redis.call('HGET', ids_key, plan.short)
if prior then
  redis.call('HSET', ids_key, plan.short, prior .. ' ' .. plan.ref)
else
  redis.call('HSET', ids_key, plan.short, plan.ref)
end
redis.call('SADD', applied_key, plan.ref)
return 'ok'
"""
