package dev.polite.demo.internal;

import dev.polite.demo.DemoServerConfig;
import io.undertow.server.HttpHandler;
import io.undertow.server.HttpServerExchange;
import io.undertow.util.HeaderValues;
import io.undertow.util.HttpString;
import io.undertow.util.SameThreadExecutor;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Answers every request under {@code /api/}: resolve the key, price the route, check the key's
 * concurrency, ask the store, count, then answer 200 with the quota headers or 429 with
 * {@code Retry-After} and the same headers. Never 503 for a rate limit.
 *
 * <p>A memory decision takes well under a microsecond, so it runs on the I/O thread; a Redis
 * decision can block for its timeout, so the exchange is first dispatched to a worker thread.
 * Delays (the leaky queue's wait, simulated latency) are timers on the I/O thread, not sleeping
 * threads, so a queue of thousands of delayed requests holds no thread.
 *
 * <p>In dry-run the limiter still decides and counts, but every request is served; would-be
 * rejections are logged as one line per second at most, so a flood cannot become a log flood.
 */
public final class ApiHandler implements HttpHandler {
  private static final Logger log = LoggerFactory.getLogger(ApiHandler.class);
  private static final HttpString RETRY_AFTER = HttpString.tryFromString("Retry-After");
  private static final HttpString CONTENT_TYPE = HttpString.tryFromString("Content-Type");
  private static final HttpString CACHE_CONTROL = HttpString.tryFromString("Cache-Control");
  private static final HttpString FORWARDED_FOR = HttpString.tryFromString("X-Forwarded-For");
  private static final String PROBLEM = "{\"type\":\"https://iana.org/assignments/http-problem-types#quota-exceeded\","
      + "\"title\":\"Too Many Requests\",\"status\":429,\"violated-policies\":[\"default\"]";

  private final DemoServerConfig config;
  private final LimiterStore store;
  private final TrafficStats stats;
  private final ClientKeys keys;
  private final QuotaHeaders headers;
  private final InFlight inFlight;
  private final HttpString apiKeyHeader;
  private final long latencyNanos;
  private final LongSupplier epochMillis;
  private final AtomicLong dryRunSecond = new AtomicLong(Long.MIN_VALUE);
  private final AtomicLong dryRunCount = new AtomicLong();

  public ApiHandler(DemoServerConfig config, LimiterStore store, TrafficStats stats, LongSupplier epochMillis) {
    this.config = config;
    this.store = store;
    this.stats = stats;
    this.keys = new ClientKeys(new TrustedProxies(config.trustedProxies()));
    this.headers = new QuotaHeaders(config.headers(), config.limit(), config.window().toNanos());
    this.inFlight = config.concurrency() > 0 ? new InFlight(config.concurrency()) : null;
    this.apiKeyHeader = HttpString.tryFromString(config.apiKeyHeader());
    this.latencyNanos = config.latency().toNanos();
    this.epochMillis = epochMillis;
  }

  @Override
  public void handleRequest(HttpServerExchange exchange) {
    if (store.blocking() && exchange.isInIoThread()) {
      exchange.dispatch(this);
      return;
    }
    String key = keyOf(exchange);
    if (inFlight != null) {
      if (!inFlight.tryEnter(key)) {
        stats.record(key, false);
        if (!config.dryRun()) {
          exchange.setStatusCode(429);
          exchange.getResponseHeaders().put(RETRY_AFTER, "1");
          problem(exchange, "concurrency");
          return;
        }
        wouldReject(key);
      } else {
        exchange.addExchangeCompleteListener((done, next) -> {
          inFlight.exit(key);
          next.proceed();
        });
      }
    }
    Decision decision = store.acquire(key, config.costOf(exchange.getRequestPath()));
    stats.record(key, decision.allowed());
    headers.write(decision, epochMillis.getAsLong(),
        (name, value) -> exchange.getResponseHeaders().put(HttpString.tryFromString(name), value));
    if (!decision.allowed()) {
      if (!config.dryRun()) {
        exchange.setStatusCode(429);
        exchange.getResponseHeaders().put(RETRY_AFTER, QuotaHeaders.retryAfterSeconds(decision));
        problem(exchange, "rate");
        return;
      }
      wouldReject(key);
    }
    long delay = decision.delayNanos() + latencyNanos;
    if (delay <= 0) {
      ok(exchange, decision);
      return;
    }
    exchange.dispatch(SameThreadExecutor.INSTANCE,
        () -> exchange.getIoThread().executeAfter(() -> ok(exchange, decision), delay, TimeUnit.NANOSECONDS));
  }

  private String keyOf(HttpServerExchange exchange) {
    HeaderValues forwarded = exchange.getRequestHeaders().get(FORWARDED_FOR);
    List<String> forwardedFor = forwarded == null ? List.of() : new ArrayList<>(forwarded);
    InetSocketAddress peer = exchange.getSourceAddress();
    return keys.keyOf(exchange.getRequestHeaders().getFirst(apiKeyHeader), peer.getAddress(), forwardedFor);
  }

  private static void ok(HttpServerExchange exchange, Decision decision) {
    exchange.getResponseHeaders().put(CONTENT_TYPE, "application/json");
    exchange.getResponseSender().send("{\"ok\":true,\"remaining\":" + decision.remaining() + "}");
  }

  private static void problem(HttpServerExchange exchange, String limit) {
    exchange.getResponseHeaders().put(CONTENT_TYPE, "application/problem+json");
    exchange.getResponseHeaders().put(CACHE_CONTROL, "no-store");
    exchange.getResponseSender().send(PROBLEM + ",\"limit\":\"" + limit + "\"}");
  }

  private void wouldReject(String key) {
    long second = Math.floorDiv(epochMillis.getAsLong(), 1000);
    long count = dryRunCount.incrementAndGet();
    long last = dryRunSecond.get();
    if (second > last && dryRunSecond.compareAndSet(last, second)) {
      dryRunCount.set(0);
      log.info("dry-run: would have rejected {} request(s) since the last report, the latest from {}", count, key);
    }
  }
}
