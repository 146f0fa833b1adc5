package dev.polite.demo;

import dev.polite.demo.internal.ClientKeys;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The server's counts at one moment, per key and in total; the same data {@code GET /stats}
 * serves as JSON.
 *
 * <p>Usage: {@code StatsSnapshot stats = server.stats(); long refused = stats.rejected();}
 *
 * @param keys per key, in no particular order
 * @param admitted all admitted requests
 * @param rejected all refused requests (would-be refusals in dry-run)
 * @param startedEpochSecond when counting started (server start or the last reset)
 * @param budgets with route budgets ({@link Budget}), each budget's counts over every key, by name,
 *     the main one ({@code core}) first; empty without them
 */
public record StatsSnapshot(
    Map<String, KeyStats> keys, long admitted, long rejected, long startedEpochSecond,
    Map<String, BudgetCounts> budgets) {

  public StatsSnapshot {
    keys = Map.copyOf(keys);
    budgets = Collections.unmodifiableMap(new LinkedHashMap<>(budgets));
  }

  /** Counts without budgets apart, as a server without route budgets keeps them. */
  public StatsSnapshot(Map<String, KeyStats> keys, long admitted, long rejected, long startedEpochSecond) {
    this(keys, admitted, rejected, startedEpochSecond, Map.of());
  }

  /**
   * One budget's requests over every key.
   *
   * @param admitted requests it admitted
   * @param rejected requests refused (by it, or by the concurrency cap while on their way to it)
   */
  public record BudgetCounts(long admitted, long rejected) {}

  /** The counts of the budget named {@code name} ({@code core} for the main one), or null. */
  public @Nullable BudgetCounts budget(String name) {
    return budgets.get(name);
  }

  /** The stats of {@code key} as counted (such as {@code ip:127.0.0.1}), or null if unseen. */
  public @Nullable KeyStats key(String key) {
    return keys.get(key);
  }

  /** The stats of the client that sent {@code apiKey} in the API key header, or null. */
  public @Nullable KeyStats apiKey(String apiKey) {
    return keys.get(ClientKeys.apiKeyHash(apiKey.trim()));
  }
}
