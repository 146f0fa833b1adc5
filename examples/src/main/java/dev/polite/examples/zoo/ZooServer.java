package dev.polite.examples.zoo;

import java.io.IOException;
import java.util.List;
import java.util.OptionalLong;
import java.util.function.Supplier;
import okhttp3.HttpUrl;

/**
 * One limiter of the zoo: what it is called, what its documentation would tell a user (the rate
 * and the burst that the {@code paced} and {@code failsafe} clients are set from), its
 * {@link Floor floor}, and how to start a fresh one. Every cell starts its own and stops it after,
 * so no cell inherits another's spent quota or learned state.
 *
 * <p>Usage: {@code try (ZooServer.Running running = server.start()) { runner.run(running.url(), ...); }}
 */
interface ZooServer {
  /** The row's name, unique in the zoo, such as {@code token-bucket/ietf} or {@code haproxy}. */
  String name();

  /** One line on what it is, for the report, such as {@code demo server: token bucket, 20 per 1 s, burst 20, IETF headers}. */
  String description();

  /** The documented rate, requests per second. */
  double rate();

  /** The documented burst: how many requests it admits at once when fresh. */
  long burst();

  /** The least time {@code requests} calls can take without a rejection, in seconds. */
  double floorSeconds(int requests);

  /**
   * The least time {@code requests} calls made by {@code callers} at once can take without a
   * rejection: {@link #floorSeconds(int)}, unless fewer callers than the server admits at once
   * bind (a cap on calls in flight that one caller cannot fill).
   */
  default double floorSeconds(int requests, int callers) {
    return floorSeconds(requests);
  }

  /** The floor's rule in words, for the report. */
  String floorRule();

  /**
   * The calls a spent quota admits, for a row where the rest must fail, and fail fast: such a row
   * is judged by {@link Verdict#spentQuota}, and its {@link #floorSeconds floor} is that verdict's
   * time bound, not a floor. Empty (the default) for a row where every call should succeed.
   */
  default OptionalLong quota() {
    return OptionalLong.empty();
  }

  /**
   * How this row's cells are judged: the usual targets, or, for a row where calls are expected to
   * fail, its own ({@link Targets}); by default the spent quota's for a row with a {@link #quota()},
   * else the usual.
   */
  default Targets targets() {
    OptionalLong quota = quota();
    return quota.isPresent() ? new Targets.SpentQuota(quota.getAsLong()) : Targets.USUAL;
  }

  /**
   * Whether the row is one of the shapes of a limit (a cap on calls in flight, GitHub's 403s, a
   * wrong reset now and then, a spent quota, several budgets on one host) rather than a limiter of
   * 20 per second in one dialect; false by default.
   */
  default boolean shaped() {
    return false;
  }

  /**
   * Starts a fresh instance on free loopback ports.
   *
   * @throws IOException if it cannot be started
   */
  Running start() throws IOException;

  /**
   * A started instance, stopped by {@link #close()}.
   *
   * @param urls the limited URLs to send the cell's GETs to, round robin (call {@code i} to
   *     {@code urls.get(i % size)}): most rows have one; a row of several budgets lists its mix
   * @param counted reads the rate-limit refusals by the server's own count, or empty when the
   *     server keeps none
   * @param stop stops it and frees its ports and files
   */
  record Running(List<HttpUrl> urls, Supplier<OptionalLong> counted, Runnable stop) implements AutoCloseable {
    public Running {
      urls = List.copyOf(urls);
      if (urls.isEmpty()) {
        throw new IllegalArgumentException("urls: at least one is needed");
      }
    }

    /** An instance whose every call goes to {@code url}. */
    public Running(HttpUrl url, Supplier<OptionalLong> counted, Runnable stop) {
      this(List.of(url), counted, stop);
    }

    /** The first URL: the only one, for most rows. */
    public HttpUrl url() {
      return urls.get(0);
    }

    /** Rate-limit refusals by the server's own count so far, or empty when the server keeps none. */
    public OptionalLong rejected() {
      return counted.get();
    }

    @Override
    public void close() {
      stop.run();
    }
  }
}
