package dev.polite.demo.internal;

import dev.polite.demo.DemoServerConfig;
import io.netty.util.AsciiString;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.function.IntSupplier;
import org.jspecify.annotations.Nullable;

/**
 * Answers {@code GET /stats} and {@code POST /stats/reset}.
 *
 * <p>{@code GET /stats} shows the totals and the {@value #DEFAULT_TOP} busiest keys;
 * {@code ?top=N} (N from 0 to {@value #MOST_ASKED}) shows the N busiest, at most
 * {@value #MOST_TOP} ({@code top=0}: totals only), {@code ?key=KEY} (as counted:
 * {@code ip:203.0.113.7}, {@code key:HASH}) that key alone. Every answer is under
 * {@link StatsJson#MAX_BYTES}, however many keys are counted and whatever is asked (an unbounded
 * answer runs to megabytes on a busy server: demo-server/README.md, "Under abuse"), and it is built
 * on a worker thread, not on the I/O thread that {@code /health} and {@code /api/} answers need.
 *
 * <p>{@code POST /stats/reset} needs {@code Authorization: Bearer TOKEN} when an admin token is
 * configured (compared in constant time), and nothing otherwise.
 *
 * <p>Usage: {@code new StatsHandler(config, stats, store::localKeys).handle(exchange)}
 */
public final class StatsHandler implements Endpoint {
  static final int DEFAULT_TOP = 20;
  /** The most keys one answer shows: their rows take about 10 KB, leaving most of the 64 KB to their timelines. */
  static final int MOST_TOP = 100;
  /** The largest {@code top} taken (larger is a 400); above {@link #MOST_TOP} it shows that many. */
  static final int MOST_ASKED = 1_000;
  private static final AsciiString AUTHORIZATION = AsciiString.cached("Authorization");
  private static final AsciiString WWW_AUTHENTICATE = AsciiString.cached("WWW-Authenticate");

  private final DemoServerConfig config;
  private final TrafficStats stats;
  private final IntSupplier keysHeld;
  private final byte[] expectedAuthorization;

  /**
   * @param config the configuration in force (shown, and its admin token)
   * @param stats the counts to show and reset
   * @param keysHeld how many keys the limiter holds now
   */
  public StatsHandler(DemoServerConfig config, TrafficStats stats, IntSupplier keysHeld) {
    this.config = config;
    this.stats = stats;
    this.keysHeld = keysHeld;
    String token = config.adminToken();
    this.expectedAuthorization = token.isEmpty() ? new byte[0]
        : ("Bearer " + token).getBytes(StandardCharsets.US_ASCII);
  }

  @Override
  public void handle(Exchange exchange) {
    exchange.dispatch(() -> answer(exchange));
  }

  private void answer(Exchange exchange) {
    if (exchange.path().equals("/stats")) {
      show(exchange);
    } else {
      reset(exchange);
    }
  }

  private void show(Exchange exchange) {
    if (!exchange.method().equals("GET")) {
      json(exchange, 405, "{\"error\":\"use GET\"}");
      return;
    }
    Answer answer = show(exchange.queryParameter("key"), exchange.queryParameter("top"));
    json(exchange, answer.status(), answer.body());
  }

  /** A status and its JSON body. */
  record Answer(int status, String body) {}

  /** The answer to {@code GET /stats} with these query parameters (each null when absent). */
  Answer show(@Nullable String key, @Nullable String top) {
    if (key != null) {
      return new Answer(200, StatsJson.write(stats.key(key), config, keysHeld.getAsInt()));
    }
    int most = DEFAULT_TOP;
    if (top != null) {
      most = parseTop(top);
      if (most < 0) {
        return new Answer(400, "{\"error\":" + StatsJson.quote("top: must be a whole number from 0 to " + MOST_ASKED
            + ", was '" + (top.length() > 20 ? top.substring(0, 20) + "..." : top) + "'") + "}");
      }
      most = Math.min(most, MOST_TOP);
    }
    return new Answer(200, StatsJson.write(stats.top(most), config, keysHeld.getAsInt()));
  }

  private void reset(Exchange exchange) {
    if (!exchange.method().equals("POST")) {
      json(exchange, 405, "{\"error\":\"use POST\"}");
      return;
    }
    if (expectedAuthorization.length > 0 && !authorized(exchange.requestHeader(AUTHORIZATION))) {
      exchange.header(WWW_AUTHENTICATE, "Bearer realm=\"polite-demo-server\"");
      json(exchange, 401, "{\"error\":\"POST /stats/reset needs Authorization: Bearer <the --admin-token>\"}");
      return;
    }
    stats.reset();
    json(exchange, 200, "{\"reset\":true}");
  }

  private boolean authorized(@Nullable String given) {
    if (given == null) {
      return false;
    }
    return MessageDigest.isEqual(expectedAuthorization, given.trim().getBytes(StandardCharsets.US_ASCII));
  }

  /** {@code text} as a count from 0 to {@link #MOST_ASKED}, or -1. */
  static int parseTop(String text) {
    if (text.isEmpty() || text.length() > 4) {
      return -1;
    }
    int value = 0;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c < '0' || c > '9') {
        return -1;
      }
      value = value * 10 + (c - '0');
    }
    return value <= MOST_ASKED ? value : -1;
  }

  private static void json(Exchange exchange, int status, String body) {
    exchange.send(status, "application/json", body);
  }
}
