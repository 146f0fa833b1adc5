package dev.polite.examples.zoo;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The API behind a real limiter in the zoo: the JDK's own HTTP server on a free loopback port,
 * answering every request with 200 and a tiny JSON body. It has no limit of its own, so every
 * refusal a client meets comes from the limiter in front of it.
 *
 * <p>Usage: {@code try (BareBackend app = BareBackend.start()) { int port = app.port(); }}
 */
final class BareBackend implements AutoCloseable {
  private static final byte[] BODY = "{\"ok\":true}".getBytes(StandardCharsets.UTF_8);

  private final HttpServer server;
  private final ExecutorService workers;

  private BareBackend(HttpServer server, ExecutorService workers) {
    this.server = server;
    this.workers = workers;
  }

  /** Binds a free loopback port and starts answering. */
  public static BareBackend start() throws IOException {
    HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 128);
    // A few threads, so that the limiter's 64 open connections are never queued behind one
    // another at the backend and every delay a client sees is the limiter's.
    AtomicInteger n = new AtomicInteger();
    ExecutorService workers = Executors.newFixedThreadPool(4, runnable -> {
      Thread thread = new Thread(runnable, "bare-backend-" + n.incrementAndGet());
      thread.setDaemon(true);
      return thread;
    });
    server.setExecutor(workers);
    server.createContext("/", exchange -> {
      try (exchange) {
        exchange.getRequestBody().readAllBytes();
        exchange.getResponseHeaders().set("Content-Type", "application/json");
        exchange.sendResponseHeaders(200, BODY.length);
        try (OutputStream body = exchange.getResponseBody()) {
          body.write(BODY);
        }
      }
    });
    server.start();
    return new BareBackend(server, workers);
  }

  /** The bound port. */
  public int port() {
    return server.getAddress().getPort();
  }

  /** Stops at once (no grace for exchanges in flight) and ends its threads. */
  @Override
  public void close() {
    server.stop(0);
    workers.shutdownNow();
  }
}
