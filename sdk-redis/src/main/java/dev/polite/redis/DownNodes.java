package dev.polite.redis;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;

/**
 * The Redis nodes whose keys pace alone, each with its answers in time in a row since it failed:
 * one node for one server; a Cluster's failed master only, while the other masters' keys go on
 * sharing. One failure sends a node's keys alone; {@link AskAgain#REJOIN_AFTER} answers in time
 * in a row bring them back. It counts the transitions (the first node going, the last coming
 * back), each of which its state logs once.
 *
 * <p>Thread-safe: {@link #any()} reads a volatile without the lock, since every step asks it.
 */
final class DownNodes {
  /** Whether any node is down: read on every step, without the lock. */
  private volatile boolean down;
  /** Keys went alone or came back: how often. Guards {@link #nodes}. */
  private final AtomicLong transitions = new AtomicLong();
  /** Each down node and its answers in time in a row since. Guarded by {@link #transitions}. */
  private final Map<String, Integer> nodes = new HashMap<>();

  /** Whether any node's keys pace alone now. */
  boolean any() {
    return down;
  }

  /** Whether {@code node}'s keys pace alone now. */
  boolean contains(String node) {
    if (!down) {
      return false;
    }
    synchronized (transitions) {
      return nodes.containsKey(node);
    }
  }

  /**
   * An answer from {@code node} came within the timeout: once {@link AskAgain#REJOIN_AFTER} have in
   * a row, it is no longer down. A down node that {@code serves} no longer (a Cluster's failed
   * master, its slots taken over) is dropped too.
   *
   * @return whether that left no node down: the keys rejoin the fleet, a transition to log
   */
  boolean reached(String node, Predicate<String> serves) {
    synchronized (transitions) {
      if (!down) {
        return false;
      }
      Integer inTime = nodes.get(node);
      if (inTime != null) {
        if (inTime + 1 < AskAgain.REJOIN_AFTER) {
          nodes.put(node, inTime + 1);
        } else {
          nodes.remove(node);
        }
      }
      nodes.keySet().removeIf(other -> !serves.test(other));
      if (!nodes.isEmpty()) {
        return false;
      }
      down = false;
      transitions.incrementAndGet();
      return true;
    }
  }

  /**
   * A request to {@code node} failed or timed out: it is down, its count of answers in time back
   * to zero.
   *
   * @return whether it is the first node down: keys go alone, a transition to log
   */
  boolean unreachable(String node) {
    synchronized (transitions) {
      boolean first = nodes.isEmpty();
      nodes.put(node, 0);
      down = true;
      if (!first) {
        return false;
      }
      transitions.incrementAndGet();
      return true;
    }
  }

  /** How often keys went alone or came back. */
  long transitions() {
    return transitions.get();
  }
}
