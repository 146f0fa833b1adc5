/**
 * The clients the commands compare, and how their attempts are counted: {@code ClientKind} names
 * each (the peers written by hand as application interceptors, Failsafe by hand, polite, polite
 * behind the adaptive throttle, polite on the JDK's {@code HttpClient}) and builds the OkHttp
 * ones' interceptors; {@code CallAttempts} counts each call's own attempts, and a
 * {@code WireCount} what reached the server: {@code AttemptCounter} with OkHttp's network
 * interceptors, {@code CountingRelay} on loopback for a client without interceptors. No command
 * of its own: {@code compare}, {@code load}, {@code zoo} and {@code overload} build their clients
 * here.
 */
@NullMarked
package dev.polite.examples.clients;

import org.jspecify.annotations.NullMarked;
