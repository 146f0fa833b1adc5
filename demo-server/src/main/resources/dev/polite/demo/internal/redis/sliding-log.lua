-- Sliding log: a sorted set of admitted units scored by time; KEYS[2] numbers the members.
local seq_key = KEYS[2]
redis.call('ZREMRANGEBYSCORE', key, '-inf', string.format('%.0f', now - window))
local used = redis.call('ZCARD', key)
local allowed, retry = 0, 0
if used + cost <= limit then
  local seq = redis.call('INCR', seq_key)
  for i = 1, cost do
    redis.call('ZADD', key, string.format('%.0f', now), seq .. ':' .. i)
  end
  used = used + cost
  allowed = 1
  local ttl = math.ceil(window / 1000) + 1000
  redis.call('PEXPIRE', key, ttl)
  redis.call('PEXPIRE', seq_key, ttl)
else
  local need = used + cost - limit
  local entry = redis.call('ZRANGE', key, need - 1, need - 1, 'WITHSCORES')
  if entry[2] then
    retry = math.max(1, math.ceil(tonumber(entry[2]) + window - now))
  else
    retry = window
  end
end
local nxt = 0
if used > 0 then
  local oldest = redis.call('ZRANGE', key, 0, 0, 'WITHSCORES')
  nxt = math.max(1, math.ceil(tonumber(oldest[2]) + window - now))
end
return {allowed, limit - used, retry, nxt}
