-- Fixed window: one counter per aligned window, kept in one hash so KEYS[1] is the only key.
local index = math.floor(now / window)
local s = redis.call('HMGET', key, 'win', 'count')
local count = tonumber(s[2]) or 0
if tonumber(s[1]) ~= index then
  count = 0
end
local until_end = math.ceil((index + 1) * window - now)
local allowed, retry = 0, 0
if count + cost <= limit then
  count = count + cost
  allowed = 1
  redis.call('HSET', key, 'win', string.format('%.0f', index), 'count', count)
  redis.call('PEXPIRE', key, math.ceil(until_end / 1000) + 1000)
else
  retry = until_end
end
local nxt = 0
if count > 0 then
  nxt = until_end
end
return {allowed, limit - count, retry, nxt}
