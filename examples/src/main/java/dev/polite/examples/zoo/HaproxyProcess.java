package dev.polite.examples.zoo;

import dev.polite.examples.Pause;
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
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;

/**
 * One HAProxy, run by the zoo for one cell: its configuration written to a temporary directory,
 * checked with {@code haproxy -c}, then HAProxy started in the foreground ({@code -db}) as a child
 * of this JVM, on a free loopback port. {@link #close()} stops it and deletes the directory; a
 * shutdown hook does the same if the JVM ends first (Ctrl-C, a failed run), so no HAProxy is left
 * behind. Only a {@code kill -9} of the JVM could orphan it.
 *
 * <p>Usage: {@code try (HaproxyProcess haproxy = HaproxyProcess.start(binary, app.port(), 20, Duration.ofSeconds(1))) { haproxy.port(); }}
 */
final class HaproxyProcess implements AutoCloseable {
  private static final Duration START_TIMEOUT = Duration.ofSeconds(10);
  private static final int START_ATTEMPTS = 3;

  private final Process process;
  private final Path dir;
  private final int port;
  private final Thread hook;

  private HaproxyProcess(Process process, Path dir, int port, Thread hook) {
    this.process = process;
    this.dir = dir;
    this.port = port;
    this.hook = hook;
  }

  /**
   * Starts HAProxy limiting each client address to {@code limit} requests per {@code period} in
   * front of {@code backendPort}, and returns once it accepts connections.
   *
   * @throws IOException if the configuration fails HAProxy's check or HAProxy does not come up
   *     (the message carries HAProxy's own words)
   */
  public static HaproxyProcess start(Path binary, int backendPort, long limit, Duration period) throws IOException {
    Path dir = Files.createTempDirectory("polite-zoo-haproxy-");
    try {
      Path cfg = dir.resolve("haproxy.cfg");
      Path log = dir.resolve("haproxy.log");
      String lastWords = "";
      for (int attempt = 1; attempt <= START_ATTEMPTS; attempt++) {
        // The port is free when asked, but another program may take it before HAProxy binds it;
        // then HAProxy exits at once, and another port is tried.
        int port = freePort();
        Files.writeString(cfg, HaproxyConfig.render(port, backendPort, limit, period), StandardCharsets.UTF_8);
        check(binary, cfg);
        // The hook is in place before HAProxy exists, and both take one lock, so there is no moment
        // at which the JVM could end (Ctrl-C) and leave a HAProxy it had started running.
        AtomicReference<Process> started = new AtomicReference<>();
        AtomicBoolean exiting = new AtomicBoolean();
        Thread hook = new Thread(() -> {
          synchronized (started) {
            exiting.set(true);
            Process running = started.get();
            if (running != null) {
              stop(running, dir);
            }
          }
        }, "haproxy-stop");
        Runtime.getRuntime().addShutdownHook(hook);
        Process process;
        synchronized (started) {
          if (exiting.get()) {
            throw new IOException("the JVM is exiting: haproxy not started");
          }
          try {
            process = new ProcessBuilder(binary.toString(), "-db", "-f", cfg.toString())
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
          } catch (IOException e) {
            removeHook(hook);
            throw e;
          }
          started.set(process);
        }
        boolean listening = false;
        try {
          listening = awaitListening(process, port);
        } finally {
          if (!listening) {
            stop(process, null);
            removeHook(hook);
          }
        }
        if (listening) {
          return new HaproxyProcess(process, dir, port, hook);
        }
        lastWords = Files.exists(log) ? Files.readString(log, StandardCharsets.UTF_8).strip() : "";
      }
      throw new IOException("haproxy did not start in " + START_ATTEMPTS + " attempts"
          + (lastWords.isEmpty() ? "" : ": " + lastWords));
    } catch (IOException | RuntimeException e) {
      deleteTree(dir);
      throw e;
    }
  }

  /** The loopback port HAProxy listens on. */
  public int port() {
    return port;
  }

  /** Whether HAProxy is still running. */
  boolean alive() {
    return process.isAlive();
  }

  /** The temporary directory holding its configuration and log, deleted by {@link #close()}. */
  Path directory() {
    return dir;
  }

  /** Stops HAProxy (TERM, then KILL after two seconds) and deletes its directory. */
  @Override
  public void close() {
    stop(process, dir);
    removeHook(hook);
  }

  private static void check(Path binary, Path cfg) throws IOException {
    Process check = new ProcessBuilder(binary.toString(), "-c", "-f", cfg.toString())
        .redirectErrorStream(true)
        .start();
    String output = new String(check.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
    try {
      if (!check.waitFor(START_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
        check.destroyForcibly();
        throw new IOException("haproxy -c did not finish in " + START_TIMEOUT.toSeconds() + " s");
      }
    } catch (InterruptedException e) {
      check.destroyForcibly();
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while haproxy -c ran", e);
    }
    if (check.exitValue() != 0) {
      throw new IOException("haproxy -c refused the configuration (exit " + check.exitValue() + "): " + output);
    }
  }

  private static boolean awaitListening(Process process, int port) throws IOException {
    long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
    while (System.nanoTime() < deadline) {
      if (!process.isAlive()) {
        return false;
      }
      try (Socket socket = new Socket()) {
        // A bare connection is not an HTTP request, so it does not count against the rate.
        socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 200);
        return true;
      } catch (IOException notYet) {
        Pause.sleep(Duration.ofMillis(20));
      }
    }
    throw new IOException("haproxy did not listen on port " + port + " within " + START_TIMEOUT.toSeconds() + " s");
  }

  private static void stop(Process process, Path dir) {
    process.destroy();
    try {
      if (!process.waitFor(2, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        process.waitFor(2, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
    }
    if (dir != null) {
      deleteTree(dir);
    }
  }

  private static void removeHook(Thread hook) {
    try {
      Runtime.getRuntime().removeShutdownHook(hook);
    } catch (IllegalStateException shuttingDown) {
      // The JVM is already exiting and runs the hook itself: nothing to remove.
    }
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    }
  }

  private static void deleteTree(Path dir) {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(dir)) {
      paths.sorted(Comparator.reverseOrder()).forEach(path -> {
        try {
          Files.deleteIfExists(path);
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      });
    } catch (IOException | UncheckedIOException e) {
      // A temporary directory left behind is untidy, not wrong; the run goes on.
    }
  }
}
