/**
 * {@code polite-examples fleet}: P client instances on one rate limit, each alone or sharing one
 * budget through {@code polite-redis}, with Redis killed and restarted in one row. Every instance
 * is isolated inside one process (its own OkHttpClient, interceptor and Redis connection), so one
 * JVM stands in for P processes.
 */
@NullMarked
package dev.polite.examples.fleet;

import org.jspecify.annotations.NullMarked;
