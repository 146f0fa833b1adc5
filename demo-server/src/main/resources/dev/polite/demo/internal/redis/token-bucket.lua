-- Token bucket: capacity `burst`, refilling at limit/window, lazy refill; a new key is full.
local rate = limit / window -- tokens per microsecond
local s = redis.call('HMGET', key, 'tokens', 'ts', 'owed')
local tokens = tonumber(s[1]) or burst
local ts = tonumber(s[2]) or now
if now > ts then
  tokens = math.min(burst, tokens + (now - ts) * rate)
else
  now = ts -- Redis's clock stepped back: no time passed
end
-- Reserved and not had back, never more than the bucket misses (the refill gave back the rest)
local owed = math.min(tonumber(s[3]) or 0, math.ceil(math.max(0, burst - tokens) - EPS))
local allowed, retry, given = 0, 0, 0
if cost < 0 then
  given = math.min(-cost, owed) -- a refund gives back what was reserved, once
  owed = owed - given
  tokens = math.min(burst, tokens + given) -- and stops at full
  allowed = 1
elseif tokens + EPS >= cost then
  tokens = math.max(0, tokens - cost)
  if reserving then
    owed = owed + cost
  end
  allowed = 1
else
  retry = math.ceil((cost - tokens) / rate)
end
local remaining = math.floor(tokens + EPS)
local nxt = 0
if remaining < burst then
  nxt = math.max(0, math.ceil((remaining + 1 - tokens) / rate))
end
-- Strings, formatted here: Redis would turn Lua numbers into integers, and %.14g loses digits.
redis.call('HSET', key, 'tokens', string.format('%.17g', tokens), 'ts', string.format('%.0f', now),
  'owed', string.format('%.0f', owed))
-- Forget idle clients once their bucket would be full again anyway (and nothing owed, then).
redis.call('PEXPIRE', key, math.ceil(burst / rate / 1000) + 1000)
return {allowed, remaining, retry, nxt, given}
