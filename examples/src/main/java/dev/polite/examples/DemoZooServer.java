package dev.polite.examples;

import dev.polite.demo.Algorithm;
import dev.polite.demo.DemoServer;
import dev.polite.demo.HeaderStyle;
import java.time.Duration;
import java.util.Locale;
import java.util.OptionalLong;
import okhttp3.HttpUrl;

/**
 * A demo server in the zoo: one algorithm, one header dialect, {@code limit} per {@code window}
 * with a burst (the bucket family's capacity; the queue's slots for the leaky queue), optionally
 * with its clock ahead of ours. Started in process on port 0; its rejections are its own count.
 *
 * <p>Usage: {@code new DemoZooServer(Algorithm.TOKEN_BUCKET, HeaderStyle.NONE, 20, Duration.ofSeconds(1), 20, Duration.ZERO)}
 *
 * @param algorithm the limiter
 * @param headers the dialect of its answers
 * @param limit requests per window
 * @param window the window
 * @param capacity the bucket's capacity, or the leaky queue's slots (ignored by the window algorithms, which admit {@code limit} per window)
 * @param clockSkew how far the server's clock runs ahead of ours (zero for none)
 */
public record DemoZooServer(Algorithm algorithm, HeaderStyle headers, long limit, Duration window, long capacity,
    Duration clockSkew) implements ZooServer {

  @Override
  public String name() {
    return algorithm.cliName() + "/" + headers.cliName();
  }

  @Override
  public String description() {
    String what = switch (algorithm) {
      case LEAKY_QUEUE -> "leaky bucket as a queue of " + capacity + ", draining " + limit + " per " + seconds(window);
      case FIXED_WINDOW, SLIDING_LOG, SLIDING_COUNTER -> algorithm.cliName().replace('-', ' ') + ", " + limit
          + " per " + seconds(window);
      default -> algorithm.cliName().replace('-', ' ') + ", " + limit + " per " + seconds(window) + ", burst " + capacity;
    };
    return "demo server: " + what + ", " + headers.cliName() + " headers"
        + (clockSkew.isZero() ? "" : ", its clock " + seconds(clockSkew) + " ahead");
  }

  @Override
  public double rate() {
    return limit / (window.toNanos() / 1e9);
  }

  @Override
  public long burst() {
    return algorithm.usesBurst() ? capacity : limit;
  }

  @Override
  public double floorSeconds(int requests) {
    return switch (algorithm) {
      case LEAKY_QUEUE -> Floor.leakyQueue(requests, rate());
      case FIXED_WINDOW, SLIDING_LOG, SLIDING_COUNTER -> Floor.windows(requests, limit, window);
      default -> Floor.tokenBucket(requests, capacity, rate());
    };
  }

  @Override
  public String floorRule() {
    return switch (algorithm) {
      case LEAKY_QUEUE -> "(N - 1) / rate: one request leaves the queue per interval, whatever its size";
      case FIXED_WINDOW, SLIDING_LOG, SLIDING_COUNTER -> "(ceil(N / limit) - 1) windows: a window's worth at once, then one more window each";
      default -> "(N - burst) / rate: the burst at once, then the rate";
    };
  }

  @Override
  public Running start() {
    DemoServer server = DemoServer.builder()
        .port(0)
        .algorithm(algorithm)
        .limit(limit)
        .window(window)
        .burst(capacity)
        .headers(headers)
        .clockSkew(clockSkew)
        .start();
    return new Running(HttpUrl.get(server.url() + "/api/items"), () -> OptionalLong.of(server.stats().rejected()),
        server::close);
  }

  private static String seconds(Duration duration) {
    double s = duration.toNanos() / 1e9;
    return (s == Math.rint(s) ? Long.toString((long) s) : String.format(Locale.ROOT, "%.3f", s)) + " s";
  }
}
