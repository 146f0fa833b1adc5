/**
 * polite on the JDK's {@code java.net.http.HttpClient}, which has no interceptors:
 * {@link dev.polite.jdk.PoliteHttpClient} is an {@code HttpClient} that wraps the application's
 * own and hands each call to polite's core; {@link dev.polite.jdk.HintedRequest} carries a
 * request's hints (its {@link dev.polite.RequestCost}), as OkHttp's tags do. What this package may
 * import: {@code java.net.http} and polite's public API; the decisions are the core's.
 *
 * <pre>{@code
 * HttpClient client = PoliteHttpClient.wrap(HttpClient.newHttpClient());
 * }</pre>
 */
@NullMarked
package dev.polite.jdk;

import org.jspecify.annotations.NullMarked;
