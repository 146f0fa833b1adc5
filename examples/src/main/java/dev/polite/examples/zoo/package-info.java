/**
 * {@code polite-examples zoo}: every client against a matrix of real limiters on loopback (the
 * demo server's algorithms in every header dialect, the shapes of a limit, and HAProxy when
 * installed), one cell at a time, each judged against its floor, the least time any client could
 * take without a rejection. {@code zoo --quick} is the CI gate that polite must pass.
 *
 * <p>It may import the demo server, {@code clients}, {@code load}, {@code dev.polite.examples},
 * Jackson and the JDK's HTTP server (the bare API behind HAProxy); no other command package.
 */
@NullMarked
package dev.polite.examples.zoo;

import org.jspecify.annotations.NullMarked;
