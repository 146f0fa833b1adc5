/**
 * {@code polite-examples load}: N GETs to a URL (or a fixed mix of URLs) through one of the
 * clients, C at a time, blocking or async, and what came of them: how a user tries polite against
 * their own API before adopting it. Its runner ({@code LoadRunner}, with {@code RunResult}) drives
 * a {@code LoadClient} on the client's engine ({@code OkHttpLoadClient}, {@code JdkLoadClient}),
 * and is also what {@code compare} and {@code zoo} measure each client with (after a
 * {@code WarmUp}).
 *
 * <p>It may import polite on every engine (and its adaptive part and meters), those engines,
 * {@code clients}, the demo server, Jackson and {@code dev.polite.examples}; no other command package.
 */
@NullMarked
package dev.polite.examples.load;

import org.jspecify.annotations.NullMarked;
