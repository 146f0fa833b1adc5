package dev.polite.redis;

import java.time.Duration;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * The settings every key of one {@link RedisSharedState} reads, as its builder froze them.
 *
 * @param timeoutNanos the most a call waits for Redis
 * @param prefix what every Redis key and the pause channel start with
 * @param leaseForNanos how long a lease of units lasts
 * @param validityNanos how long a lease's units stay valid
 * @param idleExpiryMillis when an idle key's state expires in Redis
 * @param aliveWindowMicros how recently a member must have asked to count as alive
 * @param retryEveryNanos how often, at most, a key pacing alone asks again
 * @param connectWait how long building waits for the first connection
 * @param instanceId this instance's name among the fleet's members
 * @param callWaited the listener told how long calls waited for Redis; null for none
 */
record SharedSettings(long timeoutNanos, String prefix, long leaseForNanos, long validityNanos,
    long idleExpiryMillis, long aliveWindowMicros, long retryEveryNanos, Duration connectWait,
    String instanceId, @Nullable Consumer<Duration> callWaited) {}
