package dev.polite.examples.zoo;

import java.time.Duration;

/**
 * The HAProxy configuration the zoo runs: the common stick-table rate limit, a sliding request rate per client address that answers 429
 * with no header at all, in front of one backend server. Nothing here was written for polite; it
 * is the configuration an operator copies from HAProxy's blog, so it measures how polite fares
 * with a limiter it did not grow up with.
 *
 * <p>Usage: {@code String cfg = HaproxyConfig.render(frontendPort, backendPort, 20, Duration.ofSeconds(1));}
 */
final class HaproxyConfig {
  private HaproxyConfig() {}

  /**
   * The whole file.
   *
   * @param frontendPort the loopback port HAProxy listens on
   * @param backendPort the loopback port of the server behind it
   * @param limit requests per {@code period} above which HAProxy denies ({@code gt limit})
   * @param period the span of the rate, whole milliseconds, at least one
   */
  public static String render(int frontendPort, int backendPort, long limit, Duration period) {
    checkPort("frontendPort", frontendPort);
    checkPort("backendPort", backendPort);
    if (limit < 1) {
      throw new IllegalArgumentException("limit: must be at least 1, was " + limit);
    }
    if (period.toMillis() < 1) {
      throw new IllegalArgumentException("period: must be at least 1 ms, was " + period);
    }
    long periodMillis = period.toMillis();
    // The entry must outlive the rate's memory of it (two periods), or a client idle for a
    // moment would come back to a fresh counter; at least 10 s, as in
    // the configuration this one copies.
    long expireMillis = Math.max(10_000, 2 * periodMillis);
    return "# Written by polite's zoo for one cell, removed after it.\n"
        + "global\n"
        // 64 callers need 128 sockets; 256 stays under an ordinary user's 1024 open files, where
        // that configuration's 1024 connections would make HAProxy ask for more than it may have.
        + "    maxconn 256\n"
        + "defaults\n"
        + "    mode http\n"
        + "    timeout connect 1s\n"
        + "    timeout client 10s\n"
        + "    timeout server 10s\n"
        + "frontend api\n"
        + "    bind 127.0.0.1:" + frontendPort + "\n"
        + "    # the request rate of each client address over the last period, denied requests included\n"
        + "    stick-table type ip size 100k expire " + expireMillis + "ms store http_req_rate(" + periodMillis + "ms)\n"
        + "    http-request track-sc0 src\n"
        + "    http-request deny deny_status 429 if { sc_http_req_rate(0) gt " + limit + " }\n"
        + "    default_backend app\n"
        + "backend app\n"
        + "    server s1 127.0.0.1:" + backendPort + "\n";
  }

  private static void checkPort(String name, int port) {
    if (port < 1 || port > 65535) {
      throw new IllegalArgumentException(name + ": must be 1 to 65535, was " + port);
    }
  }
}
