-- polite-redis: one decision for one key of a fleet, atomic, on Redis's clock.
--
-- KEYS[1] the key's state (hash): rate, burst, src, tokens, ts; the pause: until, refused, and its
--         evidence (since: when an answer last began or lengthened it; length: the delay that
--         answer named), prober and probeUntil (who re-verifies it, and until when);
--         f:<instance> = calls that instance has on the wire; disc and discUntil (which instance
--         discovers the pace for the fleet, and until when); a discovered pace's AIMD: lastRefused
--         (its knee; -1: none believed), changed and cutAt (when it last moved, and was last cut),
--         what the fleet sent (spent units since spentAt, spentBefore units a second over the span
--         before), aloneAt (when a member last asked while pacing alone), and summedUntil (until
--         when the first pace is revised: by the discoverer, revisedBy, or by the parts of the
--         members marked p:<instance> summed into it)
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
-- While no instance knows a pace, the fleet discovers one as one instance would: the first
-- instance to ask with calls to send (discover) sends them for discoverFor; the others are told
-- how long to hold theirs (discoverWait). Every instance starting at once would otherwise meet the
-- limit with at least one call each before the first refusal is heard. The discovery ends when a
-- pace is known (published on channel as "<KEYS[1]> paced", so that the instances holding back
-- ask again at once; a refusal is a pause, published as one) or when discoverFor is over with no
-- pace found: then every instance sends, as if no discovery had been.
--
-- Returns {granted, before, rate, burst, pauseLeft, alive, refused, probe, probeWait, discoverWait,
-- discovering}, in the order LeaseAnswer.of reads them; granted, before, rate and burst as strings
-- (a Lua number in a reply is cut to an integer), rate -1 when the fleet knows no pace; probe 1
-- when this instance is the prober, probeWait the microseconds until it may ask to be (0 when it
-- did not ask, or is); discoverWait the microseconds this instance holds its calls while another
-- discovers, discovering the microseconds it still discovers for the fleet (0 when it does not). The
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
local discover = ARGV[19] == '1'
local discoverFor = tonumber(ARGV[20])
local sent = tonumber(ARGV[21])
local heard = tonumber(ARGV[22])

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
  'since', 'length', 'prober', 'probeUntil', 'disc', 'discUntil', 'spent', 'spentAt', 'spentBefore',
  'lastRefused', 'changed', 'cutAt', 'aloneAt', 'summedUntil', 'revisedBy')
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
local disc = s[12] or ''
local discUntil = tonumber(s[13]) or 0
local spent = tonumber(s[14]) or 0
local spentAt = tonumber(s[15]) or now
local spentBefore = tonumber(s[16]) or 0
local lastRefused = tonumber(s[17]) or -1
local changed = tonumber(s[18]) or now
local cutAt = tonumber(s[19]) or 0
local aloneAt = tonumber(s[20]) or 0
local summedUntil = tonumber(s[21]) or 0
local revisedBy = s[22] or ''
if alone then
  aloneAt = now
  redis.call('HSET', KEYS[1], 'aloneAt', aloneAt)
end
local paceBefore = rate

-- The pace: advertised (2) outranks discovered (1). The newest advertised one wins; a discovered
-- one is the fleet's own, cut and climbed below once the pause is read.
if mySrc == 2 then
  rate = myRate
  burst = myBurst
  src = 2
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

-- The discovered pace: one AIMD for the whole fleet, with Aimd.defaults()'s rules (AimdController):
-- a refusal cuts to 0.9 of what was spent; quiet time climbs fast to just under the pace last
-- refused (the knee), then at a tenth of that or a percent of the knee a second, whichever is
-- less, and never past twice what was spent. The fast climb is one instance's 1/s a second for
-- each member alive: alone, each would climb so, and the fleet's pace is what they share.
--
-- Each member's own controller only says that it met a refusal, and once, how much it was
-- admitted. Its pace is its own share, or the fleet's as one member saw it: summed, every member
-- that met no refusal counts for nothing; averaged, every member that never heard how many share
-- the key counts as the whole fleet. So the script keeps the pace:
-- * The first one is the discoverer's, when it sent alone (the others held their calls), or
--   else the sum of the parts the members find within a second (they sent beside each other:
--   some paced alone while Redis was late, or the discovery was over). For that second the
--   discoverer's own revisions of its cut raise it.
-- * The discoverer's reading (what it was admitted in its first second, its pace / 0.9) is the
--   knee, as one instance's first cut is, when it counted KNEE_EVIDENCE calls or more. Fewer is a
--   few milliseconds of a server that others may have just drained (2 calls of a limit of 10):
--   believed, the fleet would creep up from it at a percent a second while its calls queue past
--   their max wait. A sum's parts were read apart, so its knee is unknown too. An unknown knee is
--   found by the first refusal at the fleet's own pace; until then the fleet climbs fast.
-- * A refusal, told by any member, cuts from what the fleet spent (the calls its members say they
--   sent, over the last SPAN), at most once a second: a refusal's pause holds every member, and
--   the refusals of calls already on the wire are that refusal's news.
-- * A state lost (Redis restarted empty) starts again from the pace a member last heard.
local SPAN = 2000000
local DECREASE, INCREASE, FLOOR = 0.9, 1.0, 0.5
local KNEE, SLOWDOWN, PROBE_SHARE, FORGET_ABOVE = 0.95, 0.1, 0.01, 1.05
-- Ten calls counted: a count's error is about its square root, a third of it at ten.
local KNEE_EVIDENCE = 10
if now < spentAt then
  spentAt = now -- the clock stepped back: this span starts again, what it counted kept
elseif now - spentAt >= SPAN then
  spentBefore = spent * 1000000 / (now - spentAt)
  spent = 0
  spentAt = now
end
-- What a member sent since its last request, on a lease or not: the server had those calls. (A
-- lease's units are granted seconds ahead of their calls, and some never go.)
spent = spent + sent
-- Units a second over the last SPAN: this span's, and the last one's for the part not yet run.
local function spentRate()
  return (spent + spentBefore * (SPAN - (now - spentAt)) / 1000000) * 1000000 / SPAN
end
-- From `from`, `seconds` of climbing: fast to the knee, then slow.
local function climb(from, seconds)
  local fast = INCREASE * alive
  if lastRefused < 0 then
    return from + fast * seconds
  end
  local knee = lastRefused * KNEE
  local slow = math.min(fast * SLOWDOWN, lastRefused * PROBE_SHARE)
  if from >= knee then
    return from + slow * seconds
  end
  local toKnee = (knee - from) / fast
  if seconds <= toKnee then
    return from + fast * seconds
  end
  return knee + slow * (seconds - toKnee)
end
if src < 2 then
  if src == 0 then
    if heard > 0 then
      rate = heard
    elseif mySrc == 1 and myRate > 0 then
      rate = myRate
      summedUntil = now + 1000000
      if id == disc and aloneAt == 0 then
        revisedBy = id
      else
        revisedBy = ''
        redis.call('HSET', KEYS[1], 'p:' .. id, 1)
      end
    end
    if rate and rate > 0 then
      src = 1
      burst = 1 -- one call, as one instance's discovered pace holds: the server's burst is unknown
      lastRefused = -1
      if revisedBy ~= '' and myRate / DECREASE >= KNEE_EVIDENCE then
        lastRefused = myRate / DECREASE -- the discoverer's reading, alone on the server
      end
      changed = now
      cutAt = now
    end
  elseif mySrc == 1 and myRate > 0 and now < summedUntil and revisedBy == id then
    -- The discoverer's cut, raised by the calls its refusal's answer overtook (admitted before
    -- it, answered after: AimdController.onAdmittedBeforeCut). At 4 callers, up to 3 of them: read
    -- without them, the first pace started up to a sixth under the server's rate, and climbed
    -- from there at a percent a second.
    if myRate > rate then
      rate = myRate
      if lastRefused >= 0 then
        lastRefused = math.max(lastRefused, myRate / DECREASE)
      end
    end
  elseif mySrc == 1 and myRate > 0 and now < summedUntil and revisedBy == ''
      and redis.call('HSETNX', KEYS[1], 'p:' .. id, 1) == 1 then
    rate = rate + myRate -- another member's part of the first pace
  elseif pause >= 0 and refused then
    if now - cutAt >= 1000000 then
      local read = spentRate()
      local base = read > 0 and math.min(rate, read) or rate
      lastRefused = base
      rate = math.max(FLOOR, base * DECREASE)
      changed = now
      cutAt = now
    end
  elseif pauseLeft == 0 then
    local raised = climb(rate, math.max(0, now - changed) / 1000000)
    if lastRefused >= 0 and raised > lastRefused * FORGET_ABOVE then
      lastRefused = -1 -- well past the pace once refused, unrefused: that was no limit
    end
    rate = math.max(FLOOR, math.min(raised, math.max(rate, 2 * spentRate())))
    changed = now
  end
  if src == 1 then
    redis.call('HSET', KEYS[1], 'rate', rate, 'burst', burst, 'src', src, 'lastRefused', lastRefused,
      'changed', changed, 'cutAt', cutAt, 'summedUntil', summedUntil, 'revisedBy', revisedBy)
  end
end

if (paceBefore == nil or paceBefore <= 0) and rate and rate > 0 and now < discUntil and channel ~= '' then
  redis.call('PUBLISH', channel, KEYS[1] .. ' paced') -- the discovery is over: the held ask again
end

local granted = 0
local before = 0
local discoverWait = 0
local discovering = 0
if rate and rate > 0 then
  if tokens == nil or ts == nil then
    -- An advertised pace starts full, as the server's own count does; a discovered one empty, as
    -- one instance's does after the cut that found it: the refusal has just spent the server's.
    tokens = src == 1 and 0 or burst
    ts = now
  end
  tokens = math.min(burst, tokens + math.max(0, now - ts) * rate / 1000000)
  if back > 0 then
    -- Units given back (expired, or surrendered when a request timed out) refill the bucket and
    -- pay its debt. Not a refusal's: it voids the debt below, and the instances drop their leases
    -- instead of giving them back; given back as well, each refilled the bucket once more, and
    -- every instance was granted a unit due at once. Paying the debt with the others keeps a
    -- fleet whose requests time out near its pace: discarded while in debt, every lease an
    -- instance surrendered to pace alone was capacity lost (sdk-redis/README.md).
    tokens = math.min(burst, tokens + back)
  end
  if pause >= 0 and refused then
    -- A refusal: every instance gives its lease up on hearing it (RedisSharedKey), so what the
    -- bucket lent past empty is void, and its places free. Empty, not in debt: the fleet resumes
    -- at its pace when the pause is over, not behind the leases it gave up.
    tokens = 0
  elseif pause >= 0 or alone then
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
  -- No pace known anywhere: the first to discover sends for the fleet; the others hold their
  -- calls until it has found one or its time is over. Then every unit is free; only the pause
  -- is shared.
  if discover and discUntil == 0 then
    disc = id
    discUntil = now + discoverFor
  end
  if disc ~= id and now < discUntil then
    discoverWait = discUntil - now
  elseif disc == id and now < discUntil then
    discovering = discUntil - now
  end
  if want > 0 and pauseLeft == 0 and discoverWait == 0 then
    granted = want
  end
  redis.call('HSET', KEYS[1], 'disc', disc, 'discUntil', discUntil, unpack(pauseFields))
end

redis.call('HSET', KEYS[1], 'spent', spent, 'spentAt', spentAt, 'spentBefore', spentBefore)
redis.call('PEXPIRE', KEYS[1], idle)
redis.call('PEXPIRE', KEYS[2], idle)
return {tostring(granted), tostring(before), tostring(rate or -1), tostring(burst or -1), pauseLeft, alive,
  pauseRefused and 1 or 0, isProber, probeWait, discoverWait, discovering}
