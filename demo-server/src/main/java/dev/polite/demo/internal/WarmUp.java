package dev.polite.demo.internal;

import dev.polite.demo.DemoServerConfig;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A process's first requests, sent by the first server it starts to a rehearsal of itself: a
 * listener of its own on an ephemeral loopback port, with scratch limiter state, closed before the
 * real port is bound. So no client's request is the one that pays for what runs once per process.
 *
 * <p>Why: a fresh JVM serves its first requests slowly. The first pooled buffer registers the
 * allocator's JDK Flight Recorder events, which starts the JFR machinery (about 500 ms on a loaded
 * 2-core machine, per {@code -Xlog:class+load}); the socket, codec, limiter and header classes
 * load; and until the JIT has compiled them, each connection costs the I/O thread about a
 * millisecond instead of a fraction of one. A monitor's first {@code /health} after 500
 * connections arrived at once waited behind all of that. Rehearsed, it costs the start instead
 * (figures, with their commands: the README's "Under abuse").
 *
 * <p>The rehearsal runs the path a real request takes, accept and connection gate included, and
 * through the limiter with the configured algorithm and header style: {@value #CONNECTIONS}
 * connections, each asking once of a budget that admits everything, once of one that refuses
 * nearly everything, and {@code /health}; and before each of the first ones, a round of
 * {@value #KNOCKS_PER_ROUND} knocks, connections that send a byte and reset, sent without waiting
 * for the server, so it takes them as it takes a burst, in batches ({@value #KNOCKS} in all). The
 * connection after a round waits for its answers, which come once the round has been taken, so
 * the rounds never fill the listen backlog. Knocks, because what a {@code /health} behind a burst
 * waits for is the burst's connections being accepted, registered and read, not served
 * ({@link Turns}); they cost the server that and a close, and the client a connect, a byte and a
 * reset. All of it within {@link #BUDGET_NANOS}. Its state is thrown away; the real limiter, its
 * counts and its Redis (if any) see none of it. Once per process: the compiled code serves every
 * server started after. A failure is logged and ignored, since the rehearsal only moves a cost.
 */
final class WarmUp {
  private static final Logger log = LoggerFactory.getLogger(WarmUp.class);
  /**
   * The most connections rehearsed: past a few hundred, a later burst's cost stopped falling in
   * HealthAfterBurst's runs (figures in demo-server/README.md), because what it still spends is
   * the burst's system calls, which warm code pays too.
   */
  static final int CONNECTIONS = 300;
  /**
   * The most knocks: the accept path runs once per knock, and the JIT compiles a method after a
   * few hundred calls (C1) to a few thousand (C2), more while its queue is long, as it is at start.
   * A quiet machine gets through about half of them within the budget; what they buy is measured
   * in the README's "A fresh server's first burst".
   */
  static final int KNOCKS = 2_000;
  /** Knocks sent before a connection waits: a tenth of the listen backlog ({@code HttpFront}'s 1,000). */
  static final int KNOCKS_PER_ROUND = 100;
  /**
   * The most time the rehearsal may add to a start, whatever it has done by then: on a quiet
   * machine it finishes first; on a loaded one the start stays bounded and the first clients
   * finish the JIT's work.
   */
  static final long BUDGET_NANOS = 1_000_000_000L;
  private static final int TIMEOUT_MILLIS = 5_000;
  private static final byte[] KNOCK = ascii("G");
  private static final byte[] ADMITTED = ascii("GET /api/admitted HTTP/1.1\r\nHost: warm-up\r\n\r\n");
  private static final byte[] REFUSED = ascii("GET /api/refused HTTP/1.1\r\nHost: warm-up\r\n\r\n");
  private static final byte[] LAST_HEALTH = ascii("GET /health HTTP/1.1\r\nHost: warm-up\r\nConnection: close\r\n\r\n");
  private static final AtomicBoolean done = new AtomicBoolean();

  private WarmUp() {}

  private static byte[] ascii(String text) {
    return text.getBytes(StandardCharsets.ISO_8859_1);
  }

  /** True once per process: for the first server to start, which then rehearses. */
  static boolean due() {
    return done.compareAndSet(false, true);
  }

  /** Makes the next server to start rehearse again; for tests. */
  static void again() {
    done.set(false);
  }

  /**
   * The rehearsal's endpoint: {@code /api/} over scratch limiter state in memory, with
   * {@code config}'s algorithm and header style, and {@code /health}. Close it after.
   */
  static Scratch scratch(DemoServerConfig config) {
    DemoServerConfig scratch = DemoServerConfig.builder()
        .algorithm(config.algorithm()).headers(config.headers())
        .limit(1_000_000_000).window(Duration.ofSeconds(1)) // admits all; the leaky queue waits 1 ns
        .budget("/api/refused", "refused", 1, Duration.ofHours(1))
        .build();
    Clock clock = Clock.systemUTC();
    LongSupplier nanos = () -> Nanos.sinceEpoch(clock.instant());
    Budgets budgets = Budgets.open(scratch, nanos);
    ApiHandler api = new ApiHandler(scratch, budgets, new TrafficStats(16, clock::millis, budgets.names()), clock::millis);
    Endpoint endpoint = exchange -> {
      if (exchange.path().startsWith("/api/")) {
        api.handle(exchange);
      } else {
        exchange.send(200, "application/json", "{\"status\":\"ok\"}");
      }
    };
    return new Scratch(endpoint, budgets);
  }

  /** The rehearsal's endpoint and the state it runs on. */
  record Scratch(Endpoint endpoint, Budgets budgets) implements AutoCloseable {
    @Override
    public void close() {
      budgets.close();
    }
  }

  /** Sends the rehearsal listening on loopback at {@code target} its connections, each read to its end. */
  static void run(InetSocketAddress target) {
    // The real clock, and no injected one: this bounds how long a start takes, which is real time,
    // and decides nothing about any request
    long start = System.nanoTime();
    int knocked = 0;
    int done = 0;
    try {
      while (done < CONNECTIONS && System.nanoTime() - start < BUDGET_NANOS) {
        for (int i = 0; i < KNOCKS_PER_ROUND && knocked < KNOCKS; i++) {
          knock(target);
          knocked++;
        }
        once(target);
        done++;
      }
      log.debug("rehearsed {} knocks and {} connections in {} ms", knocked, done, (System.nanoTime() - start) / 1_000_000);
    } catch (IOException e) {
      log.debug("rehearsal on {} failed (harmless: the first clients pay instead): {}", target, e.toString());
    }
  }

  /** A connection that sends a byte and resets, without waiting for the server to take it. */
  private static void knock(InetSocketAddress target) throws IOException {
    try (Socket socket = new Socket()) {
      socket.setSoLinger(true, 0); // closed with a reset: no TIME_WAIT left behind on either side
      socket.connect(target, TIMEOUT_MILLIS);
      socket.getOutputStream().write(KNOCK); // silent, the kernel would hold it for a second (TCP_DEFER_ACCEPT)
    }
  }

  private static void once(InetSocketAddress target) throws IOException {
    try (Socket socket = new Socket()) {
      socket.connect(target, TIMEOUT_MILLIS);
      socket.setSoTimeout(TIMEOUT_MILLIS);
      OutputStream out = socket.getOutputStream();
      out.write(ADMITTED);
      out.write(REFUSED);
      out.write(LAST_HEALTH);
      out.flush();
      InputStream in = socket.getInputStream();
      byte[] buffer = new byte[2_048];
      while (in.read(buffer) >= 0) {
        // until the server closes after the third answer: each went through the whole path
      }
    }
  }
}
