package dev.polite.okhttp;

import dev.polite.testing.FakeClock;
import java.util.concurrent.atomic.AtomicInteger;
import mockwebserver3.Dispatcher;
import mockwebserver3.MockResponse;
import mockwebserver3.RecordedRequest;

/**
 * A MockWebServer dispatcher that limits like a real server: a token bucket on the test's fake
 * clock, written independently of the SDK's, answering 429 with Retry-After when empty and,
 * when asked, IETF draft-11 headers on every answer.
 */
final class TokenBucketServer extends Dispatcher {
  private final FakeClock clock;
  private final double rate;
  private final double capacity;
  private final boolean advertise;
  private double tokens;
  private long updated;
  final AtomicInteger admitted = new AtomicInteger();
  final AtomicInteger rejected = new AtomicInteger();

  TokenBucketServer(FakeClock clock, double rate, double capacity, boolean advertise) {
    this.clock = clock;
    this.rate = rate;
    this.capacity = capacity;
    this.advertise = advertise;
    this.tokens = capacity;
    this.updated = clock.read();
  }

  @Override
  public synchronized MockResponse dispatch(RecordedRequest request) {
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
    long untilOne = (long) Math.ceil(Math.max(0, 1 - tokens) / rate - 1e-9);
    MockResponse.Builder b = new MockResponse.Builder().code(ok ? 200 : 429).body(ok ? "ok" : "slow down");
    if (!ok) {
      b.addHeader("Retry-After", Math.max(1, untilOne));
    }
    if (advertise) {
      long window = Math.round(capacity / rate);
      b.addHeader("RateLimit-Policy", "\"default\";q=" + (long) capacity + ";w=" + window);
      b.addHeader("RateLimit", "\"default\";r=" + remaining + ";t=" + (remaining == 0 ? Math.max(1, untilOne) : 0));
    }
    return b.build();
  }
}
