-- polite-redis: one decision for one key of a fleet, atomic, on Redis's clock.
--
-- KEYS[1] the key's state (hash): rate, burst, src, tokens, ts; the pause: until, refused, and its
--         evidence (since: when an answer last began or lengthened it; length: the delay that
--         answer named), prober and probeUntil (who re-verifies it, and until when);
--         f:<instance> = calls that instance has on the wire, p:<instance> = the pace it discovered
-- KEYS[2] the instances seen recently (sorted set, scored by the last time each asked)
-- ARGV    what LeaseRequest.toArgs() sends, in its order: each of its lines names the local below
--         that reads it (id, want, back, myRate, myBurst, mySrc, ..., probe), and LeaseRequest's
--         comment says what each one means. mySrc is PaceSource's code: 0 none, 1 discovered,
--         2 advertised. A pause begun, lengthened or ended is published on channel as
--         "<KEYS[1]> <micros left> <refused>", so that instances spending a lease hear it now.
--
-- Times are microseconds of Redis's TIME. The bucket may go into debt: a lease of more units than
-- the bucket holds is granted, and the caller spends unit j no sooner than (j - before) / rate
-- seconds after the answer. So every unit has one place in the fleet's schedule, whoever holds it.
--
-- A pause longer than the max wait is re-verified as one instance's is, but for the whole fleet:
-- once it has stood for probeEvery, the first instance to ask becomes its prober and sends one
-- call; the others are told how long until they may ask (and fail fast meanwhile). The prober's
-- answer ends the pause (resume) or renews it (a pause), for every instance; a prober that never
-- answers loses the role after probeEvery. A pause is never held longer than its length from
-- now: a Redis clock stepped back must not lengthen it.
--
-- Returns {granted, before, rate, burst, pauseLeft, alive, refused, probe, probeWait}, in the order
-- LeaseAnswer.of reads them; granted, before, rate and burst as strings (a Lua number in a reply is
-- cut to an integer), rate -1 when the fleet knows no pace; probe 1 when this instance is the
-- prober, probeWait the microseconds until it may ask to be (0 when it did not ask, or is). The
-- pace's source (src) is kept in the key's state for the next run to rank paces by; an instance
-- needs only the pace itself.

local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000000 + tonumber(t[2])
local id = ARGV[1]
local want = tonumber(ARGV[2])
local back = tonumber(ARGV[3])
local myRate = tonumber(ARGV[4])
local myBurst = tonumber(ARGV[5])
local mySrc = tonumber(ARGV[6])
local remaining = tonumber(ARGV[7])
local mine = tonumber(ARGV[8])
local pause = tonumber(ARGV[9])
local resume = ARGV[10] == '1'
local idle = tonumber(ARGV[11])
local aliveWindow = tonumber(ARGV[12])
local ahead = tonumber(ARGV[13])
local refused = ARGV[14] == '1'
local channel = ARGV[15]
local probeEvery = tonumber(ARGV[16])
local probe = ARGV[17] == '1'
local alone = ARGV[18] == '1'

-- Who is alive: whoever asked within the window. The gone take their calls in flight with them.
redis.call('ZADD', KEYS[2], now, id)
local gone = redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', now - aliveWindow)
for _, g in ipairs(gone) do
  redis.call('HDEL', KEYS[1], 'f:' .. g, 'p:' .. g)
end
if #gone > 0 then
  redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now - aliveWindow)
end
local alive = redis.call('ZCARD', KEYS[2])
redis.call('HSET', KEYS[1], 'f:' .. id, mine)

local s = redis.call('HMGET', KEYS[1], 'rate', 'burst', 'src', 'tokens', 'ts', 'until', 'refused',
  'since', 'length', 'prober', 'probeUntil')
local rate = tonumber(s[1])
local burst = tonumber(s[2])
local src = tonumber(s[3]) or 0
local tokens = tonumber(s[4])
local ts = tonumber(s[5])
local untilAt = tonumber(s[6]) or 0
local pauseRefused = s[7] == '1'
local since = tonumber(s[8]) or 0
local length = tonumber(s[9]) or 0
local prober = s[10] or ''
local probeUntil = tonumber(s[11]) or 0

-- The pace: advertised (2) outranks discovered (1). The newest advertised one wins. A discovered
-- pace is each instance's own, found from the refusals it met: the fleet's is their sum, over
-- the instances alive, so that the fleet's bucket holds the fleet to what its members found.
if mySrc == 2 then
  rate = myRate
  burst = myBurst
  src = 2
  redis.call('HSET', KEYS[1], 'rate', rate, 'burst', burst, 'src', src)
elseif mySrc == 1 and src < 2 then
  redis.call('HSET', KEYS[1], 'p:' .. id, myRate)
  local sum = 0
  local count = 0
  local fields = redis.call('HGETALL', KEYS[1])
  for i = 1, #fields, 2 do
    if string.sub(fields[i], 1, 2) == 'p:' then
      sum = sum + (tonumber(fields[i + 1]) or 0)
      count = count + 1
    end
  end
  rate = sum
  burst = math.max(1, count)
  src = 1
  redis.call('HSET', KEYS[1], 'rate', rate, 'burst', burst, 'src', src)
end

local untilBefore = untilAt
if resume then
  untilAt = 0
  pauseRefused = false
  prober = ''
end
if pause >= 0 then
  if untilAt <= now then
    pauseRefused = false -- the last pause is over: this one is news of its own
  end
  if now + pause > untilAt then
    untilAt = now + pause -- new evidence: it stands for probeEvery before anyone re-verifies it
    since = now
    length = pause
    prober = ''
  end
  pauseRefused = pauseRefused or refused
end
if untilAt - now > length then
  untilAt = now + length -- the clock stepped back: no longer than the delay the answer named
end
local pauseLeft = math.max(0, untilAt - now)

local isProber = 0
local probeWait = 0
if probe and pauseLeft > 0 then
  if now < since + probeEvery then
    probeWait = since + probeEvery - now
  elseif prober ~= '' and prober ~= id and now < probeUntil then
    probeWait = probeUntil - now
  else
    prober = id
    probeUntil = now + probeEvery
    isProber = 1
  end
end
local pauseFields = {'until', untilAt, 'refused', pauseRefused and '1' or '0', 'since', since,
  'length', length, 'prober', prober, 'probeUntil', probeUntil}
if untilAt ~= untilBefore and channel ~= '' and (pauseLeft > 0 or untilBefore > now) then
  redis.call('PUBLISH', channel, KEYS[1] .. ' ' .. pauseLeft .. ' ' .. (pauseRefused and '1' or '0'))
end

local granted = 0
local before = 0
if rate and rate > 0 then
  if tokens == nil or ts == nil then
    tokens = burst
    ts = now
  end
  tokens = math.min(burst, tokens + math.max(0, now - ts) * rate / 1000000)
  if back > 0 then
    tokens = math.min(burst, tokens + back)
  end
  if pause >= 0 or alone then
    -- Empty: the server said no more for now; or this instance paces alone on its share of the
    -- pace, unseen here, and so may the others (Redis was away), so what the bucket refilled
    -- meanwhile the server has had, and the fleet rejoins at its pace from empty, not with a
    -- burst the alone calls already spent.
    tokens = math.min(tokens, 0)
  end
  if remaining >= 0 then
    -- The server's count is behind by the calls on the wire, the fleet's as well as ours.
    local flying = 0
    local fields = redis.call('HGETALL', KEYS[1])
    for i = 1, #fields, 2 do
      if string.sub(fields[i], 1, 2) == 'f:' then
        flying = flying + (tonumber(fields[i + 1]) or 0)
      end
    end
    tokens = math.min(tokens, remaining - flying)
  end
  before = tokens
  if want > 0 and pauseLeft == 0 then
    -- Lend at most `ahead` seconds of the pace past empty, but always one unit: each waiting
    -- call keeps its place, and a pace cut later never leaves a debt of many seconds to repay.
    granted = math.max(math.min(want, 1), math.min(want, math.floor(tokens + rate * ahead / 1000000)))
    tokens = tokens - granted
  end
  redis.call('HSET', KEYS[1], 'tokens', tokens, 'ts', now, unpack(pauseFields))
else
  -- No pace known anywhere: every unit is free; only the pause is shared.
  if want > 0 and pauseLeft == 0 then
    granted = want
  end
  redis.call('HSET', KEYS[1], unpack(pauseFields))
end

redis.call('PEXPIRE', KEYS[1], idle)
redis.call('PEXPIRE', KEYS[2], idle)
return {tostring(granted), tostring(before), tostring(rate or -1), tostring(burst or -1), pauseLeft, alive,
  pauseRefused and 1 or 0, isProber, probeWait}
