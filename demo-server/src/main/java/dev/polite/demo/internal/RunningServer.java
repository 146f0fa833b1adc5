package dev.polite.demo.internal;

import dev.polite.demo.DemoServerConfig;
import dev.polite.demo.StatsSnapshot;
import java.io.IOException;
import java.time.Clock;
import java.util.List;
import java.util.function.LongSupplier;

/**
 * What a {@link dev.polite.demo.DemoServer} runs: the budgets and their stores, the counts, the
 * handlers of {@code /api/}, {@code /stats} and {@code /health}, and the HTTP front serving them.
 * The public class is its face, and this is the one part of the internals it names.
 *
 * <p>Thread-safe: fixed at start.
 */
public final class RunningServer implements AutoCloseable {
  private final Budgets budgets;
  private final TrafficStats stats;
  private final StatsHandler statsHandler;
  private final HttpFront front;

  private RunningServer(DemoServerConfig config) throws IOException {
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
      throw e;
    }
  }

  /**
   * Serves {@code config}, returning once it accepts connections.
   *
   * @throws IllegalArgumentException if a store cannot be set up from the configuration
   * @throws IOException when it cannot listen (nothing is left open then)
   */
  public static RunningServer start(DemoServerConfig config) throws IOException {
    return new RunningServer(config);
  }

  /** The bound port. */
  public int port() {
    return front.port();
  }

  /** The counts so far (since start or the last reset). */
  public StatsSnapshot stats() {
    return stats.snapshot();
  }

  /** Clears the counts (not the limiter state). */
  public void resetStats() {
    stats.reset();
  }

  /** Stops accepting, closes connections and releases the stores. */
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
