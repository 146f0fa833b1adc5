/**
 * The clients the commands compare, and how their attempts are counted: {@code ClientKind} names
 * each (the peers written by hand as application interceptors, Failsafe by hand, polite, polite
 * behind the adaptive throttle) and builds its interceptors, and {@code AttemptCounter} counts
 * what each client sent and what reached the server. No command of its own: {@code compare},
 * {@code load}, {@code zoo} and {@code overload} build their clients here.
 */
@NullMarked
package dev.polite.examples.clients;

import org.jspecify.annotations.NullMarked;
