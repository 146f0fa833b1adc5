package dev.polite.demo.internal;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReferenceArray;
import org.jspecify.annotations.Nullable;

/**
 * A concurrency limit per key: at most {@code max} requests of one key in flight. Counts what is
 * running, not what started, which is what protects workers from a few slow endpoints (Stripe
 * runs one beside its rate limiter). Keys leave the map when their count returns to zero, so its
 * size is bounded by the requests in flight.
 *
 * <p>Each key also keeps what the rate limiter last said to one of its requests in flight, so a
 * refusal of this cap can show what the limiter has left without asking the limiter: no algorithm
 * has a read that takes nothing (a leaky queue asked for 0 units would give one back), and a Redis
 * store would pay a round trip for it. A key refused here has a request in flight, so it has
 * usually been told something already. With budgets of their own on some routes, it keeps what
 * each budget last said (by its index, 0 for the main one), so a refusal shows the headers of the
 * budget the refused request would have spent, as GitHub's secondary limit shows the resource's.
 */
public final class InFlight {
  /** What the rate limiter said to a request, and the server's epoch millisecond it said it at. */
  public record Said(Decision decision, long epochMillis) {}

  /** A key's requests in flight; {@code count} changes only inside the map's atomic updates. */
  private static final class Slot {
    int count = 1;
    final AtomicReferenceArray<Said> last;

    Slot(int budgets) {
      this.last = new AtomicReferenceArray<>(budgets);
    }
  }

  private final int max;
  private final int budgets;
  private final ConcurrentHashMap<String, Slot> slots = new ConcurrentHashMap<>();

  public InFlight(int max) {
    this(max, 1);
  }

  /** At most {@code max} in flight per key, keeping what each of {@code budgets} (at least 1) last said. */
  public InFlight(int max, int budgets) {
    this.max = max;
    this.budgets = Math.max(1, budgets);
  }

  /** Takes a place for {@code key}; false if it already has {@code max} in flight. */
  public boolean tryEnter(String key) {
    boolean[] entered = {false};
    slots.compute(key, (k, slot) -> {
      if (slot == null) {
        entered[0] = true;
        return new Slot(budgets);
      }
      if (slot.count >= max) {
        return slot;
      }
      slot.count++;
      entered[0] = true;
      return slot;
    });
    return entered[0];
  }

  /** Gives back a place taken by {@link #tryEnter}. */
  public void exit(String key) {
    slots.computeIfPresent(key, (k, slot) -> --slot.count <= 0 ? null : slot);
  }

  /** Remembers what the limiter said to a request of {@code key} in flight; nothing once none is. */
  public void said(String key, Decision decision, long epochMillis) {
    said(key, 0, decision, epochMillis);
  }

  /** Remembers what budget {@code budget}'s limiter said to a request of {@code key} in flight. */
  public void said(String key, int budget, Decision decision, long epochMillis) {
    Slot slot = slots.get(key);
    if (slot != null) {
      slot.last.set(budget, new Said(decision, epochMillis));
    }
  }

  /**
   * What the limiter last said to a request of {@code key} now in flight; null when none is, or
   * none has been decided yet (a Redis decision still under way).
   */
  public @Nullable Said lastSaid(String key) {
    return lastSaid(key, 0);
  }

  /** What budget {@code budget}'s limiter last said to a request of {@code key} now in flight, or null. */
  public @Nullable Said lastSaid(String key, int budget) {
    Slot slot = slots.get(key);
    return slot == null ? null : slot.last.get(budget);
  }

  /** Requests of {@code key} in flight now. */
  public int inFlight(String key) {
    Slot slot = slots.get(key);
    return slot == null ? 0 : slot.count;
  }
}
