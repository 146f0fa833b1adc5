package dev.polite.examples;

import java.util.concurrent.atomic.AtomicInteger;
import okhttp3.Request;

/**
 * How many times one call was put on the wire, carried as the call's request tag. The
 * network-side {@link AttemptCounter} counts into it; the caller reads it when the call is over.
 * Counting per call is what makes "retries" honest: {@code sent - calls} mixes up a call that
 * went out three times with two calls a throttle dropped before they ever left, and goes
 * negative when the drops win.
 *
 * <p>The tag survives every retry because OkHttp's own interceptors and every client measured
 * here proceed with the call's request or a {@code newBuilder()} of it, and a builder copies the
 * tags; an interceptor that built a fresh request would lose it, and its attempts would count as
 * sent but not as retries.
 *
 * <p>Usage: {@code CallAttempts attempts = new CallAttempts(); client.newCall(CallAttempts.tag(request, attempts)).execute(); attempts.retries();}
 */
public final class CallAttempts {
  private final AtomicInteger sent = new AtomicInteger();
  private final AtomicInteger rejected = new AtomicInteger();

  /** {@code request} carrying {@code attempts} as its tag. */
  public static Request tag(Request request, CallAttempts attempts) {
    return request.newBuilder().tag(CallAttempts.class, attempts).build();
  }

  /** Counts one more attempt on the wire. */
  void sent() {
    sent.incrementAndGet();
  }

  /** Counts one more rate-limit refusal of one of its attempts. */
  void rejected() {
    rejected.incrementAndGet();
  }

  /** Rate-limit refusals its attempts met so far. */
  public int rejections() {
    return rejected.get();
  }

  /** Attempts on the wire so far, the first included (0 if the call never left). */
  public int attempts() {
    return sent.get();
  }

  /** Attempts beyond the first: never negative, 0 for a call that never left. */
  public int retries() {
    return Math.max(0, sent.get() - 1);
  }
}
