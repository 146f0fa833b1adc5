package dev.polite.examples.fleet;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * The parent's side of one {@link FleetChild} process: its stdin (where {@code go} is written),
 * its protocol lines from stdout (read by a thread of its own, so a silent child never blocks the
 * parent), and its stderr in a scratch file, quoted when it fails. {@link #stop()} ends it in any
 * state: closing its stdin tells it to exit, then SIGTERM, then SIGKILL.
 *
 * <p>Usage: {@code ChildJvm child = ChildJvm.start(command); child.awaitLine("ready", timeout); child.send("go");}
 */
final class ChildJvm {
  /** What a line of the child protocol starts with; anything else on stdout is ignored. */
  static final String PREFIX = "fleet-child ";
  private static final String CLOSED = "\u0000closed";

  private final Process process;
  private final Path stderr;
  private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();

  private ChildJvm(Process process, Path stderr) {
    this.process = process;
    this.stderr = stderr;
    Thread reader = new Thread(this::read, "fleet-child-" + process.pid() + "-stdout");
    reader.setDaemon(true);
    reader.start();
  }

  static ChildJvm start(List<String> command) throws IOException {
    Path stderr = Files.createTempFile("polite-fleet-child", ".err");
    Process process = new ProcessBuilder(command)
        .redirectError(ProcessBuilder.Redirect.to(stderr.toFile()))
        .start();
    return new ChildJvm(process, stderr);
  }

  long pid() {
    return process.pid();
  }

  ProcessHandle handle() {
    return process.toHandle();
  }

  private void read() {
    try (BufferedReader reader = new BufferedReader(
        new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
      for (String line = reader.readLine(); line != null; line = reader.readLine()) {
        if (line.startsWith(PREFIX)) {
          lines.add(line.substring(PREFIX.length()));
        }
      }
    } catch (IOException e) {
      // the stream closed under us: the child is gone, and awaitLine says so
    } finally {
      lines.add(CLOSED);
    }
  }

  /**
   * The rest of the child's next protocol line starting with {@code word} (such as {@code ready}).
   *
   * @throws IOException quoting its stderr, if it exited or did not say it within {@code timeout}
   */
  String awaitLine(String word, Duration timeout) throws IOException, InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (true) {
      String line = lines.poll(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
      if (line == null) {
        throw new IOException("child " + pid() + " did not say " + word + " within " + timeout.toSeconds() + " s"
            + stderrTail());
      }
      if (line.equals(CLOSED)) {
        lines.add(CLOSED);
        throw new IOException("child " + pid() + " ended before it said " + word + stderrTail());
      }
      if (line.equals(word) || line.startsWith(word + " ")) {
        return line.substring(word.length()).strip();
      }
    }
  }

  /** Writes one line to the child's stdin. */
  void send(String line) throws IOException {
    OutputStream in = process.getOutputStream();
    in.write((line + "\n").getBytes(StandardCharsets.UTF_8));
    in.flush();
  }

  /** Waits up to {@code timeout} for the child to exit on its own; true if it did. */
  boolean awaitExit(Duration timeout) throws InterruptedException {
    return process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
  }

  /**
   * Ends the child: its stdin closed (it exits on that), SIGTERM after a second, SIGKILL after
   * two more; returns once it is gone, and removes its stderr file.
   */
  void stop() {
    try {
      process.getOutputStream().close();
    } catch (IOException e) {
      // already closed: the child is going anyway
    }
    try {
      if (!process.waitFor(1, TimeUnit.SECONDS)) {
        process.destroy();
        if (!process.waitFor(2, TimeUnit.SECONDS)) {
          process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
        }
      }
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
    }
    try {
      Files.deleteIfExists(stderr);
    } catch (IOException e) {
      // a scratch file left in the temp directory is harmless
    }
  }

  /** SIGKILL at once, for the JVM's shutdown hook (no time to wait politely). */
  void kill() {
    process.destroyForcibly();
  }

  private String stderrTail() {
    try {
      String text = Files.readString(stderr).strip();
      if (text.isEmpty()) {
        return "";
      }
      return ": " + (text.length() > 2000 ? "..." + text.substring(text.length() - 2000) : text);
    } catch (IOException e) {
      return "";
    }
  }
}
