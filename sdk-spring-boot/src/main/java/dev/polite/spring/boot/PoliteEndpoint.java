package dev.polite.spring.boot;

import dev.polite.KeySnapshot;
import dev.polite.Polite;
import dev.polite.RateLimitPolicy;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.actuate.endpoint.OperationResponseBody;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;

/**
 * The {@code polite} actuator endpoint: what polite knows about each key now, as
 * {@link Polite#snapshots()} tells it. Read-only. Expose it as any endpoint
 * ({@code management.endpoints.web.exposure.include=polite}).
 *
 * <pre>{@code
 * GET /actuator/polite                               every key, sorted by key
 * GET /actuator/polite/https://api.github.com:443    one key, or 404
 * }</pre>
 *
 * <h2>Why the answer looks like this</h2>
 * {@link KeySnapshot} holds doubles that may be infinite (an unpaced key's pace) and
 * {@code Duration}s; JSON has no infinity, and how a {@code Duration} is written depends on the
 * JSON mapper's settings. So each key is re-stated in plain JSON values: an unpaced key's pace and
 * tokens are {@code null}, durations are ISO-8601 text ({@code PT1.5S}). The policy's partition key
 * ({@code pk}) is left out: it can be derived from a credential, and nothing here needs it.
 *
 * <p>A key is text such as {@code https://api.github.com:443}, with slashes, so the one-key read
 * takes the rest of the path as its selector; web servers and firewalls may merge the {@code //}
 * after the scheme, so {@code //} and {@code /} are read alike when the key is looked up.
 */
@Endpoint(id = "polite")
public final class PoliteEndpoint {
  private final Polite polite;

  /** An endpoint over {@code polite}'s keys. */
  public PoliteEndpoint(Polite polite) {
    this.polite = Objects.requireNonNull(polite, "polite");
  }

  /** Every key polite holds, sorted by key. */
  @ReadOperation
  public Keys keys() {
    return new Keys(polite.snapshots().stream()
        .sorted(Comparator.comparing(KeySnapshot::key))
        .map(KeyState::of)
        .toList());
  }

  /**
   * One key, or {@code null} (404 on the web) when polite holds no such key.
   *
   * @param key the key, its slashes splitting it into path segments
   */
  @ReadOperation
  public @Nullable KeyState key(@Selector(match = Selector.Match.ALL_REMAINING) String[] key) {
    String wanted = String.join("/", key);
    Optional<KeySnapshot> exact = polite.snapshot(wanted);
    if (exact.isPresent()) {
      return KeyState.of(exact.get());
    }
    String merged = mergeSlashes(wanted);
    return polite.snapshots().stream()
        .filter(snapshot -> mergeSlashes(snapshot.key()).equals(merged))
        .findFirst()
        .map(KeyState::of)
        .orElse(null);
  }

  private static String mergeSlashes(String text) {
    return text.replaceAll("/{2,}", "/");
  }

  /**
   * Every key polite holds.
   *
   * @param keys each key's state, sorted by key
   */
  public record Keys(List<KeyState> keys) implements OperationResponseBody {}

  /**
   * What polite knew about one key when it was read.
   *
   * @param key the key, as the key function made it
   * @param source where the pace came from: {@code UNPACED}, {@code STARTING}, {@code ADVERTISED}
   *     or {@code DISCOVERED}
   * @param pace requests (cost units) per second; {@code null} when unpaced
   * @param burst how many may go at once at that pace
   * @param tokens the bucket's tokens; negative while calls wait on reserved tokens, {@code null}
   *     when unpaced
   * @param paused whether every call to the key must wait now
   * @param pausedFor how long they must still wait, ISO-8601 ({@code PT0S} when not paused)
   * @param inFlight calls sent and not yet answered, and calls holding a reservation
   * @param observing whether polite only observes: the pace and pause are what it would hold
   *     calls to, while it holds none
   * @param policy the policy the server last advertised; {@code null} when none was
   */
  public record KeyState(String key, String source, @Nullable Double pace, double burst,
      @Nullable Double tokens, boolean paused, String pausedFor, int inFlight, boolean observing,
      @Nullable Policy policy) implements OperationResponseBody {

    static KeyState of(KeySnapshot snapshot) {
      RateLimitPolicy policy = snapshot.policy();
      return new KeyState(snapshot.key(), snapshot.source().name(), finite(snapshot.pace()),
          snapshot.burst(), finite(snapshot.tokens()), snapshot.pausedFor().compareTo(Duration.ZERO) > 0,
          snapshot.pausedFor().toString(), snapshot.inFlight(), snapshot.observing(),
          policy == null ? null : Policy.of(policy));
    }

    private static @Nullable Double finite(double value) {
      return Double.isFinite(value) ? value : null;
    }
  }

  /**
   * A policy as the server advertised it.
   *
   * @param name its name; empty when the server gave none
   * @param quota the quota per window; {@code null} when not said
   * @param remaining what was left of it; {@code null} when not said
   * @param window the window, ISO-8601; {@code null} when not said
   * @param reset when the quota was to reset, from that answer, ISO-8601; {@code null} when not said
   * @param unit the quota's unit ({@code requests} unless the server named another)
   */
  public record Policy(String name, @Nullable Long quota, @Nullable Long remaining,
      @Nullable String window, @Nullable String reset, String unit) {

    static Policy of(RateLimitPolicy policy) {
      return new Policy(policy.name(), boxed(policy.quota()), boxed(policy.remaining()),
          text(policy.window()), text(policy.reset()), policy.unit());
    }

    private static @Nullable Long boxed(OptionalLong value) {
      return value.isPresent() ? value.getAsLong() : null;
    }

    private static @Nullable String text(@Nullable Duration duration) {
      return duration == null ? null : duration.toString();
    }
  }
}
