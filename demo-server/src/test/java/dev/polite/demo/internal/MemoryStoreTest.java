package dev.polite.demo.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.polite.demo.Algorithm;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** Bounded memory: LRU at max-keys, idle keys expire, on a fake clock. */
class MemoryStoreTest {
  private static final long SECOND = 1_000_000_000L;

  @Test
  void aMillionDistinctKeysNeverHoldMoreThanMaxKeys() {
    AtomicLong now = new AtomicLong(1_000 * SECOND);
    int maxKeys = 10_000;
    MemoryStore store = new MemoryStore(Algorithm.TOKEN_BUCKET, new Policy(10, SECOND, 10), now::get, maxKeys);
    int most = 0;
    for (int i = 0; i < 1_000_000; i++) {
      store.acquire("ip:flood-" + i, 1);
      if ((i & 0x3fff) == 0) {
        most = Math.max(most, store.localKeys());
      }
      now.addAndGet(1_000); // a microsecond apart: nothing goes idle, only LRU can make room
    }
    most = Math.max(most, store.localKeys());
    assertThat(most).isLessThanOrEqualTo(maxKeys).isGreaterThan(maxKeys / 2);
  }

  @Test
  void aKeyFloodLeavesTheHeldKeysAndTheLiveHeapBounded() {
    // The original probe: 2.8 million keys, live heap 52 MB after GC. Here a million keys through
    // both tables a request touches (the limiter's and the stats'), at the default max-keys.
    AtomicLong now = new AtomicLong(1_000 * SECOND);
    int maxKeys = 100_000;
    MemoryStore store = new MemoryStore(Algorithm.TOKEN_BUCKET, new Policy(10, SECOND, 10), now::get, maxKeys);
    TrafficStats stats = new TrafficStats(maxKeys, () -> now.get() / 1_000_000);
    for (int i = 0; i < 1_000_000; i++) {
      String key = "key:flood-" + i;
      stats.record(key, store.acquire(key, 1).allowed());
      now.addAndGet(1_000);
    }
    assertThat(store.localKeys()).isLessThanOrEqualTo(maxKeys);
    assertThat(stats.top(0).keysCounted()).isLessThanOrEqualTo(maxKeys);
    long liveBytes = liveHeapBytes();
    assertThat(liveBytes / (1024 * 1024)).as("live heap MB after a million-key flood").isLessThan(200);
    assertThat(store.acquire("key:flood-999999", 1)).isNotNull(); // keeps both tables reachable until here
    assertThat(stats.top(1).keys()).hasSize(1);
  }

  /** The heap in use after collections settle: a bound, not a measurement (GC is a request). */
  private static long liveHeapBytes() {
    MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
    long used = Long.MAX_VALUE;
    for (int i = 0; i < 3; i++) {
      memory.gc();
      used = Math.min(used, memory.getHeapMemoryUsage().getUsed());
    }
    return used;
  }

  @Test
  void leastRecentlyUsedKeysGoFirst() {
    AtomicLong now = new AtomicLong();
    MemoryStore store = new MemoryStore(Algorithm.TOKEN_BUCKET, new Policy(3, 60 * SECOND, 3), now::get, 3);
    for (int i = 0; i < 3; i++) {
      store.acquire("busy", 1); // busy is now empty
    }
    store.acquire("a", 1);
    store.acquire("b", 1);
    assertThat(store.acquire("busy", 1).allowed()).isFalse(); // still held, and now most recent
    store.acquire("c", 1); // evicts "a", the least recently used
    assertThat(store.localKeys()).isEqualTo(3);
    assertThat(store.acquire("busy", 1).allowed()).isFalse();
  }

  @Test
  void idleKeysExpireOnceTheirStateIsAsGoodAsNew() {
    AtomicLong now = new AtomicLong();
    Policy policy = new Policy(5, SECOND, 5);
    MemoryStore store = new MemoryStore(Algorithm.FIXED_WINDOW, policy, now::get, 100);
    for (int i = 0; i < 50; i++) {
      store.acquire("k" + i, 1);
    }
    assertThat(store.localKeys()).isEqualTo(50);
    now.addAndGet(policy.idleNanos() + 1);
    for (int i = 0; i < 20; i++) {
      store.acquire("fresh" + i, 1); // each access drops a few expired keys from the LRU end
    }
    assertThat(store.localKeys()).isLessThan(50);
  }
}
