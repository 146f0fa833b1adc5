package dev.polite.demo;

import dev.polite.demo.internal.ApiHandler;
import dev.polite.demo.internal.Budgets;
import dev.polite.demo.internal.Endpoint;
import dev.polite.demo.internal.Exchange;
import dev.polite.demo.internal.HttpFront;
import dev.polite.demo.internal.Nanos;
import dev.polite.demo.internal.StatsHandler;
import dev.polite.demo.internal.TrafficStats;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.BindException;
import java.net.URI;
import java.time.Clock;
import java.util.List;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A running demo server: a rate-limited HTTP API on Netty, for tests, examples and benchmarks.
 *
 * <p>Usage: {@code try (DemoServer server = DemoServer.builder().limit(5).window(Duration.ofSeconds(1)).start()) { client.get(server.url().resolve("/api/items")); }}
 *
 * <p>Endpoints: every path under {@code /api/} is limited (by the budget of its route, when some
 * have their own: {@link DemoServerConfig.Builder#budget}) and answers 200 with a small JSON body
 * when admitted, 429 with {@code Retry-After} when not; {@code GET /stats} returns the totals and
 * the busiest keys as JSON, in under 64 KB ({@code ?top=N} for up to 100, {@code ?key=KEY} for one);
 * {@code POST /stats/reset} clears them (given the admin token, when one is configured);
 * {@code /health} is never limited. The server binds
 * when started and is stopped by {@link #close()}.
 */
public final class DemoServer implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(DemoServer.class);

  private final DemoServerConfig config;
  private final Budgets budgets;
  private final TrafficStats stats;
  private final HttpFront front;
  private final int port;
  private final StatsHandler statsHandler;

  private DemoServer(DemoServerConfig config) {
    this.config = config;
    Clock clock = config.clock();
    LongSupplier epochMillis = clock::millis;
    LongSupplier nanos = () -> Nanos.sinceEpoch(clock.instant());
    this.budgets = Budgets.open(config, nanos); // the main budget's store, and each route budget's
    this.stats = new TrafficStats(config.maxKeys(), epochMillis,
        config.hasBudgets() ? budgets.names() : List.of());
    ApiHandler api = new ApiHandler(config, budgets, stats, epochMillis);
    this.statsHandler = new StatsHandler(config, stats, budgets::localKeys);
    try {
      this.front = HttpFront.start(config, exchange -> route(exchange, api));
    } catch (IOException | RuntimeException e) {
      budgets.close();
      throw cannotListen(config, e);
    }
    this.port = front.port();
    log.info("demo server on port {}: {}", port, config);
  }

  /** A builder of the configuration; its {@code start()} returns the running server. */
  public static DemoServerConfig.Builder builder() {
    return DemoServerConfig.builder();
  }

  /**
   * Starts a server with {@code config} and returns it once it accepts connections.
   *
   * @throws IllegalArgumentException if the store cannot be set up from the configuration
   * @throws UncheckedIOException with a {@link BindException} as its cause, saying where, when
   *     the address cannot be bound (most often: the port is in use)
   */
  public static DemoServer start(DemoServerConfig config) {
    return new DemoServer(config);
  }

  /**
   * What starting threw: a bind failure as one that says where it could not listen, another I/O
   * failure unchecked, anything else as it was.
   */
  private static RuntimeException cannotListen(DemoServerConfig config, Exception e) {
    for (Throwable cause = e; cause != null; cause = cause.getCause()) {
      if (cause instanceof BindException bind) {
        return new UncheckedIOException("cannot listen on " + config.host() + ":" + config.port()
            + ": " + bind.getMessage(), bind);
      }
    }
    return e instanceof IOException io ? new UncheckedIOException(io) : (RuntimeException) e;
  }

  /** The bound port (the free one picked when configured with 0). */
  public int port() {
    return port;
  }

  /** The base URL, such as {@code http://127.0.0.1:41234} (no trailing slash). */
  public URI url() {
    String host = config.host();
    if (host.equals("0.0.0.0") || host.equals("::")) {
      host = "127.0.0.1";
    } else if (host.contains(":")) {
      host = "[" + host + "]";
    }
    return URI.create("http://" + host + ":" + port);
  }

  /** The configuration in force. */
  public DemoServerConfig config() {
    return config;
  }

  /** The counts so far (since start or the last reset). */
  public StatsSnapshot stats() {
    return stats.snapshot();
  }

  /** Clears the counts (not the limiter state), as {@code POST /stats/reset} does. */
  public void resetStats() {
    stats.reset();
  }

  /** Stops accepting, closes connections and releases the store. */
  @Override
  public void close() {
    front.close();
    budgets.close();
  }

  private void route(Exchange exchange, Endpoint api) {
    String path = exchange.path();
    if (path.startsWith("/api/") || path.equals("/api")) {
      api.handle(exchange);
    } else if (path.equals("/health")) {
      exchange.send(200, "application/json", "{\"status\":\"ok\"}");
    } else if (path.equals("/stats") || path.equals("/stats/reset")) {
      statsHandler.handle(exchange);
    } else {
      exchange.send(404, "application/json", "{\"error\":\"not found; try /api/..., /stats or /health\"}");
    }
  }
}
