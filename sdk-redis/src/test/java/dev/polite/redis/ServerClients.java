package dev.polite.redis;

import io.lettuce.core.RedisClient;
import java.util.Arrays;

/**
 * Counts the connections a Redis server holds under one client name ({@code CLIENT LIST}), as
 * the server sees them, whatever the client library believes. Test-only.
 */
final class ServerClients {
  private ServerClients() {}

  /** The connections named {@code name} on the Redis at {@code redisUri} now. */
  static long named(String redisUri, String name) {
    RedisClient client = RedisClient.create(redisUri);
    try (var connection = client.connect()) {
      return Arrays.stream(connection.sync().clientList().split("\n"))
          .filter(line -> line.contains(" name=" + name + " "))
          .count();
    } finally {
      client.shutdown();
    }
  }
}
