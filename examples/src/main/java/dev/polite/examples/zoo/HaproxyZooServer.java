package dev.polite.examples.zoo;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.OptionalLong;
import okhttp3.HttpUrl;

/**
 * HAProxy in the zoo: {@link HaproxyConfig}'s sliding request rate of {@code limit} per
 * {@code period} in front of a {@link BareBackend}, both fresh for the cell. HAProxy keeps no
 * count the zoo can read cheaply, so its rejections are the client's count of the 429s it
 * received (every attempt passes the client's network interceptor, so none is missed).
 *
 * <p>Usage: {@code new HaproxyZooServer(Path.of("/usr/sbin/haproxy"), 20, Duration.ofSeconds(1)).start()}
 *
 * @param binary the {@code haproxy} executable
 * @param limit requests per period above which it denies
 * @param period the span of its rate
 */
record HaproxyZooServer(Path binary, long limit, Duration period) implements ZooServer {

  @Override
  public String name() {
    return "haproxy";
  }

  @Override
  public String description() {
    return "HAProxy: sliding request rate per address, deny 429 when above " + limit + " per "
        + period.toMillis() + " ms, no headers";
  }

  @Override
  public double rate() {
    return limit / (period.toNanos() / 1e9);
  }

  @Override
  public long burst() {
    return limit;
  }

  @Override
  public double floorSeconds(int requests) {
    return Floor.slidingRate(requests, limit, period);
  }

  @Override
  public String floorRule() {
    return "(N - 1) / limit periods: the limit at once, then nothing until the period ends, then one per period / limit";
  }

  @Override
  public Running start() throws IOException {
    BareBackend backend = BareBackend.start();
    HaproxyProcess haproxy;
    try {
      haproxy = HaproxyProcess.start(binary, backend.port(), limit, period);
    } catch (IOException | RuntimeException e) {
      backend.close();
      throw e;
    }
    return new Running(HttpUrl.get("http://127.0.0.1:" + haproxy.port() + "/api/items"), OptionalLong::empty, () -> {
      try {
        haproxy.close();
      } finally {
        backend.close();
      }
    });
  }
}
