package dev.polite.examples.overload;

import java.util.ArrayDeque;
import java.util.function.DoubleUnaryOperator;
import java.util.random.RandomGenerator;

/**
 * A "Bernoulli" quota server: capacity {@code C(t)} requests per second; each
 * request is accepted with probability {@code min(1, C / requests in the last second)} and
 * otherwise refused at once, at no cost. A capacity of 0 is a dead server. It removes timing
 * artefacts, so the throttler's steady states match the analysis.
 */
final class BernoulliServer {
  private static final long SECOND = 1_000_000_000L;

  private final DoubleUnaryOperator capacityAt;
  private final RandomGenerator random;
  private final long start;
  private final ArrayDeque<Long> lastSecond = new ArrayDeque<>();

  /**
   * @param capacityAt capacity in requests per second, by seconds since {@code start}
   */
  BernoulliServer(DoubleUnaryOperator capacityAt, RandomGenerator random, long start) {
    this.capacityAt = capacityAt;
    this.random = random;
    this.start = start;
  }

  /** Whether the request arriving at {@code now} is accepted. */
  boolean accept(long now) {
    lastSecond.addLast(now);
    while (lastSecond.peekFirst() <= now - SECOND) {
      lastSecond.removeFirst();
    }
    double capacity = capacityAt.applyAsDouble((now - start) / 1e9);
    if (capacity <= 0) {
      return false;
    }
    double offered = lastSecond.size();
    return offered <= capacity || random.nextDouble() < capacity / offered;
  }
}
