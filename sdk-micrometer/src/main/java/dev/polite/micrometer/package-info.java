/**
 * Micrometer meters for polite: what it waited, what the servers refused, what it retried and
 * gave up on, and each key's pace and pause, per key. {@code PoliteMetrics} is the API (the
 * listener and binder); {@code KeyMeters} (one key tag's meters in one registry) and
 * {@code LiveKey} (what a key's gauges read) are its parts.
 *
 * <pre>{@code
 * PoliteMetrics metrics = PoliteMetrics.create();
 * PoliteInterceptor polite = PoliteInterceptor.builder().addListener(metrics).build();
 * metrics.bindTo(registry);
 * }</pre>
 *
 * <p>It may import polite's public API, Micrometer's core and JSpecify; it may not import any
 * HTTP engine (the meters hear polite, on whichever engine it runs) nor polite's internals.
 */
@NullMarked
package dev.polite.micrometer;

import org.jspecify.annotations.NullMarked;
