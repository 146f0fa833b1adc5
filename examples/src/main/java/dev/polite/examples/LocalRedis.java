package dev.polite.examples;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * A real {@code redis-server} from the {@code PATH} on a free loopback port, owned by one lesson
 * or command ({@code lessons}, {@code nodes} and {@code fleet} start one): no persistence,
 * stopped (and its scratch directory removed) by {@link #close()}, which every user reaches
 * through try-with-resources, failures included. It can also be killed and started again on the
 * same port ({@link #kill()}, {@link #restart()}), as an outage that loses everything Redis held.
 *
 * <p>Usage: {@code try (LocalRedis redis = LocalRedis.start()) { ... redis.port() ... }}
 */
public final class LocalRedis implements AutoCloseable {
  /** What a user without Redis is told; the command fails with it instead of a stack trace. */
  static final String MISSING = "redis-server is not on the PATH: this command runs a real Redis. Install it "
      + "(Debian/Ubuntu: apt-get install -y redis-server) and run it again.";

  private final Path binary;
  // Replaced by restart(): close() and the signals act on the process running now.
  private volatile Process process;
  private final int port;
  private final Path dir;
  private volatile boolean frozen;

  private LocalRedis(Path binary, Process process, int port, Path dir) {
    this.binary = binary;
    this.process = process;
    this.port = port;
    this.dir = dir;
  }

  /**
   * Starts redis-server and returns once it answers PING.
   *
   * @throws IllegalStateException saying how to install it when it is not on the PATH, or what
   *     it said when it did not start
   */
  public static LocalRedis start() throws IOException, InterruptedException {
    Path binary = Executables.onPath("redis-server").orElseThrow(() -> new IllegalStateException(MISSING));
    int port = freePort();
    Path dir = Files.createTempDirectory("polite-lesson-redis");
    LocalRedis redis = new LocalRedis(binary, launch(binary, port, dir), port, dir);
    try {
      redis.awaitPong();
      return redis;
    } catch (RuntimeException | InterruptedException e) {
      redis.close();
      throw e;
    }
  }

  private static Process launch(Path binary, int port, Path dir) throws IOException {
    return new ProcessBuilder(binary.toString(), "--port", Integer.toString(port),
        "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", dir.toString(),
        "--daemonize", "no", "--loglevel", "warning")
        .redirectErrorStream(true)
        // Appended, so that a restart keeps what the first process said.
        .redirectOutput(ProcessBuilder.Redirect.appendTo(dir.resolve("redis.log").toFile()))
        .start();
  }

  /**
   * Kills redis-server at once (SIGKILL: no shutdown, no goodbye to its clients, everything it
   * held lost) and waits for it to exit. The port then refuses connections until
   * {@link #restart()}.
   */
  public void kill() throws InterruptedException {
    process.destroyForcibly().waitFor();
    frozen = false;
  }

  /**
   * Starts a fresh, empty redis-server on the same port after {@link #kill()}, and returns once
   * it answers PING.
   *
   * @throws IllegalStateException if the old one still runs, or the new one did not start
   */
  public void restart() throws IOException, InterruptedException {
    if (process.isAlive()) {
      throw new IllegalStateException("redis-server still runs on port " + port + ": kill() it first");
    }
    process = launch(binary, port, dir);
    awaitPong();
  }

  /** A loopback port nothing listens on at this moment (where a stopped Redis would be). */
  public static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    }
  }

  /** The loopback port it listens on, the same across restarts. */
  public int port() {
    return port;
  }

  /** {@code redis://127.0.0.1:PORT}, as the demo server's {@code store} takes it. */
  public String uri() {
    return "redis://127.0.0.1:" + port;
  }

  /**
   * Freezes redis-server (SIGSTOP): the kernel still accepts connections for it, and nothing
   * answers, as a Redis that hangs or a host that drops packets. {@link #close()} thaws it first.
   */
  public void freeze() throws IOException, InterruptedException {
    signal("STOP");
    frozen = true;
  }

  /** Thaws a frozen redis-server (SIGCONT). */
  public void thaw() throws IOException, InterruptedException {
    signal("CONT");
    frozen = false;
  }

  private void signal(String name) throws IOException, InterruptedException {
    int exit = new ProcessBuilder("kill", "-" + name, Long.toString(process.pid()))
        .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start().waitFor();
    if (exit != 0) {
      throw new IllegalStateException("kill -" + name + " " + process.pid() + " exited " + exit);
    }
  }

  private void awaitPong() throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
    while (System.nanoTime() < deadline) {
      if (!process.isAlive()) {
        throw new IllegalStateException("redis-server exited: " + log());
      }
      try (Socket socket = new Socket()) {
        socket.connect(new InetSocketAddress("127.0.0.1", port), 100);
        socket.setSoTimeout(500);
        socket.getOutputStream().write("PING\r\n".getBytes(StandardCharsets.US_ASCII));
        byte[] reply = new byte[7];
        if (socket.getInputStream().read(reply) > 0
            && new String(reply, StandardCharsets.US_ASCII).startsWith("+PONG")) {
          return;
        }
      } catch (IOException notYet) {
        Thread.sleep(20);
      }
    }
    throw new IllegalStateException("redis-server did not answer on port " + port + " within 10 s: " + log());
  }

  private String log() {
    try {
      return Files.readString(dir.resolve("redis.log")).strip();
    } catch (IOException e) {
      return "(no log: " + e.getMessage() + ")";
    }
  }

  /** Stops redis-server, waits for it to exit and removes its directory. */
  @Override
  public void close() {
    if (frozen) {
      try {
        thaw(); // a stopped process leaves SIGTERM pending; SIGKILL below covers a failed thaw
      } catch (IOException | RuntimeException e) {
        process.destroyForcibly();
      } catch (InterruptedException e) {
        process.destroyForcibly();
        Thread.currentThread().interrupt();
      }
    }
    process.destroy();
    try {
      if (!process.waitFor(5, java.util.concurrent.TimeUnit.SECONDS)) {
        process.destroyForcibly().waitFor();
      }
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt(); // the process is killed; only the wait is cut short
    }
    try (Stream<Path> files = Files.walk(dir)) {
      files.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
