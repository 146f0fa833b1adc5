package dev.polite.demo;

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
 * @param unavailable requests the store could not decide at all (answered 503: its Redis pool
 *     stayed full), neither admitted nor refused
 * @param refunds the refunds clients asked for with the cost header ({@code --cost-header})
 * @param dropped requests read and then dropped, their connection closed with no answer
 *     ({@code --drop-every}), neither admitted nor refused
 */
public record StatsSnapshot(
    Map<String, KeyStats> keys, long admitted, long rejected, long startedEpochSecond,
    Map<String, BudgetCounts> budgets, long unavailable, Refunds refunds, long dropped) {

  public StatsSnapshot {
    keys = Map.copyOf(keys);
    budgets = Collections.unmodifiableMap(new LinkedHashMap<>(budgets));
  }

  /** Counts with nothing dropped. */
  public StatsSnapshot(Map<String, KeyStats> keys, long admitted, long rejected, long startedEpochSecond,
      Map<String, BudgetCounts> budgets, long unavailable, Refunds refunds) {
    this(keys, admitted, rejected, startedEpochSecond, budgets, unavailable, refunds, 0);
  }

  /** Counts with nothing unavailable, no refunds and nothing dropped. */
  public StatsSnapshot(Map<String, KeyStats> keys, long admitted, long rejected, long startedEpochSecond,
      Map<String, BudgetCounts> budgets) {
    this(keys, admitted, rejected, startedEpochSecond, budgets, 0, Refunds.NONE);
  }

  /** Counts without budgets apart, as a server without route budgets keeps them. */
  public StatsSnapshot(Map<String, KeyStats> keys, long admitted, long rejected, long startedEpochSecond) {
    this(keys, admitted, rejected, startedEpochSecond, Map.of());
  }

  /**
   * The refunds asked for (a negative cost in the cost header). A refund gives back at most what
   * the key's requests that named their cost reserved and had not had back; it is not a request.
   *
   * @param given refunds that gave units back, the clamped ones included
   * @param clamped of those, the ones that asked for more than was reserved and got what was
   * @param refused refunds that gave nothing back (answered 409): nothing was reserved, or all of
   *     it had been given back already, by an earlier refund or by the refill
   * @param units the units given back in all
   */
  public record Refunds(long given, long clamped, long refused, long units) {
    /** No refund at all. */
    public static final Refunds NONE = new Refunds(0, 0, 0, 0);
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
    return keys.get(KeyStats.keyOfApiKey(apiKey.trim()));
  }
}
