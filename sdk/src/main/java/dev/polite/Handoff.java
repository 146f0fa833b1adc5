package dev.polite;

import dev.polite.internal.Attempt;
import dev.polite.internal.KeyState;
import dev.polite.internal.Permit;
import java.io.IOException;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;
import okhttp3.Response;
import org.jspecify.annotations.Nullable;

/**
 * What a {@link PoliteCallFactory} call hands the interceptor, as a tag on the request it sends
 * through the application's client (where {@link PoliteInterceptor#intercept} reads it): the
 * application's call, and for an asynchronous attempt the permit its
 * scheduler already won. With a permit, the interceptor sends that one attempt and learns from
 * it, and the factory decides what follows; the wait was sat out by the scheduler, not a thread.
 *
 * <p>Thread-safe: the interceptor and the OkHttp callback race to {@link #claim} the permit, so
 * that it is answered exactly once even when the interceptor never runs (a call cancelled in
 * OkHttp's queue).
 */
final class Handoff {
  private final CallContext call;
  private final @Nullable KeyState state;
  private final @Nullable Permit permit;
  private final AtomicBoolean claimed = new AtomicBoolean();
  private volatile @Nullable Attempt attempt;

  private Handoff(CallContext call, @Nullable KeyState state, @Nullable Permit permit) {
    this.call = call;
    this.state = state;
    this.permit = permit;
  }

  /** A blocking call: the interceptor waits, retries and learns as usual, for {@code call}. */
  static Handoff blocking(CallContext call) {
    return new Handoff(call, null, null);
  }

  /** One attempt of an asynchronous call, sent with the permit its scheduler won. */
  static Handoff attempt(CallContext call, KeyState state, Permit permit) {
    return new Handoff(call, state, permit);
  }

  CallContext call() {
    return call;
  }

  KeyState state() {
    return Objects.requireNonNull(state);
  }

  Permit permit() {
    return Objects.requireNonNull(permit);
  }

  /** Takes the permit to answer it; true only once, and never for a blocking call. */
  boolean claim() {
    return permit != null && claimed.compareAndSet(false, true);
  }

  /** The interceptor's attempt: kept for the factory, and returned (or thrown) to OkHttp. */
  Response attempted(Attempt attempt) throws IOException {
    this.attempt = attempt;
    IOException failure = attempt.failure();
    if (failure != null) {
      throw failure;
    }
    return Objects.requireNonNull(attempt.response());
  }

  /** The attempt the interceptor made; null when it threw an error not worth a retry. */
  @Nullable Attempt attempt() {
    return attempt;
  }
}
