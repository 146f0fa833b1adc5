/**
 * polite-redis: one budget per key for a whole fleet of polite clients, held in Redis. Start at
 * {@link dev.polite.redis.RedisSharedState}, the one public class; the rest is its parts: each
 * key's side ({@code RedisSharedKey}, which sees its state only as a {@code Fleet}, with its
 * leases, outbox, probe turn and fallback bucket), the nodes whose keys pace alone
 * ({@code DownNodes}), the lease script and its request and answer, and the link to one server
 * or a Cluster ({@code RedisLink}, read from a URI by
 * {@code RedisLinks}).
 *
 * <p>It may import polite's public API ({@code dev.polite}: the shared state and key it
 * implements), Lettuce (and Netty under it), SLF4J and JSpecify; it may not import any HTTP
 * engine nor polite's internals.
 */
@NullMarked
package dev.polite.redis;

import org.jspecify.annotations.NullMarked;
