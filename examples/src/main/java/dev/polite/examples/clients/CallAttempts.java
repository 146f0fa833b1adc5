package dev.polite.examples.clients;

import java.util.concurrent.atomic.AtomicInteger;
import okhttp3.Request;

/**
 * How many times one call went on the wire, counted where it happened: by {@link AttemptCounter}
 * on OkHttp, which finds it as a tag of every request the call writes, or by
 * {@link CountingRelay}, which finds it by the header {@link CountingRelay#follow} names for it.
 * Every attempt counts, whoever made it: the client's (polite's, a peer's retry loop, Failsafe's)
 * and the engine's silent ones (OkHttp re-sending a request after a connection failed, the JDK
 * client re-sending a GET whose pooled connection closed), so a call's attempts add up to the
 * {@code sent} of the run. The caller reads it when the call is over. Counting per call is what
 * makes "retries" honest: {@code sent - calls} mixes up a call that went out three times with two
 * calls a throttle dropped before they ever left, and goes negative when the drops win.
 *
 * <p>The tag survives every retry because every client measured here proceeds with the call's
 * request or a {@code newBuilder()} of it, and OkHttp re-sends the request it was given; a builder
 * copies the tags. An interceptor that built a fresh request would lose it, and its attempts would
 * count as sent but not as retries.
 *
 * <p>Usage: {@code CallAttempts attempts = new CallAttempts(); client.newCall(CallAttempts.tag(request, attempts)).execute(); attempts.retries();}
 */
public final class CallAttempts {
  private final AtomicInteger attempts = new AtomicInteger();
  private final AtomicInteger rejected = new AtomicInteger();

  /** {@code request} carrying {@code attempts} as its tag. */
  public static Request tag(Request request, CallAttempts attempts) {
    return request.newBuilder().tag(CallAttempts.class, attempts).build();
  }

  /** Counts one more attempt on the wire. */
  void attempted() {
    attempts.incrementAndGet();
  }

  /** Counts one more rate-limit refusal of one of its attempts. */
  void rejected() {
    rejected.incrementAndGet();
  }

  /** Rate-limit refusals its attempts met so far. */
  public int rejections() {
    return rejected.get();
  }

  /** Its attempts on the wire so far, the first included (0 if the call never left). */
  public int attempts() {
    return attempts.get();
  }

  /** Attempts beyond the first: never negative, 0 for a call that never left. */
  public int retries() {
    return Math.max(0, attempts.get() - 1);
  }
}
