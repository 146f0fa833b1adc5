/**
 * {@code polite-examples compare}: the README's main demo. Three clients people write by hand
 * (retry at once, Retry-After with jitter, a client-side bucket), polite and polite behind
 * sdk-adaptive's throttle each send the same calls, one at a time, to a demo server of their own
 * (token bucket, burst 5, 5 per second, IETF headers); it prints one row per client and writes a
 * self-contained HTML page with each client's timeline.
 *
 * <p>It may import the demo server, {@code clients}, {@code load}, {@code dev.polite.examples} and
 * Jackson; no other command package.
 */
@NullMarked
package dev.polite.examples.compare;

import org.jspecify.annotations.NullMarked;
