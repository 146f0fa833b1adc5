/**
 * The polite demo server: a server-side rate limiter that clients are measured against. What
 * lives here is what its users name: the running {@code DemoServer}, its configuration
 * ({@code DemoServerConfig} and its builder, declared once per setting in {@code Settings}, each a
 * {@code Setting}), the values those take ({@code Algorithm}, {@code HeaderStyle}, {@code Budget},
 * {@code SecondPolicy}, {@code StoreKind}, {@code WhenDown}, and the route tables
 * {@code RouteCosts} and {@code RouteBudgets}), the stats it reports ({@code StatsSnapshot},
 * {@code KeyStats}) and the command line ({@code Main}, {@code DemoServerCommand}).
 *
 * <p>It may import picocli (the command line only), SLF4J, JSpecify and
 * {@code dev.polite.demo.internal}, which runs the server; it may not import Netty, Redis
 * clients or polite's client sdk (a server stands on its own). Read top-down: the command above
 * the server, the server above the configuration, the configuration above the settings. One
 * circle is left on purpose: {@code DemoServer.builder()} returns the configuration's builder and
 * the builder's {@code start()} returns a {@code DemoServer}, the fluent API every test and example
 * uses; since the internals read the configuration, {@code tools/file-cycles} reports those files
 * with the two.
 *
 * <p>Usage: {@code try (DemoServer server = DemoServer.builder().limit(5).window(Duration.ofSeconds(1)).start()) { ... server.url() ... }}
 */
@NullMarked
package dev.polite.demo;

import org.jspecify.annotations.NullMarked;
