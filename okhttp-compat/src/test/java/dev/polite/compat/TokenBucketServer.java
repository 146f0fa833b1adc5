package dev.polite.compat;

import dev.polite.testing.FakeClock;
import dev.polite.compat.LocalServer.Reply;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * A limiter on the test's fake clock, written independently of polite's: a token bucket that
 * answers 429 with Retry-After when empty, and IETF draft-11 {@code RateLimit} and
 * {@code RateLimit-Policy} on every answer.
 */
final class TokenBucketServer implements Function<String, Reply> {
  private final FakeClock clock;
  private final double rate;
  private final double capacity;
  private double tokens;
  private long updated;
  final AtomicInteger admitted = new AtomicInteger();
  final AtomicInteger rejected = new AtomicInteger();

  TokenBucketServer(FakeClock clock, double rate, double capacity) {
    this.clock = clock;
    this.rate = rate;
    this.capacity = capacity;
    this.tokens = capacity;
    this.updated = clock.read();
  }

  @Override
  public synchronized Reply apply(String path) {
    long now = clock.read();
    tokens = Math.min(capacity, tokens + Math.max(0, now - updated) / 1e9 * rate);
    updated = now;
    boolean ok = tokens + 1e-9 >= 1;
    if (ok) {
      tokens -= 1;
      admitted.incrementAndGet();
    } else {
      rejected.incrementAndGet();
    }
    long remaining = (long) Math.floor(tokens + 1e-9);
    long untilOne = Math.max(1, (long) Math.ceil(Math.max(0, 1 - tokens) / rate - 1e-9));
    Map<String, String> headers = new LinkedHashMap<>();
    if (!ok) {
      headers.put("Retry-After", Long.toString(untilOne));
    }
    headers.put("RateLimit-Policy", "\"default\";q=" + (long) capacity + ";w=" + Math.round(capacity / rate));
    headers.put("RateLimit", "\"default\";r=" + remaining + ";t=" + (remaining == 0 ? untilOne : 0));
    return new Reply(ok ? 200 : 429, headers, ok ? "ok" : "slow down");
  }
}
