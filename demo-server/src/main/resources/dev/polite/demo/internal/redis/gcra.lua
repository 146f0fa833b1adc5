-- GCRA: one theoretical arrival time per key; admitted when it ends at most burst*T ahead of now.
-- KEYS[2]: what the key reserved and has not had back.
local interval = window / limit
local tolerance = burst * interval
local tat = tonumber(redis.call('GET', key)) or now
local base = math.max(tat, now)
-- Never more owed than the TAT's lead says the bucket misses (the refill gave back the rest)
local owed = math.min(tonumber(redis.call('GET', KEYS[2])) or 0, math.ceil((base - now) / interval - EPS))
local allowed, retry, given = 0, 0, 0
if cost < 0 then
  given = math.min(-cost, owed) -- a refund gives back what was reserved, once
  owed = owed - given
  tat = base - given * interval -- behind now reads as full: the capacity bounds it too
  allowed = 1
else
  local new_tat = base + cost * interval
  local allow_at = new_tat - tolerance
  if allow_at <= now + 0.001 then
    tat = new_tat
    if reserving then
      owed = owed + cost
    end
    allowed = 1
  else
    retry = math.ceil(allow_at - now)
  end
end
local ahead = math.max(0, tat - now)
local remaining = math.max(0, math.floor(burst - ahead / interval + EPS))
local nxt = 0
if remaining < burst then
  nxt = math.max(0, math.ceil(ahead - (burst - remaining - 1) * interval))
end
if allowed == 1 then
  local ttl = math.ceil(ahead / 1000) + 1000
  redis.call('SET', key, string.format('%.17g', tat), 'PX', ttl)
  if owed > 0 then
    redis.call('SET', KEYS[2], string.format('%.0f', owed), 'PX', ttl)
  else
    redis.call('DEL', KEYS[2])
  end
end
return {allowed, remaining, retry, nxt, given}
