package dev.polite.demo.internal;

import dev.polite.demo.KeyStats;
import dev.polite.demo.StatsSnapshot;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongSupplier;

/**
 * Counts admitted and rejected requests per key and per second, for {@code GET /stats} and for
 * tests. Bounded like the limiter state: at most {@code maxKeys} keys (least recently used go
 * first) and, per key, the last {@value #TIMELINE_SECONDS} seconds that saw traffic.
 */
public final class TrafficStats {
  static final int TIMELINE_SECONDS = 600;

  private final LongSupplier epochMillis;
  private final AtomicReference<KeyTable<Counter>> keys = new AtomicReference<>();
  private final int maxKeys;
  private final AtomicLong admitted = new AtomicLong();
  private final AtomicLong rejected = new AtomicLong();
  private volatile long startedEpochSecond;

  public TrafficStats(int maxKeys, LongSupplier epochMillis) {
    this.maxKeys = maxKeys;
    this.epochMillis = epochMillis;
    reset();
  }

  /** Counts one decision for {@code key}. */
  public void record(String key, boolean wasAdmitted) {
    long millis = epochMillis.getAsLong();
    (wasAdmitted ? admitted : rejected).incrementAndGet();
    keys.get().get(key, Nanos.saturatedMultiply(millis, 1_000_000)).record(Math.floorDiv(millis, 1000), wasAdmitted);
  }

  /** Forgets every count and restarts the timeline's origin. */
  public void reset() {
    keys.set(new KeyTable<>(maxKeys, Long.MAX_VALUE, Counter::new));
    admitted.set(0);
    rejected.set(0);
    startedEpochSecond = Math.floorDiv(epochMillis.getAsLong(), 1000);
  }

  /** A consistent-enough copy of every count. */
  public StatsSnapshot snapshot() {
    Map<String, KeyStats> perKey = new HashMap<>();
    keys.get().snapshot().forEach((key, counter) -> perKey.put(key, counter.toStats(key)));
    return new StatsSnapshot(perKey, admitted.get(), rejected.get(), startedEpochSecond);
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
        if (seconds.size() > TIMELINE_SECONDS) {
          seconds.pollFirst();
        }
      }
      if (wasAdmitted) {
        admitted++;
        last[1]++;
      } else {
        rejected++;
        last[2]++;
      }
    }

    synchronized KeyStats toStats(String key) {
      List<KeyStats.Second> timeline = new ArrayList<>(seconds.size());
      for (long[] s : seconds) {
        timeline.add(new KeyStats.Second(s[0], s[1], s[2]));
      }
      return new KeyStats(key, admitted, rejected, timeline);
    }
  }
}
