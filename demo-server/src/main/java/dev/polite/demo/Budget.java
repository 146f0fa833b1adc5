package dev.polite.demo;

import java.time.Duration;

/**
 * A budget of its own on one host, for the requests under one path prefix: {@code limit} units
 * per {@code window}, counted per client key apart from every other budget, and named in the
 * answers' headers, as GitHub's {@code search} (30 a minute) is apart from its {@code core} (5,000
 * an hour) and named in {@code x-ratelimit-resource}. The server's own {@code --limit} per
 * {@code --window} is then the budget named {@link #MAIN core}, for every request no budget claims.
 *
 * <p>Usage: {@code DemoServer.builder().budget("/api/search", "search", 30, Duration.ofMinutes(1))}
 *
 * @param name what the headers call it: {@code x-ratelimit-resource}, the IETF policy's name
 * @param limit units per window, at least 1; the bucket algorithms hold as many (burst = limit)
 * @param window the window, 1 ms to 366 days, as {@code --window}
 */
public record Budget(String name, long limit, Duration window) {
  /** The name of the server's own budget ({@code --limit} per {@code --window}) once any other is given. */
  public static final String MAIN = "core";

  /** What a bucket holds of it: its limit (a budget has no burst of its own). */
  public long burst() {
    return limit;
  }

  /** As the command line gives it, less the prefix: {@code search:30/PT1M}. */
  @Override
  public String toString() {
    return name + ":" + limit + "/" + window;
  }
}
