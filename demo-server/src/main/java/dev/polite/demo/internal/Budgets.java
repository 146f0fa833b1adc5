package dev.polite.demo.internal;

import dev.polite.demo.Budget;
import dev.polite.demo.DemoServerConfig;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * The budgets of one server and their limiters: the main one ({@code --limit} per
 * {@code --window}, index 0) and each route's own ({@code --budget}, indexes 1 and on, in the order
 * given), each with a store of its own (the configured kind: memory, Redis or synced) and headers
 * naming it. A request spends the budget of the longest prefix its path starts with, or the main one.
 *
 * <p>A route budget's store is asked with the client key qualified by the budget's name
 * ({@code search|ip:127.0.0.1}), so that its state never meets the main budget's, nor another
 * budget's, even in a Redis that several of them share; the main budget's keys are as they always
 * were. Each store bounds its keys by {@code --max-keys} on its own.
 *
 * <p>Thread-safe: fixed at start.
 */
public final class Budgets implements AutoCloseable {

  /**
   * One budget as the server runs it.
   *
   * @param index 0 for the main budget, then 1, 2, ... in the order the routes were given
   * @param prefix the path prefix it claims; empty for the main budget
   * @param name its name ({@code core} beside route budgets): what its answers call it (the IETF
   *     policy's name), unless they name no budget ({@code --unnamed-budgets})
   * @param store its limiter state
   * @param headers its quota headers
   * @param capacity what a fresh key holds of it: the most one request may cost
   */
  public record Entry(int index, String prefix, String name, LimiterStore store, QuotaHeaders headers,
      long capacity) {
    /** The key this budget's store is asked with for a client's {@code key}. */
    public String storeKey(String key) {
      return index == 0 ? key : name + "|" + key;
    }
  }

  private final List<Entry> entries;
  private final boolean blocking;

  private Budgets(List<Entry> entries) {
    this.entries = List.copyOf(entries);
    this.blocking = entries.stream().anyMatch(entry -> entry.store().blocking());
  }

  /**
   * The budgets {@code config} describes, each with a fresh store of the configured kind.
   *
   * @throws IllegalArgumentException if a store cannot be set up (those opened are closed)
   */
  public static Budgets open(DemoServerConfig config, LongSupplier nanos) {
    List<Entry> entries = new ArrayList<>();
    try {
      Policy main = Policy.of(config);
      QuotaHeaders mainHeaders = QuotaHeaders.of(config);
      String mainName = config.hasBudgets() ? Budget.MAIN : QuotaHeaders.DEFAULT_POLICY; // its answers' may differ
      entries.add(new Entry(0, "", mainName, store(config, main, nanos), mainHeaders,
          main.capacity(config.algorithm())));
      for (Map.Entry<String, Budget> route : config.budgets().entrySet()) {
        Budget budget = route.getValue();
        Policy policy = Policy.of(budget);
        long capacity = policy.capacity(config.algorithm());
        entries.add(new Entry(entries.size(), route.getKey(), budget.name(), store(config, policy, nanos),
            mainHeaders.forBudget(budget, capacity), capacity));
      }
    } catch (RuntimeException e) {
      entries.forEach(entry -> entry.store().close());
      throw e;
    }
    return new Budgets(entries);
  }

  /** Every budget, the main one first. */
  public List<Entry> entries() {
    return entries;
  }

  /** The budget a request to {@code path} spends: the longest matching route prefix's, else the main one. */
  public Entry of(String path) {
    Entry chosen = entries.get(0);
    for (int i = 1; i < entries.size(); i++) {
      Entry entry = entries.get(i);
      if (path.startsWith(entry.prefix()) && entry.prefix().length() > chosen.prefix().length()) {
        chosen = entry;
      }
    }
    return chosen;
  }

  /** Whether some store may block on the network (then decisions run off the I/O threads). */
  public boolean blocking() {
    return blocking;
  }

  /** Keys held in this process, over every budget's store. */
  public int localKeys() {
    int keys = 0;
    for (Entry entry : entries) {
      keys += entry.store().localKeys();
    }
    return keys;
  }

  /** The names, the main budget's first. */
  public List<String> names() {
    return entries.stream().map(Entry::name).toList();
  }

  /** The store {@code config} asks for, enforcing {@code policy}. */
  static LimiterStore store(DemoServerConfig config, Policy policy, LongSupplier nanos) {
    return switch (config.storeKind()) {
      case MEMORY -> new MemoryStore(config.algorithm(), policy, nanos, config.maxKeys());
      case REDIS -> RedisStore.open(config, policy, nanos);
      case SYNCED -> SyncedStore.open(config, policy, nanos);
    };
  }

  @Override
  public void close() {
    entries.forEach(entry -> entry.store().close());
  }
}
