"""The store's Lua scripts (run by `connecting.Script`): each is one atomic step on the keys
of one slot (one channel's bucket, see `keys`), so redis-py routes it by its first key on a
cluster as on one Redis.

Replies are {status, value...}. Redis does not roll back a script that fails halfway, so each
decodes its inputs before its first write. Every write carries a random operation id, so a
write that redis-py resends after a lost reply is recognised as already applied.
"""

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

# KEYS: game, chat settings. ARGV: game_id, data, now, creator, players (JSON), language, op,
# channel. The chat keeps the language of its first table (`ChatSettings.table_language`).
CREATE = """
if redis.call('EXISTS', KEYS[1]) == 1 then
  if redis.call('HGET', KEYS[1], 'op') == ARGV[7] then return {'ok', 1} end
  return {'exists', 0}
end
redis.call('HSET', KEYS[1], 'game_id', ARGV[1], 'version', 1, 'data', ARGV[2],
  'created', ARGV[3], 'updated', ARGV[3], 'creator', ARGV[4], 'players', ARGV[5],
  'language', ARGV[6], 'op', ARGV[7])
redis.call('HSETNX', KEYS[2], 'table_language', ARGV[6])
redis.call('PUBLISH', 'fc:changed', ARGV[8])
return {'ok', 1}
"""

# KEYS: game, bucket deadlines. ARGV: expected version, data, now, op, players (JSON, '' to
# keep them), deadline member prefix, then (kind, due or '' to cancel) pairs.
# Replies {status, version, players before the save (JSON)}; a table being moved to another
# channel takes no more writes.
SAVE = """
local cur = redis.call('HMGET', KEYS[1], 'version', 'op', 'players', 'moving')
if not cur[1] then return {'missing', 0, ''} end
local version = tonumber(cur[1])
if cur[4] then return {'moving', version, ''} end
local expected = tonumber(ARGV[1])
if version ~= expected then
  if version == expected + 1 and cur[2] == ARGV[4] then return {'ok', version, cur[3]} end
  return {'conflict', version, ''}
end
redis.call('HSET', KEYS[1], 'version', version + 1, 'data', ARGV[2], 'updated', ARGV[3],
  'op', ARGV[4])
if ARGV[5] ~= '' then redis.call('HSET', KEYS[1], 'players', ARGV[5]) end
for i = 7, #ARGV, 2 do
  if ARGV[i + 1] == '' then
    redis.call('ZREM', KEYS[2], ARGV[6] .. ARGV[i])
  else
    redis.call('ZADD', KEYS[2], ARGV[i + 1], ARGV[6] .. ARGV[i])
  end
end
redis.call('PUBLISH', 'fc:changed', string.sub(ARGV[6], 1, -2))
return {'ok', version + 1, cur[3]}
"""

# KEYS: game, bucket deadlines, last, bucket claims, result, channel's results, bucket's
# unrated results. ARGV: expected version or '', now, ttl, archive key prefix, deadline member
# prefix, op, final data or '', the result (JSON) or '', its unrated member, then kinds to
# cancel. The result is kept for good (no TTL), in the same step as the archive.
# Replies {status, archive key or version, players (JSON)}.
ARCHIVE = """
local last = redis.call('GET', KEYS[3])
if last and redis.call('HGET', ARGV[4] .. last, 'op') == ARGV[6] then
  return {'ok', ARGV[4] .. last, redis.call('HGET', ARGV[4] .. last, 'players')}
end
local cur = redis.call('HMGET', KEYS[1], 'version', 'game_id', 'players', 'moving')
if not cur[1] then return {'missing', 0, ''} end
if cur[4] then return {'moving', tonumber(cur[1]), ''} end
if ARGV[1] ~= '' and tonumber(cur[1]) ~= tonumber(ARGV[1]) then
  return {'conflict', tonumber(cur[1]), ''}
end
if ARGV[8] ~= '' and ARGV[9] ~= ARGV[5] .. cur[2] then
  return {'conflict', tonumber(cur[1]), ''}
end
local dest = ARGV[4] .. cur[2]
if ARGV[7] ~= '' then
  redis.call('HSET', KEYS[1], 'version', tonumber(cur[1]) + 1, 'data', ARGV[7],
    'updated', ARGV[2])
end
redis.call('HSET', KEYS[1], 'archived', ARGV[2], 'op', ARGV[6])
redis.call('RENAME', KEYS[1], dest)
redis.call('EXPIRE', dest, ARGV[3])
redis.call('SET', KEYS[3], cur[2], 'EX', ARGV[3])
if ARGV[8] ~= '' then
  redis.call('SET', KEYS[5], ARGV[8])
  redis.call('ZADD', KEYS[6], ARGV[2], ARGV[9])
  redis.call('SADD', KEYS[7], ARGV[9])
end
for i = 10, #ARGV do
  redis.call('ZREM', KEYS[2], ARGV[5] .. ARGV[i])
  redis.call('HDEL', KEYS[4], ARGV[5] .. ARGV[i])
end
redis.call('PUBLISH', 'fc:changed', string.sub(ARGV[5], 1, -2))
return {'ok', dest, cur[3]}
"""

# An ended game's archive with a forgotten person's seat made anonymous (`forget me`), only if
# it is still the one read: one moved to another chat meanwhile is renamed, and a write to its
# old key would make a new key that never expires. HSET keeps the archive's TTL.
# Its version moves on and its chat is published, as for a move: a page or picture of it kept
# by any process (`bot/web/hub.py`) or browser, by version, is not shown again.
# KEYS: archive (`fc:{..}:archive:<platform>:<chat>:<game id>`). ARGV: data as read, new data
# ('' deletes the archive), players (JSON), creator.
# Replies 1 if written, 0 if the archive changed or is gone.
FORGET_ARCHIVE = """
if redis.call('HGET', KEYS[1], 'data') ~= ARGV[1] then return 0 end
local parts = {}
for part in string.gmatch(KEYS[1], '[^:]+') do parts[#parts + 1] = part end
local written = 1
if ARGV[2] == '' then
  written = redis.call('DEL', KEYS[1])
else
  redis.call('HSET', KEYS[1], 'data', ARGV[2], 'players', ARGV[3], 'creator', ARGV[4])
  redis.call('HINCRBY', KEYS[1], 'version', 1)
end
redis.call('PUBLISH', 'fc:changed', parts[#parts - 2] .. ':' .. parts[#parts - 1])
return written
"""

# A claim is a lease: the deadline moves to the lease's end, so it comes due again unless
# `done` (or a new schedule) replaces it. A resent claim with the same token still wins.
# KEYS: bucket deadlines, bucket claims. ARGV: member, due, lease end, token.
CLAIM = """
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

# A lease still held (same token, same end) is pushed back to a new end; a resend wins too.
# KEYS: bucket deadlines, bucket claims. ARGV: member, lease end, new end, token.
RENEW = """
if redis.call('HGET', KEYS[2], ARGV[1]) ~= ARGV[4] then return 0 end
local score = redis.call('ZSCORE', KEYS[1], ARGV[1])
if not score then return 0 end
if tonumber(score) == tonumber(ARGV[2]) or tonumber(score) == tonumber(ARGV[3]) then
  redis.call('ZADD', KEYS[1], ARGV[3], ARGV[1])
  return 1
end
return 0
"""

# KEYS: bucket deadlines, bucket claims. ARGV: member, lease end, token.
DONE = """
if redis.call('HGET', KEYS[2], ARGV[1]) ~= ARGV[3] then return 0 end
redis.call('HDEL', KEYS[2], ARGV[1])
local score = redis.call('ZSCORE', KEYS[1], ARGV[1])
if score and tonumber(score) == tonumber(ARGV[2]) then
  redis.call('ZREM', KEYS[1], ARGV[1])
  return 1
end
return 0
"""

# A result's ratings, applied once (by its reference), all in the ratings' slot. The caller
# worked the new ratings out from what it read; if any of its players has played a game since
# (their count of games moved), nothing is written and it reads again.
# KEYS: applied, ratings (game), board (game), ids, members (game, community), then for each
# person: history, opponents (game), boards they are on. ARGV: reference, short id, end time,
# plan (JSON: players [{key, before, value, ordinal}], people [{opponents}], board, members).
APPLY = """
if redis.call('SISMEMBER', KEYS[1], ARGV[1]) == 1 then return 'applied' end
local plan = cjson.decode(ARGV[4])
for _, p in ipairs(plan.players) do
  local cur = redis.call('HGET', KEYS[2], p.key)
  local games = 0
  if cur then games = cjson.decode(cur).games end
  if games ~= p.before then return 'retry' end
end
for _, p in ipairs(plan.players) do
  redis.call('HSET', KEYS[2], p.key, p.value)
  redis.call('ZADD', KEYS[3], p.ordinal, p.key)
end
for _, key in ipairs(plan.members) do redis.call('SADD', KEYS[5], key) end
local k = 6
for _, p in ipairs(plan.people) do
  redis.call('ZADD', KEYS[k], ARGV[3], ARGV[1])
  for _, o in ipairs(p.opponents) do redis.call('HINCRBY', KEYS[k + 1], o, 1) end
  redis.call('SADD', KEYS[k + 2], plan.board)
  k = k + 3
end
local prior = redis.call('HGET', KEYS[4], ARGV[2])
if prior then
  redis.call('HSET', KEYS[4], ARGV[2], prior .. ' ' .. ARGV[1])
else
  redis.call('HSET', KEYS[4], ARGV[2], ARGV[1])
end
redis.call('SADD', KEYS[1], ARGV[1])
return 'ok'
"""
