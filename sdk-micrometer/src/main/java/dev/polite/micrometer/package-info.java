/**
 * Micrometer meters for polite: what it waited, what the servers refused, what it retried and
 * gave up on, and each key's pace and pause, per key.
 *
 * <pre>{@code
 * PoliteMetrics metrics = PoliteMetrics.create();
 * PoliteInterceptor polite = PoliteInterceptor.builder().addListener(metrics).build();
 * metrics.bindTo(registry);
 * }</pre>
 */
@NullMarked
package dev.polite.micrometer;

import org.jspecify.annotations.NullMarked;
