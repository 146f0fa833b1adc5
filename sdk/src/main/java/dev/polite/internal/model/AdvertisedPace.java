package dev.polite.internal.model;

import dev.polite.RateLimitPolicy;
import dev.polite.RateLimitSignals;
import dev.polite.internal.Nanos;
import java.time.Duration;
import org.jspecify.annotations.Nullable;

/**
 * The pace a key's server advertises, as the answers teach it: {@code quota / window} with the
 * quota as burst; or, when a server names a quota and a reset but no window (the older IETF
 * drafts, GitHub), {@code quota / window} with the window an {@link InferredWindow}, the longest
 * reset two answers agree on. The burst is never more than the least quota any policy of the
 * answer names ({@link #leastQuota}). A reading slower than the pace kept is believed only when the next
 * answer repeats it ({@link SlowerPace}); a faster one, or the first, at once. So one answer with
 * a plausible but wrong policy never slows the key, and the key's remaining count bounds it
 * meanwhile.
 *
 * <p>Not thread-safe: part of {@link KeyModel}; times are ticker nanoseconds.
 */
final class AdvertisedPace {
  private boolean known;
  private final InferredWindow inferredWindow = new InferredWindow();
  private final SlowerPace slowerPace = new SlowerPace();
  private @Nullable RateLimitPolicy policy;

  /**
   * A pace an answer taught.
   *
   * @param rate requests per second
   * @param burst the quota, the most that may go at once
   * @param window the window, as advertised or inferred
   * @param inferred whether the window was inferred from resets
   */
  record Pace(double rate, double burst, Duration window, boolean inferred) {}

  /** Whether the server has advertised a pace the key keeps. */
  boolean known() {
    return known;
  }

  /** The window inferred from resets, which also bounds a spent quota's out-of-line reset. */
  InferredWindow inferredWindow() {
    return inferredWindow;
  }

  /** The policy the pace kept was read from; null until one was. */
  @Nullable RateLimitPolicy policy() {
    return policy;
  }

  /**
   * The pace {@code signals}, the answer to a call sent at {@code sentAt}, teach a key pacing at
   * {@code keptRate} with {@code keptBurst}, or null when they teach none: they advertise no pace, or a slower one not yet repeated.
   */
  @Nullable Pace learn(RateLimitSignals signals, double keptRate, double keptBurst, long sentAt,
      long now) {
    double rate;
    double burst;
    boolean agreed = false;
    Duration window;
    if (signals.advertisesRate()) {
      rate = signals.advertisedRatePerSecond();
      burst = signals.limit().orElseThrow();
      window = signals.window();
    } else if (impliesWindow(signals)) {
      agreed = inferredWindow.observe(Nanos.of(signals.reset()), sentAt, now);
      burst = signals.limit().getAsLong();
      window = Duration.ofNanos(inferredWindow.window());
      rate = burst / (inferredWindow.window() / 1e9);
    } else {
      return null;
    }
    burst = Math.min(burst, leastQuota(signals));
    if (!agreed && !slowerPace.believe(rate, burst, known, keptRate, keptBurst)) {
      return null; // one answer's slower pace: believed when the next says it too
    }
    known = true;
    policy = signals.governing();
    return new Pace(rate, burst, window, !signals.advertisesRate());
  }

  /** A request quota with a reset but no window: the window is at least the reset. */
  private static boolean impliesWindow(RateLimitSignals signals) {
    return signals.limit().isPresent() && signals.limit().getAsLong() > 0
        && signals.reset() != null && signals.countsRequests();
  }

  /**
   * The least request quota any policy of the answer names: the most that may go at once, whichever
   * governs the pace. Two policies in one field (a burst of 20 a second beside 60 per 5 s) govern
   * by turns; the slower one's quota of 60 taken as the burst sent 60 at once into the 20.
   */
  private static double leastQuota(RateLimitSignals signals) {
    double least = Double.POSITIVE_INFINITY;
    for (RateLimitPolicy p : signals.policies()) {
      if (p.countsRequests() && p.quota().isPresent() && p.quota().getAsLong() > 0) {
        least = Math.min(least, p.quota().getAsLong());
      }
    }
    return least;
  }
}
