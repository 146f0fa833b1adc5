package dev.polite;

import java.time.Duration;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * What polite knew about one key at one moment: its pace and where it came from, its tokens,
 * its pause, the policy the server advertised, and its calls in flight. For gauges, dashboards
 * and debugging; deciding anything from it would race the calls that change it.
 *
 * <pre>{@code
 * interceptor.snapshot("https://api.github.com:443")
 *     .ifPresent(k -> log.info("{}/s, paused {}", k.pace(), k.pausedFor()));
 * }</pre>
 *
 * @param key the key, as the key function made it
 * @param pace requests (cost units) per second the key is paced at; infinite when unpaced
 * @param burst how many may go at once at that pace
 * @param tokens the bucket's tokens now; negative when calls have reserved tokens not yet refilled
 * @param pausedFor how long every call to the key must still wait; zero when not paused
 * @param policy the policy the server last advertised and polite paces by; null when none was
 * @param source where the pace came from
 * @param inFlight calls sent and not yet answered, and calls holding a reservation
 * @param observing whether its polite only {@linkplain PoliteBuilder#observeOnly
 *     observes}: the pace, tokens and pause are then what polite would hold calls to, while it
 *     holds none
 */
public record KeySnapshot(String key, double pace, double burst, double tokens, Duration pausedFor,
    @Nullable RateLimitPolicy policy, Source source, int inFlight, boolean observing) {

  /** Validates the parts that cannot be absent. */
  public KeySnapshot {
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(pausedFor, "pausedFor");
    Objects.requireNonNull(source, "source");
  }

  /** Where a key's pace came from. */
  public enum Source {
    /** Nothing paces the key: the server advertised nothing and refused nothing yet. */
    UNPACED,
    /** The builder's {@code startingRate}, before the server said anything. */
    STARTING,
    /** The server's rate-limit headers (a quota and its window, or a reset that bounds it). */
    ADVERTISED,
    /** The rate controller, from the server's rejections ({@link Aimd} by default). */
    DISCOVERED
  }
}
