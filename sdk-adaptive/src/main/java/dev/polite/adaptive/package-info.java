/**
 * polite's adaptive part: client-side adaptive throttling (Google SRE, "Handling Overload"), a
 * {@link dev.polite.LoadShedder}, and CUBIC rate discovery (as the AWS SDKs' adaptive retry mode),
 * a {@link dev.polite.RateController}: both polite options, on every engine.
 *
 * <pre>{@code
 * OkHttpClient client = new OkHttpClient.Builder()
 *     .addInterceptor(PoliteInterceptor.builder()
 *         .loadShedder(AdaptiveThrottle.create())
 *         .rateController(Cubic.defaults())
 *         .build())
 *     .build();
 * }</pre>
 *
 * <p>Everything in this package is public API; {@code dev.polite.adaptive.internal} is not. It
 * may import polite's public API ({@code dev.polite}), its own internals, SLF4J and JSpecify; it
 * may not import any HTTP engine, nor polite's internals ({@code dev.polite.internal}).
 */
@NullMarked
package dev.polite.adaptive;

import org.jspecify.annotations.NullMarked;
