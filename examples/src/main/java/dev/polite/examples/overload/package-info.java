/**
 * The overload scenarios (B1.1 to B1.3 for the adaptive throttle, and the rate-discovery run) on a
 * simulated clock, driving the real throttler and rate controllers against simulated servers.
 * They chose sdk-adaptive's defaults; {@code polite-examples.jar overload} prints them.
 *
 * <pre>{@code
 * OverloadScenarios.run().forEach(row -> System.out.println(row.toJson()));
 * }</pre>
 */
@NullMarked
package dev.polite.examples.overload;

import org.jspecify.annotations.NullMarked;
