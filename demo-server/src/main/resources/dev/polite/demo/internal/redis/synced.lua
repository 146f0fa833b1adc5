-- The synced store's one round trip per key and sync: add this node's count since its last sync to
-- the shared state and read the fleet's total back. KEYS[1]: the key's shared state
-- ("rl:{KEY}:sync:FAMILY", hash-tagged for Cluster). Time comes from the node (ARGV), not from
-- Redis's TIME: each node keeps its view on its own clock between syncs, and the shared state must
-- be on the same one (nodes need synchronised clocks, milliseconds apart: small against the interval).
local mode = ARGV[1]
if mode == 'bucket' then
  -- GCRA form of the token bucket: the shared state is the theoretical arrival time (TAT, in
  -- microseconds). ARGV: since (the node's first admission since its last sync, us), n (units
  -- admitted since), interval (us per unit, fractional), ttl (ms).
  local since = tonumber(ARGV[2])
  local n = tonumber(ARGV[3])
  local interval = tonumber(ARGV[4])
  local tat = tonumber(redis.call('GET', KEYS[1])) or since
  if tat < since then
    tat = since
  end
  tat = tat + n * interval
  local text = string.format('%.0f', tat)
  redis.call('SET', KEYS[1], text, 'PX', tonumber(ARGV[5]))
  return text
end
-- Windows: one counter per aligned window index, fields of one hash. ARGV: index, n for the
-- previous window (counted there before the node noticed the new one), n for this one, ttl (ms).
-- Returns {previous window's total, this window's total}.
local index = tonumber(ARGV[2])
local previous = string.format('%.0f', index - 1)
local current = string.format('%.0f', index)
local n_previous = tonumber(ARGV[3])
if n_previous ~= 0 then
  redis.call('HINCRBY', KEYS[1], previous, n_previous)
end
local total = redis.call('HINCRBY', KEYS[1], current, tonumber(ARGV[4]))
local before = tonumber(redis.call('HGET', KEYS[1], previous)) or 0
redis.call('HDEL', KEYS[1], string.format('%.0f', index - 2))
redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[5]))
return {before, total}
