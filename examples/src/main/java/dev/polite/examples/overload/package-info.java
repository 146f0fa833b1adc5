/**
 * {@code polite-examples overload}: how adaptive throttling and rate discovery behave under
 * overload. The scenarios (B1.1 to B1.3 for the adaptive throttle, and the rate-discovery run) run
 * on a simulated clock, driving the real throttler and rate controllers against simulated
 * servers; they chose sdk-adaptive's defaults. {@code overload --live} runs the discovery scenario
 * in real time against an in-process demo server instead ({@code LiveDiscovery}).
 *
 * <pre>{@code
 * OverloadScenarios.run().forEach(row -> System.out.println(row.toJson()));
 * }</pre>
 *
 * <p>It may import polite (the core, its {@code dev.polite.internal} key model that the
 * simulations drive, sdk-okhttp, sdk-adaptive), the demo server, {@code clients} and
 * {@code dev.polite.examples}; no other command package.
 */
@NullMarked
package dev.polite.examples.overload;

import org.jspecify.annotations.NullMarked;
