package dev.polite.demo;

import dev.polite.demo.internal.RunningServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.BindException;
import java.net.URI;
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
  private final RunningServer running;
  private final int port;

  private DemoServer(DemoServerConfig config) {
    this.config = config;
    try {
      this.running = RunningServer.start(config); // closes what it opened when it fails
    } catch (IOException | RuntimeException e) {
      throw cannotListen(config, e);
    }
    this.port = running.port();
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
    return running.stats();
  }

  /** Clears the counts (not the limiter state), as {@code POST /stats/reset} does. */
  public void resetStats() {
    running.resetStats();
  }

  /** Stops accepting, closes connections and releases the store. */
  @Override
  public void close() {
    running.close();
  }
}
