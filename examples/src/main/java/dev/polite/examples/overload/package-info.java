/**
 * The overload scenarios (adaptive.md's B1.x and the rate-discovery run) on a simulated clock,
 * driving the real throttler and rate controllers against simulated servers.
 *
 * <pre>{@code
 * OverloadScenarios.run().forEach(row -> System.out.println(row.toJson()));
 * }</pre>
 */
@NullMarked
package dev.polite.examples.overload;

import org.jspecify.annotations.NullMarked;
