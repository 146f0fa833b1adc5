-- Sliding window counter: previous and current window counts, the previous weighted by overlap.
local index = math.floor(now / window)
local s = redis.call('HMGET', key, 'win', 'prev', 'cur')
local win = tonumber(s[1])
local prev = tonumber(s[2]) or 0
local cur = tonumber(s[3]) or 0
if win == nil or index > win + 1 then
  prev, cur = 0, 0
elseif index == win + 1 then
  prev, cur = cur, 0
elseif index < win then
  index = win -- Redis's clock stepped back
end
local elapsed = math.max(0, now - index * window)
local function estimate()
  return prev * (1 - elapsed / window) + cur
end
local function until_fits(units)
  if cur + units <= limit then
    if prev == 0 then
      return 0
    end
    local fraction = 1 - (limit - cur - units) / prev
    return math.max(0, math.ceil(fraction * window - elapsed))
  end
  local until_end = window - elapsed
  if cur == 0 or units > limit then
    return math.ceil(until_end)
  end
  local fraction = math.max(0, 1 - (limit - units) / cur)
  return math.ceil(until_end + fraction * window)
end
local allowed, retry = 0, 0
if estimate() + cost <= limit + EPS then
  cur = cur + cost
  allowed = 1
  redis.call('HSET', key, 'win', string.format('%.0f', index), 'prev', prev, 'cur', cur)
  redis.call('PEXPIRE', key, math.ceil(2 * window / 1000) + 1000)
else
  retry = math.max(1, until_fits(cost))
end
local remaining = math.max(0, math.floor(limit - estimate() + EPS))
local nxt = 0
if remaining < limit then
  nxt = until_fits(remaining + 1)
end
return {allowed, remaining, retry, nxt}
