package dev.polite.demo.internal;

import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.BiConsumer;
import java.util.function.Supplier;

/**
 * A bounded table of per-key values: at most {@code maxKeys} held, the least recently used
 * dropped first, and values idle for longer than {@code idleNanos} forgotten (nginx's
 * {@code limit_req_zone} behaves the same way when its shared memory is full).
 *
 * <p>Keys are spread over up to 16 segments by the high bits of their hash (see
 * {@link #segmentOf}), each an access-ordered {@link LinkedHashMap}
 * behind its own lock holding {@code maxKeys / segments} entries, so the total never exceeds
 * {@code maxKeys} and unrelated keys rarely contend. Expiry is lazy: every access first drops
 * expired entries from the least recently used end of its segment, which is where they all are,
 * so there is no sweeper thread and the cost is amortised O(1).
 *
 * <p>Forgetting an idle key is invisible when {@code idleNanos} is at least the time its state
 * takes to become a fresh key's again ({@link Policy#idleNanos()}). Evicting a busy key under a
 * flood of distinct keys gives that key a fresh quota; that is the price of bounded memory.
 */
public final class KeyTable<V> {
  private final Segment<V>[] segments;
  private final long idleNanos;
  private final Supplier<V> factory;

  /**
   * @param maxKeys the most keys held, at least 1
   * @param idleNanos how long an untouched key is kept; {@code Long.MAX_VALUE} for ever
   * @param factory makes a new key's value
   */
  @SuppressWarnings({"unchecked", "rawtypes"}) // a generic array is made raw, then cast
  public KeyTable(int maxKeys, long idleNanos, Supplier<V> factory) {
    if (maxKeys < 1) {
      throw new IllegalArgumentException("maxKeys: must be at least 1, was " + maxKeys);
    }
    int count = maxKeys >= 1024 ? 16 : 1; // a power of two: see segmentOf
    this.segments = new Segment[count];
    for (int i = 0; i < count; i++) {
      segments[i] = new Segment<>(maxKeys / count);
    }
    this.idleNanos = idleNanos;
    this.factory = factory;
  }

  /** The value for {@code key}, made fresh if it was absent or idle too long; marks it used. */
  public V get(String key, long nowNanos) {
    return segment(key).get(key, nowNanos, idleNanos, factory);
  }

  /** The value for {@code key} if held, without making one. */
  public V peek(String key) {
    Segment<V> segment = segment(key);
    synchronized (segment) {
      Entry<V> entry = segment.map.get(key);
      return entry == null ? null : entry.value;
    }
  }

  /** How many keys are held now. */
  public int size() {
    int size = 0;
    for (Segment<V> segment : segments) {
      synchronized (segment) {
        size += segment.map.size();
      }
    }
    return size;
  }

  /** A copy of every key and value, least recently used first within each segment. */
  public Map<String, V> snapshot() {
    Map<String, V> copy = new LinkedHashMap<>();
    for (Segment<V> segment : segments) {
      synchronized (segment) {
        for (Map.Entry<String, Entry<V>> entry : segment.map.entrySet()) {
          copy.put(entry.getKey(), entry.getValue().value);
        }
      }
    }
    return copy;
  }

  /**
   * Shows {@code visitor} every key and value, one segment at a time under its lock, copying
   * nothing: for a pass over many keys that keeps few of them. The visitor must be quick.
   */
  public void forEach(BiConsumer<String, V> visitor) {
    for (Segment<V> segment : segments) {
      synchronized (segment) {
        for (Map.Entry<String, Entry<V>> entry : segment.map.entrySet()) {
          visitor.accept(entry.getKey(), entry.getValue().value);
        }
      }
    }
  }

  /** Forgets every key. */
  public void clear() {
    for (Segment<V> segment : segments) {
      synchronized (segment) {
        segment.map.clear();
      }
    }
  }

  private Segment<V> segment(String key) {
    return segments[segmentOf(key.hashCode(), segments.length)];
  }

  /**
   * The segment, of {@code count} (a power of two), for a key whose hash code is {@code hashCode}:
   * the top bits of the hash times 2^32 / φ (Fibonacci hashing). Not the low bits: the segment's
   * {@link LinkedHashMap} picks a bucket from the low bits of {@code h ^ (h >>> 16)}, so a segment
   * chosen from those same bits would put all its keys in one sixteenth of its buckets (it did:
   * 16,384 of 262,144 buckets used after a flood of 190,000 keys, most of them turned into trees).
   * The top bits of the product depend on every bit of the hash, so each segment's keys still
   * spread over all its buckets.
   */
  static int segmentOf(int hashCode, int count) {
    if (count == 1) {
      return 0;
    }
    return (hashCode * 0x9E3779B9) >>> (32 - Integer.numberOfTrailingZeros(count));
  }

  private static final class Entry<V> {
    final V value;
    long lastUsed;

    Entry(V value, long lastUsed) {
      this.value = value;
      this.lastUsed = lastUsed;
    }
  }

  private static final class Segment<V> {
    final LinkedHashMap<String, Entry<V>> map;

    Segment(int capacity) {
      int max = Math.max(1, capacity);
      this.map = new LinkedHashMap<>(16, 0.75f, true) {
        // KeyTable.Entry, spelled out: inside a Map subclass a bare Entry is the inherited
        // Map.Entry, which JDK 25's javac (even at release 17) holds this line to; JDK 17's did not.
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, KeyTable.Entry<V>> eldest) {
          return size() > max;
        }
      };
    }

    synchronized V get(String key, long now, long idleNanos, Supplier<V> factory) {
      expire(now, idleNanos);
      Entry<V> entry = map.get(key);
      if (entry == null) {
        entry = new Entry<>(factory.get(), now);
        map.put(key, entry);
      } else if (now > entry.lastUsed) {
        entry.lastUsed = now;
      }
      return entry.value;
    }

    private void expire(long now, long idleNanos) {
      if (idleNanos == Long.MAX_VALUE) {
        return;
      }
      Iterator<Entry<V>> eldest = map.values().iterator();
      int checked = 0;
      while (eldest.hasNext() && checked++ < 4) {
        Entry<V> entry = eldest.next();
        if (now - entry.lastUsed <= idleNanos) {
          return;
        }
        eldest.remove();
      }
    }
  }
}
