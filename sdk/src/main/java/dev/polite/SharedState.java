package dev.polite;

/**
 * Where a fleet of interceptors (one per process, or several) keeps one budget per key, so that
 * eight workers on one API key spend that key's quota once, not eight times. The sdk holds no
 * fleet of its own; {@code polite-redis} implements this on Redis:
 *
 * <pre>{@code PoliteInterceptor.builder().sharedState(RedisSharedState.connect("redis://redis:6379")).build()}</pre>
 *
 * <p>What each interceptor still does alone: its own calls' waits, gate and retries. What the
 * fleet shares, through each key's {@link SharedKey}: the pace (an advertised policy, or a
 * discovered one), the tokens (a fleet-wide bucket, leased to instances in small batches), the
 * pause (one 429 or a spent quota holds every instance back), and the server's remaining count.
 *
 * <p>A contract for implementations: a shared state may be slow or gone, and the calls must not
 * notice beyond a short, bounded wait; each key then paces on its own at its share.
 *
 * <p>Implementations are thread-safe. {@link #none()} is the default: every instance alone.
 */
public interface SharedState {
  /**
   * Joins the fleet's view of {@code key}; the interceptor calls this once for each key it holds,
   * and {@link SharedKey#leave()} when it forgets the key.
   *
   * @param key the key as the key function made it (an implementation stores a digest of it, never
   *     the key itself: it may carry a credential)
   * @param ticker the interceptor's clock, in which {@link SharedKey}'s times are read
   * @param onNews run (on any thread, holding no lock of the shared state's) when news arrives
   *     that may let a waiting call go: an answer from the store, or its time-out
   * @return the key's handle; never null
   */
  SharedKey join(String key, Ticker ticker, Runnable onNews);

  /** Every instance alone: the default. */
  static SharedState none() {
    return NoSharedState.INSTANCE;
  }
}
