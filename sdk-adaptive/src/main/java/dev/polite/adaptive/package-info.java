/**
 * polite's adaptive part: client-side adaptive throttling (Google SRE, "Handling Overload") and
 * CUBIC rate discovery (as the AWS SDKs' adaptive retry mode), both composing with
 * {@link dev.polite.okhttp.PoliteInterceptor} on one OkHttp client.
 *
 * <pre>{@code
 * OkHttpClient client = new OkHttpClient.Builder()
 *     .addInterceptor(AdaptiveThrottle.create())                                   // first
 *     .addInterceptor(PoliteInterceptor.builder().rateController(Cubic.defaults()).build())
 *     .build();
 * }</pre>
 *
 * <p>Everything in this package is public API; {@code dev.polite.adaptive.internal} is not.
 */
@NullMarked
package dev.polite.adaptive;

import org.jspecify.annotations.NullMarked;
