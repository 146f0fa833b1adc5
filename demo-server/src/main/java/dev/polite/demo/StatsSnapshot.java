package dev.polite.demo;

import dev.polite.demo.internal.ClientKeys;
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
 */
public record StatsSnapshot(
    Map<String, KeyStats> keys, long admitted, long rejected, long startedEpochSecond) {

  public StatsSnapshot {
    keys = Map.copyOf(keys);
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
