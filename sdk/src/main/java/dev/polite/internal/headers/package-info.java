/**
 * Reads rate-limit response headers of every known dialect into one
 * {@link dev.polite.RateLimitSignals}. The entry point is {@link RateLimitHeaders}; everything else
 * here is one dialect or one value shape (numbers, HTTP dates, Go durations, structured fields).
 *
 * <p>Not public API.
 */
@NullMarked
package dev.polite.internal.headers;

import org.jspecify.annotations.NullMarked;
