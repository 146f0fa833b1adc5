/**
 * polite's core: makes any HTTP client a polite caller of rate-limited APIs. It decides (keys,
 * budgets, pace, pauses, retries, listening, the fleet's shared state) and imports no HTTP
 * engine; each engine's adapter carries the calls to it ({@code dev.polite.okhttp},
 * {@code dev.polite.jdk}).
 *
 * <p>The entry point is {@link dev.polite.Polite}, which an engine's adapter wraps:
 * <pre>{@code
 * OkHttpClient client = new OkHttpClient.Builder()
 *     .addInterceptor(PoliteInterceptor.create())
 *     .build();
 * HttpClient jdk = PoliteHttpClient.wrap(HttpClient.newHttpClient());
 * }</pre>
 *
 * <p>Everything in this package is public API; {@code dev.polite.internal} and its packages (one
 * per concern: model, budgets, retry, call, listening, headers) are not. An adapter
 * meets the core through {@link dev.polite.RequestView}, {@link dev.polite.ResponseView} and
 * {@link dev.polite.HeaderLines} (what it shows polite), and {@link dev.polite.Exchange} and
 * {@link dev.polite.AsyncExchange} (how it sends). The core may import no HTTP engine.
 */
@NullMarked
package dev.polite;

import org.jspecify.annotations.NullMarked;
