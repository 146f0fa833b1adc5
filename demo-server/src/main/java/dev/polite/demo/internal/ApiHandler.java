package dev.polite.demo.internal;

import dev.polite.demo.DemoServerConfig;
import io.undertow.server.HttpHandler;
import io.undertow.server.HttpServerExchange;
import io.undertow.server.ServerConnection;
import io.undertow.util.AttachmentKey;
import io.undertow.util.HeaderMap;
import io.undertow.util.HeaderValues;
import io.undertow.util.Headers;
import io.undertow.util.HttpString;
import io.undertow.util.SameThreadExecutor;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiConsumer;
import java.util.function.LongSupplier;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Answers every request under {@code /api/}: resolve the key, price the route, check the key's
 * concurrency, ask the store, count, then answer 200 with the quota headers or 429 with
 * {@code Retry-After} (in the style's shape, or none) and the same headers. Never 503 for a rate
 * limit.
 *
 * <p>Headers that state an absolute time read the server's clock plus the configured skew; the
 * {@code Date} header is then set here, on every answer, from that same clock, which keeps
 * Undertow from adding its own (unskewed, and cached in a way that froze in a process that had
 * stopped an earlier server) one that would contradict them.
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
  private static final HttpString CONTENT_TYPE = HttpString.tryFromString("Content-Type");
  private static final HttpString CACHE_CONTROL = HttpString.tryFromString("Cache-Control");
  private static final HttpString FORWARDED_FOR = HttpString.tryFromString("X-Forwarded-For");
  private static final String PROBLEM = "{\"type\":\"https://iana.org/assignments/http-problem-types#quota-exceeded\","
      + "\"title\":\"Too Many Requests\",\"status\":429,\"violated-policies\":[\"default\"]";

  /** The 429 bodies, prepared once: a flood of rejections should cost as little as possible. */
  private static final ByteBuffer RATE_PROBLEM = prepared(PROBLEM + ",\"limit\":\"rate\"}");
  private static final ByteBuffer CONCURRENCY_PROBLEM = prepared(PROBLEM + ",\"limit\":\"concurrency\"}");
  private static final String PROBLEM_JSON = "application/problem+json";
  private static final String NO_STORE = "no-store";
  private static final AttachmentKey<String> PEER_KEY = AttachmentKey.create(String.class);

  /** A slot frees when a request in flight ends, which no one can know: ask for a second. */
  private static final long CONCURRENCY_RETRY_NANOS = 1_000_000_000L;

  private static final Map<String, HttpString> HEADER_NAMES = new HashMap<>();

  static {
    for (String name : QuotaHeaders.NAMES) {
      HEADER_NAMES.put(name, HttpString.tryFromString(name));
    }
  }

  private final DemoServerConfig config;
  private final LimiterStore store;
  private final TrafficStats stats;
  private final ClientKeys keys;
  private final QuotaHeaders headers;
  private final InFlight inFlight;
  private final HttpString apiKeyHeader;
  private final @Nullable CostHeader costHeader;
  private final long latencyNanos;
  private final LongSupplier epochMillis;
  private final long skewMillis;
  private final boolean trustsSomeProxy;
  private final boolean dryRun; // read on every request: the config holds its values in a map
  private final AtomicLong dryRunSecond = new AtomicLong(Long.MIN_VALUE);
  private final AtomicLong dryRunCount = new AtomicLong();

  public ApiHandler(DemoServerConfig config, LimiterStore store, TrafficStats stats, LongSupplier epochMillis) {
    this.config = config;
    this.store = store;
    this.stats = stats;
    this.keys = new ClientKeys(new TrustedProxies(config.trustedProxies()));
    this.headers = QuotaHeaders.of(config);
    this.inFlight = config.concurrency() > 0 ? new InFlight(config.concurrency()) : null;
    this.apiKeyHeader = HttpString.tryFromString(config.apiKeyHeader());
    this.costHeader = CostHeader.of(config);
    this.latencyNanos = Nanos.of(config.latency());
    this.epochMillis = epochMillis;
    this.skewMillis = config.clockSkew().toMillis();
    this.dryRun = config.dryRun();
    this.trustsSomeProxy = !config.trustedProxies().isEmpty();
  }

  @Override
  public void handleRequest(HttpServerExchange exchange) {
    if (store.blocking() && exchange.isInIoThread()) {
      exchange.dispatch(this);
      return;
    }
    String key = keyOf(exchange);
    HeaderMap response = exchange.getResponseHeaders();
    BiConsumer<String, String> header = (name, value) -> response.put(headerName(name), value);
    long serverMillis = epochMillis.getAsLong() + skewMillis;
    headers.writeDate(serverMillis, header);
    if (inFlight != null) {
      if (!inFlight.tryEnter(key)) {
        stats.record(key, false);
        if (!dryRun) {
          exchange.setStatusCode(429);
          headers.writeRetryAfter(CONCURRENCY_RETRY_NANOS, serverMillis, header);
          problem(exchange, CONCURRENCY_PROBLEM);
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
    long cost = config.costOf(exchange.getRequestPath());
    if (costHeader != null) {
      String named = exchange.getRequestHeaders().getFirst(costHeader.name());
      if (named != null) {
        String refused = costHeader.refusal(named);
        if (refused != null) {
          badRequest(exchange, refused);
          return;
        }
        cost = Long.parseLong(named.trim());
      }
    }
    Decision decision = store.acquire(key, cost);
    if (cost < 0) {
      // A refund is not a request: nothing to count, and always allowed.
      headers.write(decision, serverMillis, header);
      ok(exchange, decision);
      return;
    }
    stats.record(key, decision.allowed());
    headers.write(decision, serverMillis, header);
    if (!decision.allowed()) {
      if (!dryRun) {
        exchange.setStatusCode(429);
        headers.writeRetryAfter(decision.retryAfterNanos(), serverMillis, header);
        problem(exchange, RATE_PROBLEM);
        return;
      }
      wouldReject(key);
    }
    long delay = Nanos.saturatedAdd(decision.delayNanos(), latencyNanos);
    if (delay <= 0) {
      ok(exchange, decision);
      return;
    }
    exchange.dispatch(SameThreadExecutor.INSTANCE,
        () -> exchange.getIoThread().executeAfter(() -> ok(exchange, decision), delay, TimeUnit.NANOSECONDS));
  }

  private static ByteBuffer prepared(String body) {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    return ByteBuffer.allocateDirect(bytes.length).put(bytes).flip().asReadOnlyBuffer();
  }

  private static HttpString headerName(String name) {
    HttpString known = HEADER_NAMES.get(name);
    return known != null ? known : HttpString.tryFromString(name);
  }

  private String keyOf(HttpServerExchange exchange) {
    HeaderMap request = exchange.getRequestHeaders();
    String apiKey = request.getFirst(apiKeyHeader);
    HeaderValues forwarded = request.get(FORWARDED_FOR);
    if (apiKey == null && (forwarded == null || !trustsSomeProxy)) {
      // Keyed by the peer, which a connection keeps: work its key out once per connection, not
      // once per request (a keep-alive client sends thousands on one)
      ServerConnection connection = exchange.getConnection();
      String peerKey = connection.getAttachment(PEER_KEY);
      if (peerKey == null) {
        peerKey = keys.keyOf(null, exchange.getSourceAddress().getAddress(), List.of());
        connection.putAttachment(PEER_KEY, peerKey);
      }
      return peerKey;
    }
    List<String> forwardedFor = forwarded == null ? List.of() : new ArrayList<>(forwarded);
    InetSocketAddress peer = exchange.getSourceAddress();
    return keys.keyOf(apiKey, peer.getAddress(), forwardedFor);
  }

  private static void ok(HttpServerExchange exchange, Decision decision) {
    exchange.getResponseHeaders().put(CONTENT_TYPE, "application/json");
    exchange.getResponseSender().send("{\"ok\":true,\"remaining\":" + decision.remaining() + "}");
  }

  private static void badRequest(HttpServerExchange exchange, String detail) {
    exchange.setStatusCode(400);
    exchange.getResponseHeaders().put(Headers.CONTENT_TYPE, "text/plain; charset=utf-8");
    exchange.getResponseSender().send(detail + "\n");
  }

  private static void problem(HttpServerExchange exchange, ByteBuffer body) {
    HeaderMap response = exchange.getResponseHeaders();
    response.put(Headers.CONTENT_TYPE, PROBLEM_JSON);
    response.put(CACHE_CONTROL, NO_STORE);
    exchange.getResponseSender().send(body.duplicate()); // a view: the prepared body is never consumed
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
