package dev.polite.demo.internal;

import dev.polite.demo.Algorithm;
import java.util.List;

/**
 * How the Redis store runs one algorithm: the Lua script that decides (a resource
 * {@code redis/NAME.lua}, after {@code redis/common.lua}) and the suffixes of the keys it
 * touches, each written {@code rl:{CLIENT}:SUFFIX} so that one client's keys share a Cluster slot.
 *
 * @param name the script's file name without {@code .lua}
 * @param keySuffixes the suffix of KEYS[1], KEYS[2], ... in the order the script reads them
 */
public record RedisScript(String name, List<String> keySuffixes) {

  public RedisScript {
    keySuffixes = List.copyOf(keySuffixes);
    if (keySuffixes.isEmpty()) {
      throw new IllegalArgumentException("keySuffixes: a script touches at least one key");
    }
  }

  /** A script named {@code name} touching the keys with these suffixes. */
  public RedisScript(String name, String... keySuffixes) {
    this(name, List.of(keySuffixes));
  }

  /**
   * The script the Redis store runs {@code algorithm} with: one case per algorithm, which the
   * compiler checks are all there. The leaky meter runs as the token bucket, whose decisions (and
   * state) are the same.
   *
   * @throws IllegalStateException for one Redis cannot run ({@link Algorithm#runsOnRedis()})
   */
  public static RedisScript of(Algorithm algorithm) {
    return switch (algorithm) {
      case TOKEN_BUCKET, LEAKY_METER -> new RedisScript("token-bucket", "tb");
      case GCRA -> new RedisScript("gcra", "gcra", "gcra:owed");
      case FIXED_WINDOW -> new RedisScript("fixed-window", "fw");
      case SLIDING_LOG -> new RedisScript("sliding-log", "sl", "sl:seq");
      case SLIDING_COUNTER -> new RedisScript("sliding-counter", "sc");
      case LEAKY_QUEUE -> throw new IllegalStateException(algorithm + " has no Redis script");
    };
  }

  /** The keys this script touches for {@code client}, in the order it reads them. */
  public List<String> keys(String client) {
    String base = "rl:{" + client + "}:";
    return keySuffixes.stream().map(suffix -> base + suffix).toList();
  }
}
