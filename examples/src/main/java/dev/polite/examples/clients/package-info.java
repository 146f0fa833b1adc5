/**
 * The clients the commands compare, and how their attempts are counted: {@code ClientKind} names
 * each (the peers written by hand as application interceptors, Failsafe by hand, polite, polite
 * behind the adaptive throttle, polite on the JDK's {@code HttpClient}) and builds the OkHttp
 * ones' interceptors; a {@code WireCount} counts what reached the server where it happens, on the
 * wire ({@code AttemptCounter}, an OkHttp network interceptor; {@code CountingRelay} on loopback for
 * a client without interceptors), and {@code CallAttempts} the same attempts per call. No command
 * of its own: {@code compare}, {@code load}, {@code zoo} and {@code overload} build their clients
 * here.
 *
 * <p>It may import polite (the core, sdk-okhttp, sdk-adaptive), Failsafe, Netty (the relay),
 * OkHttp and the shared {@code dev.polite.examples}; it may not import any command package
 * ({@code compare}, {@code load}, {@code zoo}...) nor the demo server.
 */
@NullMarked
package dev.polite.examples.clients;

import org.jspecify.annotations.NullMarked;
