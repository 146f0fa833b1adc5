package dev.polite.demo.internal;

import dev.polite.demo.KeyStats;
import dev.polite.demo.StatsSnapshot;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongSupplier;

/**
 * Counts admitted and rejected requests per key and per second, for {@code GET /stats} and for
 * tests. Bounded like the limiter state: at most {@code maxKeys} keys (least recently used go
 * first) and, per key, a timeline of the seconds that saw traffic within the last
 * {@value #TIMELINE_SECONDS} (so at most that many entries, however old the key). With route
 * budgets it also counts each budget's admitted and rejected requests, over every key (a refusal
 * of the concurrency cap counts for the budget the refused request would have spent).
 */
public final class TrafficStats {
  /** How far back a key's timeline goes: a minute, the span a person watching a demo looks at. */
  public static final int TIMELINE_SECONDS = 60;

  private final LongSupplier epochMillis;
  private final AtomicReference<KeyTable<Counter>> keys = new AtomicReference<>();
  private final int maxKeys;
  private final AtomicLong admitted = new AtomicLong();
  private final AtomicLong rejected = new AtomicLong();
  private final AtomicLong unavailable = new AtomicLong();
  private final AtomicLong dropped = new AtomicLong();
  private final AtomicLong refundsGiven = new AtomicLong();
  private final AtomicLong refundsClamped = new AtomicLong();
  private final AtomicLong refundsRefused = new AtomicLong();
  private final AtomicLong unitsRefunded = new AtomicLong();
  private final List<String> budgetNames;
  private final AtomicLongArray budgetAdmitted;
  private final AtomicLongArray budgetRejected;
  private volatile long startedEpochSecond;

  public TrafficStats(int maxKeys, LongSupplier epochMillis) {
    this(maxKeys, epochMillis, List.of());
  }

  /**
   * @param budgetNames the budgets to count apart, by index (the main one first); empty for none,
   *     as a server without route budgets has
   */
  public TrafficStats(int maxKeys, LongSupplier epochMillis, List<String> budgetNames) {
    this.maxKeys = maxKeys;
    this.epochMillis = epochMillis;
    this.budgetNames = List.copyOf(budgetNames);
    this.budgetAdmitted = new AtomicLongArray(budgetNames.size());
    this.budgetRejected = new AtomicLongArray(budgetNames.size());
    reset();
  }

  /** Counts one decision for {@code key}. */
  public void record(String key, boolean wasAdmitted) {
    long millis = epochMillis.getAsLong();
    (wasAdmitted ? admitted : rejected).incrementAndGet();
    keys.get().get(key, Nanos.saturatedMultiply(millis, 1_000_000)).record(Math.floorDiv(millis, 1000), wasAdmitted);
  }

  /** Counts one decision for {@code key} that spent budget {@code budget} (its index; ignored without budgets). */
  public void record(String key, int budget, boolean wasAdmitted) {
    if (budget >= 0 && budget < budgetNames.size()) {
      (wasAdmitted ? budgetAdmitted : budgetRejected).incrementAndGet(budget);
    }
    record(key, wasAdmitted);
  }

  /** Counts one request the store could not decide (answered 503): neither admitted nor refused. */
  public void recordUnavailable() {
    unavailable.incrementAndGet();
  }

  /** Counts one request read and dropped with no answer ({@code --drop-every}): neither admitted nor refused. */
  public void recordDropped() {
    dropped.incrementAndGet();
  }

  /** Counts one refund that asked for {@code asked} units and was given {@code given} (0: refused). */
  public void recordRefund(long asked, long given) {
    if (given <= 0) {
      refundsRefused.incrementAndGet();
      return;
    }
    refundsGiven.incrementAndGet();
    unitsRefunded.addAndGet(given);
    if (given < asked) {
      refundsClamped.incrementAndGet();
    }
  }

  /** The refunds counted since the start or the last reset. */
  public StatsSnapshot.Refunds refunds() {
    return new StatsSnapshot.Refunds(refundsGiven.get(), refundsClamped.get(), refundsRefused.get(), unitsRefunded.get());
  }

  /** Requests the store could not decide, since the start or the last reset. */
  public long unavailable() {
    return unavailable.get();
  }

  /** Forgets every count and restarts the timeline's origin. */
  public void reset() {
    keys.set(new KeyTable<>(maxKeys, Long.MAX_VALUE, Counter::new));
    admitted.set(0);
    rejected.set(0);
    unavailable.set(0);
    dropped.set(0);
    refundsGiven.set(0);
    refundsClamped.set(0);
    refundsRefused.set(0);
    unitsRefunded.set(0);
    for (int i = 0; i < budgetNames.size(); i++) {
      budgetAdmitted.set(i, 0);
      budgetRejected.set(i, 0);
    }
    startedEpochSecond = Math.floorDiv(epochMillis.getAsLong(), 1000);
  }

  /** Each budget's counts by name, the main one first; empty without route budgets. */
  public Map<String, StatsSnapshot.BudgetCounts> budgets() {
    Map<String, StatsSnapshot.BudgetCounts> budgets = new LinkedHashMap<>();
    for (int i = 0; i < budgetNames.size(); i++) {
      budgets.put(budgetNames.get(i), new StatsSnapshot.BudgetCounts(budgetAdmitted.get(i), budgetRejected.get(i)));
    }
    return budgets;
  }

  /**
   * The totals and the {@code most} keys with the most requests (admitted and rejected), busiest
   * first (ties by key), without copying the others: one pass over the keys with a heap of
   * {@code most}, so its cost grows with the keys held but what it returns does not.
   */
  public Top top(int most) {
    PriorityQueue<Ranked> busiest = new PriorityQueue<>(Math.max(1, most + 1), BUSIEST.reversed());
    int[] counted = {0};
    keys.get().forEach((key, counter) -> {
      counted[0]++;
      if (most == 0) {
        return;
      }
      Ranked ranked = new Ranked(key, counter, counter.total());
      if (busiest.size() < most) {
        busiest.add(ranked);
      } else if (BUSIEST.compare(ranked, busiest.peek()) < 0) {
        busiest.poll();
        busiest.add(ranked);
      }
    });
    List<Ranked> ranked = new ArrayList<>(busiest);
    ranked.sort(BUSIEST);
    Map<String, KeyStats> perKey = new LinkedHashMap<>();
    long now = nowSecond();
    for (Ranked r : ranked) {
      perKey.put(r.key(), r.counter().toStats(r.key(), now));
    }
    return new Top(perKey, counted[0], admitted.get(), rejected.get(), unavailable.get(), refunds(), startedEpochSecond,
        budgets(), dropped.get());
  }

  /** The totals and {@code key}'s counts alone, if it was counted. */
  public Top key(String key) {
    Map<String, KeyStats> perKey = new LinkedHashMap<>();
    Counter counter = keys.get().peek(key);
    if (counter != null) {
      perKey.put(key, counter.toStats(key, nowSecond()));
    }
    return new Top(perKey, keys.get().size(), admitted.get(), rejected.get(), unavailable.get(), refunds(),
        startedEpochSecond, budgets(), dropped.get());
  }

  /**
   * What {@code GET /stats} shows: some keys' counts, in order, of {@code keysCounted} keys.
   *
   * @param keys the keys shown, busiest first
   * @param keysCounted how many keys are counted now (at most max-keys)
   * @param admitted all admitted requests
   * @param rejected all refused requests
   * @param unavailable requests the store could not decide (answered 503)
   * @param refunds the refunds asked for, given, clamped and refused
   * @param startedEpochSecond when counting started
   * @param budgets each budget's counts by name, the main one first; empty without route budgets
   * @param dropped requests read and dropped with no answer ({@code --drop-every})
   */
  public record Top(Map<String, KeyStats> keys, int keysCounted, long admitted, long rejected, long unavailable,
      StatsSnapshot.Refunds refunds, long startedEpochSecond, Map<String, StatsSnapshot.BudgetCounts> budgets,
      long dropped) {}

  private record Ranked(String key, Counter counter, long total) {}

  private static final Comparator<Ranked> BUSIEST =
      Comparator.comparingLong(Ranked::total).reversed().thenComparing(Ranked::key);

  /** A consistent-enough copy of every count. */
  public StatsSnapshot snapshot() {
    Map<String, KeyStats> perKey = new HashMap<>();
    long now = nowSecond();
    keys.get().snapshot().forEach((key, counter) -> perKey.put(key, counter.toStats(key, now)));
    return new StatsSnapshot(perKey, admitted.get(), rejected.get(), startedEpochSecond, budgets(), unavailable.get(),
        refunds(), dropped.get());
  }

  private long nowSecond() {
    return Math.floorDiv(epochMillis.getAsLong(), 1000);
  }

  private static final class Counter {
    private long admitted;
    private long rejected;
    private final ArrayDeque<long[]> seconds = new ArrayDeque<>();

    synchronized void record(long second, boolean wasAdmitted) {
      long[] last = seconds.peekLast();
      if (last == null || last[0] < second) {
        last = new long[] {second, 0, 0};
        seconds.addLast(last);
        forgetBefore(second);
      }
      if (wasAdmitted) {
        admitted++;
        last[1]++;
      } else {
        rejected++;
        last[2]++;
      }
    }

    synchronized long total() {
      return admitted + rejected;
    }

    /** Drops the seconds older than the timeline's span as of {@code now} (none if the clock stepped back). */
    private void forgetBefore(long now) {
      for (long[] first; (first = seconds.peekFirst()) != null; ) {
        if (first[0] > now - TIMELINE_SECONDS && seconds.size() <= TIMELINE_SECONDS) {
          return;
        }
        seconds.pollFirst();
      }
    }

    synchronized KeyStats toStats(String key, long nowSecond) {
      forgetBefore(nowSecond);
      List<KeyStats.Second> timeline = new ArrayList<>(seconds.size());
      for (long[] s : seconds) {
        timeline.add(new KeyStats.Second(s[0], s[1], s[2]));
      }
      return new KeyStats(key, admitted, rejected, timeline);
    }
  }
}
