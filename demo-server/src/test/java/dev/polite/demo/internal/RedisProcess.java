package dev.polite.demo.internal;

import static org.assertj.core.api.Assertions.fail;

import java.io.File;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Assumptions;

/**
 * A real {@code redis-server} from the PATH on an ephemeral loopback port, owned by one test:
 * no persistence, stopped (and startable again on the same port) by the test. Without the binary
 * the test fails with instructions, unless {@code POLITE_SKIP_REDIS_TESTS=1} says to skip.
 * Public for polite-redis's tests, which take it from this module's test jar.
 *
 * <p>Usage: {@code try (RedisProcess redis = RedisProcess.start()) { ... redis.uri() ... }}
 */
public final class RedisProcess implements AutoCloseable {
  private final Path binary;
  private final int port;
  private final Path dir;
  private Process process;

  private RedisProcess(Path binary, int port, Path dir) {
    this.binary = binary;
    this.port = port;
    this.dir = dir;
  }

  public static RedisProcess start() throws IOException {
    Path binary = findOnPath("redis-server");
    if (binary == null) {
      Assumptions.assumeFalse("1".equals(System.getenv("POLITE_SKIP_REDIS_TESTS")),
          "POLITE_SKIP_REDIS_TESTS=1: skipping the Redis tests");
      fail("redis-server is not on the PATH. The Redis store's tests run a real Redis: install it "
          + "(Debian/Ubuntu: apt-get install -y redis-server) or set POLITE_SKIP_REDIS_TESTS=1 to skip them.");
    }
    int port;
    try (ServerSocket socket = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      port = socket.getLocalPort();
    }
    RedisProcess redis = new RedisProcess(binary, port, Files.createTempDirectory("polite-redis"));
    redis.startAgain();
    return redis;
  }

  public int port() {
    return port;
  }

  public String uri() {
    return "redis://127.0.0.1:" + port;
  }

  /** Starts redis-server (again) on the same port and waits until it accepts connections. */
  public void startAgain() throws IOException {
    process = new ProcessBuilder(binary.toString(), "--port", Integer.toString(port),
        "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", dir.toString(),
        "--daemonize", "no", "--loglevel", "warning")
        .redirectErrorStream(true)
        .redirectOutput(dir.resolve("redis.log").toFile())
        .start();
    awaitPong(process, port, dir.resolve("redis.log"));
  }

  /**
   * Waits up to 10 s until the redis-server {@code process} answers PING on {@code port}; fails
   * the test, quoting {@code log}, if it exits first or never answers. Also for polite-redis's
   * cluster nodes.
   */
  public static void awaitPong(Process process, int port, Path log) throws IOException {
    long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
    while (System.nanoTime() < deadline) {
      if (!process.isAlive()) {
        fail("redis-server exited: " + Files.readString(log));
      }
      try (Socket socket = new Socket()) {
        socket.connect(new InetSocketAddress("127.0.0.1", port), 100);
        socket.getOutputStream().write("PING\r\n".getBytes());
        byte[] reply = new byte[7];
        socket.setSoTimeout(500);
        if (socket.getInputStream().read(reply) > 0 && new String(reply).startsWith("+PONG")) {
          return;
        }
      } catch (IOException notYet) {
        Thread.onSpinWait();
      }
    }
    fail("redis-server did not answer on port " + port + " within 10 s");
  }

  /**
   * Stops redis-server (SIGTERM) and waits for it to exit; one that has not exited 5 s on is
   * killed (SIGKILL). Never waits without end: a redis-server that closed its port but hangs in
   * its shutdown would otherwise hold the test, and with it the build.
   */
  public void stop() throws InterruptedException {
    if (process != null && process.isAlive()) {
      process.destroy();
      if (!process.waitFor(5, java.util.concurrent.TimeUnit.SECONDS)) {
        process.destroyForcibly().waitFor(5, java.util.concurrent.TimeUnit.SECONDS);
      }
    }
  }

  /** Freezes redis-server (SIGSTOP): connections open but nothing answers. */
  public void freeze() throws IOException, InterruptedException {
    signal("STOP");
  }

  /** Thaws a frozen redis-server (SIGCONT). */
  public void thaw() throws IOException, InterruptedException {
    signal("CONT");
  }

  private void signal(String name) throws IOException, InterruptedException {
    new ProcessBuilder("kill", "-" + name, Long.toString(process.pid())).inheritIO().start().waitFor();
  }

  @Override
  public void close() {
    if (process != null && process.isAlive()) {
      process.destroyForcibly();
      try {
        process.waitFor(10, java.util.concurrent.TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt(); // the process is killed; only the wait is cut short
      }
    }
  }

  /** The executable {@code name} on the PATH, or null. */
  public static @org.jspecify.annotations.Nullable Path findOnPath(String name) {
    String path = System.getenv("PATH");
    if (path == null) {
      return null;
    }
    for (String dir : path.split(File.pathSeparator)) {
      Path candidate = Path.of(dir, name);
      if (Files.isExecutable(candidate)) {
        return candidate;
      }
    }
    return null;
  }
}
