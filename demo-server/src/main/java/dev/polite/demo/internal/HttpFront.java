package dev.polite.demo.internal;

import dev.polite.demo.DemoServerConfig;
import io.undertow.UndertowOptions;
import io.undertow.connector.ByteBufferPool;
import io.undertow.server.DefaultByteBufferPool;
import io.undertow.server.HttpHandler;
import io.undertow.server.protocol.http.HttpOpenListener;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.OperatingSystemMXBean;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.xnio.IoUtils;
import org.xnio.OptionMap;
import org.xnio.Options;
import org.xnio.StreamConnection;
import org.xnio.Xnio;
import org.xnio.XnioWorker;
import org.xnio.channels.AcceptingChannel;

/**
 * The HTTP listener: Undertow's HTTP/1.1 on an XNIO worker, set up by hand rather than by
 * {@code Undertow.builder()} so that the accept step is ours ({@link ConnectionGate}, a cap per
 * client) and every limit that protects the server is set in one place:
 *
 * <ul>
 *   <li>a request's line and headers must arrive within the parse timeout, so a half-sent
 *       request does not hold its connection (Undertow sets none by default);
 *   <li>a connection with no request under way for the idle timeout is closed (Undertow's
 *       no-request timeout, 60 s by default); the same value is its channel idle timeout, which
 *       a wait the server itself imposes (latency, the leaky queue) does not trip;
 *   <li>at most {@code maxConnections} are open; beyond that XNIO stops accepting (new
 *       connections wait in the listen backlog) until one closes. The cap is lowered to leave
 *       room under the process's file limit, because an accept that fails for want of a file
 *       descriptor makes XNIO back off for up to 30 s, long after the flood that caused it.
 * </ul>
 *
 * <p>Thread and buffer sizes are Undertow's own defaults, so the server behaves as before.
 *
 * <p>Usage: {@code HttpFront front = HttpFront.start(config, handler); int port = front.port(); front.close();}
 */
public final class HttpFront implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(HttpFront.class);
  /** Descriptors kept free for everything else: jars, logs, Redis connections, the selector. */
  static final long RESERVED_FILES = 512;

  private final XnioWorker worker;
  private final AcceptingChannel<StreamConnection> channel;
  private final int port;
  private final int maxConnections;

  private HttpFront(XnioWorker worker, AcceptingChannel<StreamConnection> channel, int maxConnections) {
    this.worker = worker;
    this.channel = channel;
    this.port = channel.getLocalAddress(InetSocketAddress.class).getPort();
    this.maxConnections = maxConnections;
  }

  /**
   * Binds {@code config}'s host and port and serves {@code handler} on it.
   *
   * @throws IOException when the address cannot be bound
   */
  public static HttpFront start(DemoServerConfig config, HttpHandler handler) throws IOException {
    int ioThreads = Math.max(Runtime.getRuntime().availableProcessors(), 2);
    int maxConnections = fitToFileLimit(config.maxConnections(), maxFileDescriptors());
    if (maxConnections < config.maxConnections()) {
      log.warn("max-connections lowered from {} to {} to stay under the process's file limit ({})",
          config.maxConnections(), maxConnections, maxFileDescriptors());
    }
    Xnio xnio = Xnio.getInstance(HttpFront.class.getClassLoader());
    XnioWorker worker = xnio.createWorker(OptionMap.builder()
        .set(Options.WORKER_NAME, "polite-demo")
        .set(Options.WORKER_IO_THREADS, ioThreads)
        .set(Options.WORKER_TASK_CORE_THREADS, ioThreads * 8)
        .set(Options.WORKER_TASK_MAX_THREADS, ioThreads * 8)
        .set(Options.TCP_NODELAY, true)
        .set(Options.CORK, true)
        .getMap());
    try {
      int parseMillis = millis(config.parseTimeout().toMillis());
      int idleMillis = millis(config.idleTimeout().toMillis());
      OptionMap undertowOptions = OptionMap.builder()
          .set(UndertowOptions.BUFFER_PIPELINED_DATA, true)
          .set(UndertowOptions.REQUEST_PARSE_TIMEOUT, parseMillis)
          .set(UndertowOptions.NO_REQUEST_TIMEOUT, idleMillis)
          .set(UndertowOptions.IDLE_TIMEOUT, idleMillis)
          .getMap();
      HttpOpenListener http = new HttpOpenListener(buffers(), undertowOptions);
      http.setRootHandler(handler);
      OptionMap socketOptions = OptionMap.builder()
          .set(Options.WORKER_IO_THREADS, ioThreads)
          .set(Options.TCP_NODELAY, true)
          .set(Options.REUSE_ADDRESSES, true)
          .set(Options.BALANCING_TOKENS, 1)
          .set(Options.BALANCING_CONNECTIONS, 2)
          .set(Options.BACKLOG, 1000)
          // accepts resume as soon as one connection closes: no hysteresis, no delay
          .set(Options.CONNECTION_HIGH_WATER, maxConnections)
          .set(Options.CONNECTION_LOW_WATER, maxConnections)
          .getMap();
      ConnectionGate gate = new ConnectionGate(http, config.maxConnectionsPerClient(),
          new TrustedProxies(config.trustedProxies()));
      InetSocketAddress address = new InetSocketAddress(InetAddress.getByName(config.host()), config.port());
      AcceptingChannel<StreamConnection> channel = worker.createStreamConnectionServer(address, gate, socketOptions);
      channel.resumeAccepts();
      return new HttpFront(worker, channel, maxConnections);
    } catch (IOException | RuntimeException e) {
      worker.shutdownNow();
      throw e;
    }
  }

  /** The bound port. */
  public int port() {
    return port;
  }

  /** The connection cap in force, after fitting it to the file limit. */
  public int maxConnections() {
    return maxConnections;
  }

  /** Stops accepting, closes every connection and stops the threads. */
  @Override
  public void close() {
    IoUtils.safeClose(channel);
    worker.shutdown();
    try {
      worker.awaitTermination();
    } catch (InterruptedException e) {
      worker.shutdownNow();
      Thread.currentThread().interrupt();
    }
  }

  /** {@code wanted}, lowered to leave {@link #RESERVED_FILES} of {@code fileLimit} free; at least 1. */
  static int fitToFileLimit(int wanted, long fileLimit) {
    if (fileLimit <= 0) { // unknown (not a Unix JVM)
      return wanted;
    }
    return (int) Math.max(1, Math.min(wanted, fileLimit - RESERVED_FILES));
  }

  private static long maxFileDescriptors() {
    OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
    if (os instanceof com.sun.management.UnixOperatingSystemMXBean unix) {
      return unix.getMaxFileDescriptorCount();
    }
    return -1;
  }

  private static int millis(long millis) {
    return (int) Math.min(Integer.MAX_VALUE, millis);
  }

  /** Undertow's default pool: 16 KB direct buffers when the heap allows (512 B heap ones on a tiny heap). */
  private static ByteBufferPool buffers() {
    long maxMemory = Runtime.getRuntime().maxMemory();
    if (maxMemory < 64 * 1024 * 1024) {
      return new DefaultByteBufferPool(false, 512, -1, 4);
    } else if (maxMemory < 128 * 1024 * 1024) {
      return new DefaultByteBufferPool(true, 1024, -1, 4);
    }
    return new DefaultByteBufferPool(true, 1024 * 16 - 20, -1, 4);
  }
}
