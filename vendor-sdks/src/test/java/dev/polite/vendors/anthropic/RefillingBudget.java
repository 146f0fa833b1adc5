package dev.polite.vendors.anthropic;

/**
 * One of the stand-in's budgets, refilled continuously as Anthropic's are ("your capacity is
 * continuously replenished up to your maximum"): {@code limit} units, full again {@code
 * refillMillis} after being spent. The server side's own, written apart from polite's bucket.
 * Thread-safe.
 */
final class RefillingBudget {
  private final long limit;
  private final double perMilli;
  private double level;
  private long at;

  RefillingBudget(long limit, long refillMillis, long now) {
    this.limit = limit;
    this.perMilli = (double) limit / refillMillis;
    this.level = limit;
    this.at = now;
  }

  private void refill(long now) {
    level = Math.min(limit, level + (now - at) * perMilli);
    at = now;
  }

  /** Whether {@code units} are there now (without taking them). */
  synchronized boolean has(long units, long now) {
    refill(now);
    return level >= units;
  }

  /** Takes {@code units} (a negative number gives back, up to the limit). */
  synchronized void take(long units, long now) {
    refill(now);
    level = Math.min(limit, level - units);
  }

  /** Milliseconds until {@code units} are there. */
  synchronized long millisUntil(long units, long now) {
    refill(now);
    return level >= units ? 0 : (long) Math.ceil((units - level) / perMilli);
  }

  long limit() {
    return limit;
  }

  synchronized long remaining(long now) {
    refill(now);
    return Math.max(0, (long) Math.floor(level));
  }

  /** When the budget is full again, the moment Anthropic's {@code -reset} names. */
  synchronized long fullAtMillis(long now) {
    refill(now);
    return now + (long) Math.ceil((limit - level) / perMilli);
  }
}
