/**
 * polite: makes an OkHttp client a polite caller of rate-limited APIs.
 *
 * <p>The entry point is {@link dev.polite.PoliteInterceptor}:
 * <pre>{@code
 * OkHttpClient client = new OkHttpClient.Builder()
 *     .addInterceptor(PoliteInterceptor.create())
 *     .build();
 * }</pre>
 *
 * <p>Everything in this package is public API; {@code dev.polite.internal} is not.
 */
@NullMarked
package dev.polite;

import org.jspecify.annotations.NullMarked;
