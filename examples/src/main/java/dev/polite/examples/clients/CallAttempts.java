package dev.polite.examples.clients;

import dev.polite.CallContext;
import dev.polite.PoliteListener;
import dev.polite.RateLimitSignals;
import dev.polite.jdk.HintedRequest;
import java.net.http.HttpRequest;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import okhttp3.Request;
import org.jspecify.annotations.Nullable;

/**
 * How many times the client sent one call, carried with the call's request: an OkHttp request
 * tag, or a JDK {@link HintedRequest}'s hint. On OkHttp the client side of {@link AttemptCounter}
 * (the last application interceptor) counts into it; on the JDK's client, which has no
 * interceptors, {@link #listener()} does, from polite's own events. Either way an attempt is one
 * of the client's own (polite's, naive's, Failsafe's), never the engine's silent re-send of a
 * request on a new connection; the caller reads it when the call is over. Counting per call is
 * what makes "retries" honest: {@code sent - calls} mixes up a call that went out three times
 * with two calls a throttle dropped before they ever left, and goes negative when the drops win.
 *
 * <p>The tag survives every retry because every client measured here proceeds with the call's
 * request or a {@code newBuilder()} of it, and a builder copies the tags; an interceptor that
 * built a fresh request would lose it, and its attempts would count as sent but not as retries.
 *
 * <p>Usage: {@code CallAttempts attempts = new CallAttempts(); client.newCall(CallAttempts.tag(request, attempts)).execute(); attempts.retries();}
 */
public final class CallAttempts {
  /** Counts polite's attempts and refusals into each call's own, for a client without interceptors. */
  private static final PoliteListener LISTENER = new PoliteListener() {
    @Override
    public void sending(CallContext call, Duration waited) {
      CallAttempts attempts = of(call);
      if (attempts != null) {
        attempts.attempted();
      }
    }

    @Override
    public void rateLimited(CallContext call, RateLimitSignals signals) {
      CallAttempts attempts = of(call);
      if (attempts != null) {
        attempts.rejected();
      }
    }

    private @Nullable CallAttempts of(CallContext call) {
      return call.request().tag(CallAttempts.class);
    }
  };

  private final AtomicInteger attempts = new AtomicInteger();
  private final AtomicInteger rejected = new AtomicInteger();

  /** {@code request} carrying {@code attempts} as its tag. */
  public static Request tag(Request request, CallAttempts attempts) {
    return request.newBuilder().tag(CallAttempts.class, attempts).build();
  }

  /** {@code request} carrying {@code attempts} as its hint, for the JDK's client, which has no tags. */
  public static HttpRequest hint(HttpRequest request, CallAttempts attempts) {
    return HintedRequest.of(request, attempts);
  }

  /**
   * The polite listener that counts, into the {@code CallAttempts} each call's request carries,
   * every attempt polite sends ({@link PoliteListener#sending}) and every rate-limit refusal it
   * hears ({@link PoliteListener#rateLimited}): the client side, for the JDK's client.
   */
  public static PoliteListener listener() {
    return LISTENER;
  }

  /** Counts one more attempt of the client's. */
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

  /** The client's attempts so far, the first included (0 if the call never left). */
  public int attempts() {
    return attempts.get();
  }

  /** Attempts beyond the first: never negative, 0 for a call that never left. */
  public int retries() {
    return Math.max(0, attempts.get() - 1);
  }
}
