package dev.polite.demo.internal;

import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * A token bucket synced across nodes, in GCRA form: the shared state is one number, the
 * theoretical arrival time (TAT) of the fleet's next unit, which every admitted unit pushes one
 * interval ({@code window / limit}) further; a request is admitted while the TAT stays within the
 * burst's worth of intervals of now. That makes "add my count, read the total" one operation:
 * {@code tat = max(tat, since) + n × interval}, where {@code since} is this node's first admission
 * since its last sync (so a node under the limit is not charged as if its requests came at once).
 *
 * <p>Between syncs the node sees the TAT it last read plus its own admissions. Unlike a window,
 * the bucket carries debt: an overshoot (up to the client's rate × the interval) pushes the shared
 * TAT past the burst, and every node then rejects until time has paid it back. Over a long run the
 * fleet admits the limit; over any short span up to {@code burst + rate × T + client rate × S}.
 */
final class SyncedBucket implements SyncedKey {
  private final double interval;
  private final double tolerance;
  private final long burst;
  private double tat;
  private long pending;
  private long since;
  private @Nullable Reservations reservations; // made at the first reservation

  SyncedBucket(Policy policy) {
    this.interval = (double) policy.windowNanos() / policy.limit();
    this.burst = policy.burst();
    this.tolerance = burst * interval;
  }

  @Override
  public synchronized Decision tryAcquire(long nowNanos, long cost) {
    return decide(nowNanos, cost, false);
  }

  @Override
  public synchronized Decision reserve(long nowNanos, long units) {
    return decide(nowNanos, units, true);
  }

  /**
   * A refund gives back what this node's reservations consumed and no refund has given back, at
   * most what the view misses; it goes to Redis with the next sync as negative units.
   */
  private Decision decide(long nowNanos, long cost, boolean reserving) {
    if (reservations != null) {
      reservations.missing(Math.max(0, tat - nowNanos) / interval);
    }
    if (cost < 0) {
      long given = reservations == null ? 0 : reservations.take(-cost);
      if (given > 0) {
        if (pending == 0) {
          since = nowNanos;
        }
        pending -= given;
        tat = Math.max(tat, nowNanos) - given * interval;
      }
      return Decision.refund(given, remaining(nowNanos), nextUnit(nowNanos));
    }
    double next = Math.max(tat, nowNanos) + cost * interval;
    if (next - nowNanos <= tolerance + RateLimiter.EPSILON * interval) {
      if (pending == 0) {
        since = nowNanos;
      }
      pending += cost;
      tat = next;
      if (reserving) {
        (reservations != null ? reservations : (reservations = new Reservations())).reserved(cost);
      }
      return Decision.allow(remaining(nowNanos), nextUnit(nowNanos));
    }
    return Decision.reject(remaining(nowNanos), Nanos.ceil(next - nowNanos - tolerance), nextUnit(nowNanos));
  }

  private double available(long nowNanos) {
    return (tolerance - Math.max(0, tat - nowNanos)) / interval;
  }

  private long remaining(long nowNanos) {
    return Math.max(0, (long) Math.floor(available(nowNanos) + RateLimiter.EPSILON));
  }

  private long nextUnit(long nowNanos) {
    long remaining = remaining(nowNanos);
    return remaining >= burst ? 0 : Nanos.ceil((remaining + 1 - available(nowNanos)) * interval);
  }

  @Override
  public synchronized List<String> push(long nowNanos) {
    long from = pending == 0 ? nowNanos : since;
    List<String> args = List.of("bucket", Long.toString(from / 1000), Long.toString(pending),
        Double.toString(interval / 1000));
    pending = 0;
    return args;
  }

  @Override
  public synchronized void learn(Object reply) {
    double shared = Double.parseDouble(String.valueOf(reply)) * 1000;
    tat = shared + pending * interval; // what this node admitted while the sync was on its way
  }
}
