package dev.polite.demo.internal;

import dev.polite.demo.Algorithm;
import dev.polite.demo.Budget;
import dev.polite.demo.DemoServerConfig;

/**
 * The numbers of one limit: {@code limit} units per {@code windowNanos}, with a bucket capacity
 * of {@code burst} for the bucket algorithms.
 *
 * @param limit units per window, at least 1
 * @param windowNanos the window, at least 1 ms
 * @param burst the bucket capacity, at least 1
 */
public record Policy(long limit, long windowNanos, long burst) {

  public Policy {
    if (limit < 1) {
      throw new IllegalArgumentException("limit: must be at least 1, was " + limit);
    }
    if (windowNanos < 1_000_000) {
      throw new IllegalArgumentException("window: must be at least 1 ms, was " + windowNanos + " ns");
    }
    if (burst < 1) {
      throw new IllegalArgumentException("burst: must be at least 1, was " + burst);
    }
    // the same bound DemoServerConfig.Builder.build() puts on a configuration's burst, as this
    // type's invariant: a policy made by hand is held to it too
    if ((double) Math.max(burst, limit) * windowNanos / limit > Long.MAX_VALUE / 4.0) {
      throw new IllegalArgumentException("burst: " + burst + " takes too long to refill at " + limit
          + " per " + windowNanos + " ns");
    }
  }

  /**
   * The policy {@code config} describes.
   *
   * @throws IllegalArgumentException naming the parameter, for a burst too long to refill
   */
  public static Policy of(DemoServerConfig config) {
    return new Policy(config.limit(), config.window().toNanos(), config.burst());
  }

  /** The policy of a route's own budget: its limit per its window, holding its limit (burst = limit). */
  public static Policy of(Budget budget) {
    return new Policy(budget.limit(), budget.window().toNanos(), budget.burst());
  }

  /** Nanoseconds per unit at the sustained rate ({@code window / limit}), at least 1. */
  public long intervalNanos() {
    return Math.max(1, Math.round((double) windowNanos / limit));
  }

  /** Units per nanosecond at the sustained rate. */
  public double unitsPerNano() {
    return (double) limit / windowNanos;
  }

  /** The most a single request may cost under {@code algorithm}: what a fresh key holds. */
  public long capacity(Algorithm algorithm) {
    return algorithm.holds(limit, burst);
  }

  /**
   * How long a key must be idle before its state equals a fresh key's, so forgetting it changes
   * no decision: twice the longer of the window and the time to refill the whole burst.
   */
  public long idleNanos() {
    long refill = Nanos.ceil((double) burst * windowNanos / limit);
    return Nanos.saturatedMultiply(2, Math.max(windowNanos, refill));
  }

  /** This node's share when the shared store is down: limit and burst divided by {@code nodes}. */
  public Policy share(int nodes) {
    return new Policy(Math.max(1, limit / nodes), windowNanos, Math.max(1, burst / nodes));
  }
}
