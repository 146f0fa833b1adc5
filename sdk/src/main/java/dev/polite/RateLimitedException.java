package dev.polite;

import java.io.IOException;
import java.time.Duration;
import org.jspecify.annotations.Nullable;

/**
 * A call polite gave up on because the server's limit would not let it through in time: the
 * wait it needed exceeds the max wait or the call's remaining time, or retries ran out on a
 * rate-limit rejection and the caller asked to be told by an exception
 * ({@link PoliteBuilder#throwWhenRateLimited(boolean)}).
 *
 * <p>It is an {@link IOException}, so it travels through every engine's synchronous and
 * asynchronous paths (OkHttp's calls, the JDK client's {@code send} and futures) like any network
 * failure. Its message never carries credentials.
 *
 * <pre>{@code
 * try (Response r = client.newCall(request).execute()) { ... }
 * catch (RateLimitedException e) { schedule(e.requestedDelay()); }
 * }</pre>
 */
public final class RateLimitedException extends IOException {
  private static final long serialVersionUID = 1L;

  private final String key;
  private final @Nullable Duration requestedDelay;
  private final transient RateLimitSignals signals;

  /**
   * @param key the rate-limit key the call was counted under
   * @param requestedDelay how long the server (or the key's pace) asked the call to wait, when known
   * @param signals the last signals seen for the call, or {@link RateLimitSignals#none()}
   * @param message what happened, for people
   */
  public RateLimitedException(
      String key, @Nullable Duration requestedDelay, RateLimitSignals signals, String message) {
    super(message);
    this.key = key;
    this.requestedDelay = requestedDelay;
    this.signals = signals;
  }

  /** The rate-limit key the call was counted under. */
  public String key() {
    return key;
  }

  /** How long the call would have had to wait, when known. */
  public @Nullable Duration requestedDelay() {
    return requestedDelay;
  }

  /** The last rate-limit signals seen for the call. */
  public RateLimitSignals signals() {
    return signals == null ? RateLimitSignals.none() : signals;
  }
}
