package dev.polite.examples.overload;

import dev.polite.adaptive.AdaptiveThrottle;
import dev.polite.adaptive.AdaptiveThrottler;
import dev.polite.adaptive.Criticality;
import java.util.Random;
import java.util.function.DoubleUnaryOperator;
import org.jspecify.annotations.Nullable;

/**
 * One simulated client with Poisson demand, behind a real {@link AdaptiveThrottler} (or none),
 * against a {@link BernoulliServer}; answers are instant. Counts per second of simulated time.
 */
final class ThrottleRun extends SimulatedRun {
  /** Far from zero, so that code assuming time starts at 0 shows itself. */
  static final long START = 1_000_000_000_000L;

  /** The first accept at or after the mark, in simulated seconds. */
  private double firstAcceptAfterMark = Double.NaN;
  private final double mark;

  /**
   * @param throttle the configuration, or null for no throttle
   * @param demand requests per second, Poisson
   * @param capacity the server's capacity by simulated second
   * @param mark a simulated second after which the first accept is remembered
   */
  ThrottleRun(@Nullable AdaptiveThrottle throttle, double demand, DoubleUnaryOperator capacity,
      int seconds, double mark, long seed) {
    super(seconds);
    this.mark = mark;
    Random arrivals = new Random(seed);
    BernoulliServer server = new BernoulliServer(capacity, new Random(seed * 31 + 7), START);
    AdaptiveThrottler throttler = throttle == null ? null
        : throttle.toBuilder().random(new Random(seed * 17 + 3)).build().newThrottler("sim");
    double t = 0;
    while (true) {
      t += -Math.log(1 - arrivals.nextDouble()) / demand;
      if (t >= seconds) {
        break;
      }
      int s = (int) t;
      long now = START + (long) (t * 1e9);
      arrived[s]++;
      if (throttler != null && !throttler.admit(now, Criticality.CRITICAL).allowed()) {
        continue;
      }
      sent[s]++;
      boolean ok = server.accept(now);
      if (throttler != null) {
        throttler.record(now, ok);
      }
      if (ok) {
        accepted[s]++;
        if (t >= mark && Double.isNaN(firstAcceptAfterMark)) {
          firstAcceptAfterMark = t;
        }
      }
    }
  }

  /** Seconds from the mark to the first accept after it; NaN if none. */
  double firstAcceptAfter() {
    return firstAcceptAfterMark - mark;
  }

  /**
   * Seconds after {@code from} until the local-drop fraction is below 1 % in every later second
   * of the run: recovery read strictly ("for good"), so that one late relapse counts.
   */
  double recoverySeconds(int from) {
    int last = from - 1;
    for (int s = from; s < seconds; s++) {
      if (arrived[s] > 0 && 1 - sent[s] / (double) arrived[s] >= 0.01) {
        last = s;
      }
    }
    return last + 1 - from;
  }
}
