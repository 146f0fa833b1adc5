-- GCRA: one theoretical arrival time per key; admitted when it ends at most burst*T ahead of now.
local interval = window / limit
local tolerance = burst * interval
local tat = tonumber(redis.call('GET', key)) or now
local new_tat = math.max(tat, now) + cost * interval
local allow_at = new_tat - tolerance
local allowed, retry = 0, 0
if allow_at <= now + 0.001 then
  tat = new_tat
  allowed = 1
else
  retry = math.ceil(allow_at - now)
end
local ahead = math.max(0, tat - now)
local remaining = math.max(0, math.floor(burst - ahead / interval + EPS))
local nxt = 0
if remaining < burst then
  nxt = math.max(0, math.ceil(ahead - (burst - remaining - 1) * interval))
end
if allowed == 1 then
  redis.call('SET', key, string.format('%.17g', tat), 'PX', math.ceil(ahead / 1000) + 1000)
end
return {allowed, remaining, retry, nxt}
