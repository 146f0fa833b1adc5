/**
 * Internals of the demo server, not API: the limiter algorithms (one {@code RateLimiter} each,
 * clock-driven) and the stores that keep their state ({@code MemoryStore}, {@code RedisStore},
 * {@code SyncedStore}, with {@code OutageFallback} for a Redis that does not answer), the keys
 * and budgets a request is counted under, the quota headers of each dialect, and the HTTP front
 * on Netty ({@code HttpFront}, {@code HttpConnection}, {@code Exchange}, the endpoints
 * {@code ApiHandler} and {@code StatsHandler}) with its connection gates and timeouts.
 *
 * <p>It may import Netty, Jedis (and its Apache commons pool), SLF4J, JSpecify, the JDK's
 * management beans, and from {@code dev.polite.demo} the configuration (with its builder and the
 * values it holds) and the stats values it fills; it may not import {@code DemoServer}, the
 * settings' declarations or the command line above them, nor polite's client sdk.
 */
@NullMarked
package dev.polite.demo.internal;

import org.jspecify.annotations.NullMarked;
