/**
 * polite on OkHttp (4.12 and 5.x): {@link dev.polite.okhttp.PoliteInterceptor}, the application
 * interceptor that carries each call to polite's core, and {@link dev.polite.okhttp.PoliteCallFactory},
 * whose {@code enqueue} waits without holding a thread. What this package may import: OkHttp, Okio
 * and polite's public API; the decisions are the core's.
 *
 * <pre>{@code
 * OkHttpClient client = new OkHttpClient.Builder().addInterceptor(PoliteInterceptor.create()).build();
 * }</pre>
 */
@NullMarked
package dev.polite.okhttp;

import org.jspecify.annotations.NullMarked;
