package dev.polite.demo;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;

/**
 * What the server decided for one key: admitted and rejected requests, and the same per second.
 *
 * <p>Usage: {@code KeyStats stats = server.stats().key("ip:127.0.0.1"); stats.rejected();}
 *
 * @param key the key as counted: {@code ip:ADDRESS}, {@code ip:PREFIX::/64} or {@code key:HASH}
 *     (an API key is never shown verbatim; see {@link StatsSnapshot#apiKey(String)})
 * @param admitted requests answered 200 (in dry-run, every request the limiter admitted)
 * @param rejected requests the limiter refused (in dry-run: would have refused, but served)
 * @param timeline one entry per second that saw traffic within the last minute, oldest first
 */
public record KeyStats(String key, long admitted, long rejected, List<Second> timeline) {

  public KeyStats {
    timeline = List.copyOf(timeline);
  }

  /**
   * One second of one key's traffic.
   *
   * @param epochSecond the second, in seconds since the epoch on the server's clock
   * @param admitted requests admitted in that second
   * @param rejected requests refused in that second
   */
  public record Second(long epochSecond, long admitted, long rejected) {}

  /**
   * The key a client sending {@code apiKey} (trimmed) in the API key header is counted as:
   * {@code key:} and the first 16 hex digits (64 bits) of the key's SHA-256, stable and not the secret.
   */
  public static String keyOfApiKey(String apiKey) {
    try {
      byte[] digest = MessageDigest.getInstance("SHA-256")
          .digest(apiKey.getBytes(StandardCharsets.UTF_8));
      return "key:" + HexFormat.of().formatHex(digest, 0, 8);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is missing from this JVM", e);
    }
  }
}
