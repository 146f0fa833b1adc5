package dev.polite.adaptive;

import dev.polite.adaptive.internal.SlidingCounts;
import java.util.concurrent.ThreadLocalRandom;
import java.util.random.RandomGenerator;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The adaptive throttle's decision for one key, without OkHttp: {@link #admit} before a request,
 * {@link #record} with its answer. {@link AdaptiveThrottle} wraps one per key; simulations and
 * other transports can drive it directly on their own clock.
 *
 * <p>The rule (see {@link AdaptiveThrottle} for the reasoning and the defaults): over the
 * sliding window, drop with probability
 * {@code min(maxProbability, max(0, (requests - K_c * accepts) / (requests + padding)))}, where
 * {@code K_c} is the request's {@link Criticality#multiplier(double) level multiplier};
 * {@code requests} counts dropped requests too only when so configured; a request is let through
 * regardless when nothing was sent for {@code probeInterval}.
 *
 * <p><b>When a sent request is counted.</b> With its outcome, in {@link #record}: the request and
 * (if the server accepted it) its accept enter the window together, at the time the answer came.
 * A request still waiting for its answer is in neither count. The formula compares what the
 * server was asked with what it accepted; a request that has no answer yet has not been refused,
 * and counting it at {@link #admit} would read it as a refusal until its answer came. That is
 * harmless where the book was written (RPCs answered in milliseconds, a two-minute window), and
 * wrong here: placed before polite, the throttle sees calls that wait seconds in polite's pace,
 * longer than a 2 s window, so four calls waiting on a healthy server would read as
 * {@code requests = 4, accepts = 0}, and the throttle would drop calls while the server refuses
 * none (the run that showed it, with its command: sdk-adaptive/README.md, "Configuration").
 * Counting outcomes keeps both counts about the same calls, so a server that refuses nothing is
 * never throttled ({@code requests <= accepts < K * accepts}), however long calls wait or however
 * many are in flight. A local drop has its outcome at once and is counted at once (when so
 * configured). The price: a server that stops answering is noticed when its calls time out or
 * fail, not while they hang; bounding calls in flight is a concurrency limiter's job, not this
 * formula's.
 *
 * <p>Thread-safe: one monitor guards the window; the work under it is O(1).
 *
 * <pre>{@code
 * AdaptiveThrottler t = AdaptiveThrottle.create().newThrottler("sim");
 * if (t.admit(now, Criticality.CRITICAL).allowed()) { t.record(later, accepted); }
 * }</pre>
 */
public final class AdaptiveThrottler {
  private static final Logger log = LoggerFactory.getLogger("dev.polite.adaptive");

  private final String key;
  private final double k;
  private final double padding;
  private final double maxProbability;
  private final boolean countLocalDrops;
  private final long probeNanos;
  private final @Nullable RandomGenerator random;
  private final SlidingCounts counts;

  private long lastSentAt;
  private boolean sentAny;
  private boolean shedding;
  private volatile long lastUsed;

  /**
   * A throttler for {@code key} by the rule's parameters, as {@link AdaptiveThrottle} holds them
   * (it passes its own; this class reads no configuration object, so the throttle stays above it).
   */
  AdaptiveThrottler(String key, double multiplier, double padding, double maxProbability,
      boolean countLocalDrops, long probeNanos, long windowNanos, int buckets,
      @Nullable RandomGenerator random) {
    this.key = key;
    this.k = multiplier;
    this.padding = padding;
    this.maxProbability = maxProbability;
    this.countLocalDrops = countLocalDrops;
    this.probeNanos = probeNanos;
    this.random = random;
    this.counts = new SlidingCounts(windowNanos, buckets);
  }

  /**
   * Decides whether a request of level {@code criticality} may be sent at {@code now} (ticker
   * nanoseconds). A dropped request is counted now (when drops are counted); an allowed one must
   * be followed by {@link #record}, which counts it with its outcome.
   */
  public synchronized Admission admit(long now, Criticality criticality) {
    lastUsed = now;
    double p = dropProbability(now, criticality);
    boolean probe = probeNanos > 0 && (!sentAny || now - lastSentAt >= probeNanos);
    if (p > 0 && !probe && draw() < p) {
      if (countLocalDrops) {
        counts.addRequest(now);
      }
      if (!shedding) {
        shedding = true;
        log.debug("polite: shedding load to {} locally (drop probability {})", key, round(p));
      }
      return new Admission(false, p);
    }
    lastSentAt = now; // counted in record(), with its outcome: waiting is not refusal
    sentAny = true;
    if (shedding && p == 0) {
      shedding = false;
      log.debug("polite: no longer shedding load to {}", key);
    }
    return p == 0 ? Admission.FREE : new Admission(true, p);
  }

  /**
   * The outcome of an admitted request, counting it: {@code accepted} unless the server refused
   * it for overload or rate limit (or gave no answer at all).
   */
  public synchronized void record(long now, boolean accepted) {
    lastUsed = now;
    counts.addRequest(now);
    if (accepted) {
      counts.addAccept(now);
    }
  }

  /** The probability a request of {@code criticality} would be dropped at {@code now}. */
  public synchronized double dropProbability(long now, Criticality criticality) {
    long requests = counts.requests(now);
    long accepts = counts.accepts(now);
    double excess = requests - criticality.multiplier(k) * accepts;
    if (excess <= 0) {
      return 0;
    }
    return Math.min(maxProbability, excess / (requests + padding));
  }

  /**
   * Requests in the window at {@code now}: those whose outcome was recorded, and local drops when
   * those are counted; not those still waiting for an answer.
   */
  public synchronized long requests(long now) {
    return counts.requests(now);
  }

  /** Accepts in the window at {@code now}. */
  public synchronized long accepts(long now) {
    return counts.accepts(now);
  }

  long lastUsed() {
    return lastUsed;
  }

  private double draw() {
    return random != null ? random.nextDouble() : ThreadLocalRandom.current().nextDouble();
  }

  private static String round(double p) {
    return String.format(java.util.Locale.ROOT, "%.2f", p);
  }

  @Override
  public synchronized String toString() {
    return "AdaptiveThrottler{" + key + (shedding ? " shedding" : "") + '}';
  }
}
