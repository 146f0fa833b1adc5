package dev.polite.redis;

import io.lettuce.core.RedisNoScriptException;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.async.RedisScriptingAsyncCommands;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The lease script ({@code lease.lua}), run by its digest: the script's text crosses the wire
 * only when Redis does not know it (a restart, a {@code SCRIPT FLUSH}), and then once.
 *
 * <p>Thread-safe.
 */
final class LeaseScript {
  private final String text;
  private final String sha;
  private final AtomicLong roundTrips;

  /** @param roundTrips counts every command sent */
  LeaseScript(AtomicLong roundTrips) {
    this.text = load();
    this.sha = Hex.digest("SHA-1", text);
    this.roundTrips = roundTrips;
  }

  /** Runs the script: {@code keys} are the key's state and its instances, {@code args} as it reads them. */
  CompletableFuture<LeaseAnswer> run(RedisScriptingAsyncCommands<String, String> redis, String[] keys,
      String[] args) {
    roundTrips.incrementAndGet();
    CompletableFuture<List<Object>> bySha = redis.<List<Object>>evalsha(sha, ScriptOutputType.MULTI,
        keys, args).toCompletableFuture();
    return bySha.exceptionallyCompose(failure -> {
      if (unwrap(failure) instanceof RedisNoScriptException) {
        roundTrips.incrementAndGet();
        return redis.<List<Object>>eval(text, ScriptOutputType.MULTI, keys, args).toCompletableFuture();
      }
      return CompletableFuture.failedFuture(failure);
    }).thenApply(LeaseAnswer::of);
  }

  /** Sends the script's text ahead of its first use; Redis keeps it until restarted or flushed. */
  void load(RedisScriptingAsyncCommands<String, String> redis) {
    roundTrips.incrementAndGet();
    redis.scriptLoad(text);
  }

  private static Throwable unwrap(Throwable failure) {
    return failure instanceof CompletionException && failure.getCause() != null
        ? failure.getCause() : failure;
  }

  private static String load() {
    try (InputStream in = LeaseScript.class.getResourceAsStream("lease.lua")) {
      if (in == null) {
        throw new IllegalStateException("polite-redis: lease.lua is missing from the jar");
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
