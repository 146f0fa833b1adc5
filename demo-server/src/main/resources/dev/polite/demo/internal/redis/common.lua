-- Shared prologue of every limiter script. KEYS[1]: the key's state ("rl:{KEY}:ALGO", hash-tagged
-- so every key of one client lands in one Cluster slot). ARGV: limit, window (microseconds),
-- burst, cost, and '1' when the cost is a reservation (which a refund, a negative cost, may give
-- back: the bucket scripts keep what is owed). Time is Redis's own clock, so app servers with
-- skewed clocks agree. Every script returns {allowed, remaining, retry_us, next_us} as integers,
-- and the bucket scripts a fifth: the units a refund gave back.
local key = KEYS[1]
local limit = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local burst = tonumber(ARGV[3])
local cost = tonumber(ARGV[4])
local reserving = ARGV[5] == '1'
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000000 + tonumber(t[2])
local EPS = 1e-9
