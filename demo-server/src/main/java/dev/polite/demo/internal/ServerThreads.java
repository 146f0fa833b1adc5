package dev.polite.demo.internal;

import dev.polite.demo.DemoServerConfig;

/**
 * How many threads a server runs, from its configuration: the I/O threads that read requests and
 * write answers, and the task threads for the work that may block. The front starts them; the
 * Redis stores size their connection pools by the task threads, so they read the number here
 * rather than from the front that owns them.
 */
final class ServerThreads {
  private ServerThreads() {}

  /** The I/O threads {@code config} asks for: {@code --io-threads}, or half the cores, at least 1. */
  static int io(DemoServerConfig config) {
    return io(config.ioThreads(), Runtime.getRuntime().availableProcessors());
  }

  /**
   * The task threads: eight per I/O thread (at least 16), for the work that may block (Redis
   * decisions, /stats). Also the most decisions one store can have under way at once, which the
   * Redis stores size their connection pools by.
   */
  static int tasks(DemoServerConfig config) {
    return tasks(io(config));
  }

  /** {@link #io(DemoServerConfig)} for {@code configured} I/O threads (0: none said) on {@code cores}. */
  static int io(int configured, int cores) {
    return configured > 0 ? configured : Math.max(1, cores / 2);
  }

  /** {@link #tasks(DemoServerConfig)} for {@code ioThreads} I/O threads. */
  static int tasks(int ioThreads) {
    return Math.max(2, ioThreads) * 8;
  }
}
