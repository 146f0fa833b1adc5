/**
 * polite-redis: one budget per key for a whole fleet of polite clients, held in Redis. Start at
 * {@link dev.polite.redis.RedisSharedState}.
 */
@NullMarked
package dev.polite.redis;

import org.jspecify.annotations.NullMarked;
