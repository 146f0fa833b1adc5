/**
 * {@code polite-examples fleet}: P client instances on one rate limit, each alone or sharing one
 * budget through {@code polite-redis}, with Redis killed and restarted in one row. Every instance
 * is isolated inside one process (its own OkHttpClient, interceptor and Redis connection), so one
 * JVM stands in for P processes.
 *
 * <p>It may import polite (the core, sdk-okhttp, polite-redis), the demo server, Jedis (to stop
 * and start Redis), Jackson and {@code dev.polite.examples}; no other command package.
 */
@NullMarked
package dev.polite.examples.fleet;

import org.jspecify.annotations.NullMarked;
