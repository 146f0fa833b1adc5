package dev.polite.micrometer;

import dev.polite.GiveUpReason;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.TimeGauge;
import io.micrometer.core.instrument.Timer;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;

/**
 * One key tag's meters in one registry. Every meter is registered here, at once, so that the
 * events only ever look meters up; {@code state} null is {@value PoliteMetrics#OTHER}, which has no gauges.
 * The would-be meters exist only for an observing interceptor's keys: an enforcing one never
 * records them, and their eight series per key would be empty.
 */
final class KeyMeters {
  /** The tag naming the key: {@code key}. */
  static final String KEY = "key";
  /** The tag naming a give-up's reason: {@code reason}. */
  static final String REASON = "reason";
  private static final GiveUpReason[] REASONS = GiveUpReason.values();

  final MeterRegistry registry;
  final String key;
  final Timer waited;
  final Counter rejected;
  final Counter retries;
  final Counter[] gaveUp;
  final @Nullable Timer wouldWait;
  final @Nullable Counter wouldRetry;
  final Counter @Nullable [] wouldGiveUp;
  /** Every meter above and the gauges, to remove them together. */
  final List<Meter> all = new ArrayList<>();

  KeyMeters(MeterRegistry registry, String key, Tags common, @Nullable LiveKey state,
      boolean observing) {
    this.registry = registry;
    this.key = key;
    Tags tags = common.and(KEY, key);
    waited = add(Timer.builder("polite.calls.wait")
        .description("Time an attempt waited before it was sent: the key's pause, its gate "
            + "and its pace (zero when it went at once)")
        .tags(tags).register(registry));
    rejected = add(Counter.builder("polite.calls.rejected")
        .description("Answers that were rate-limit rejections (429, or a 403 reporting a "
            + "spent quota)")
        .tags(tags).register(registry));
    retries = add(Counter.builder("polite.calls.retries")
        .description("Retries scheduled after a rate-limit rejection or a failure")
        .tags(tags).register(registry));
    gaveUp = byReason("polite.calls.gave.up", "Calls polite stopped trying, by reason", tags);
    if (observing) {
      wouldWait = add(Timer.builder("polite.calls.would.wait")
          .description("Observation mode: the wait each attempt sent at once would have had "
              + "for the key's pause and pace, had polite enforced them (zero included)")
          .tags(tags).register(registry));
      wouldRetry = add(Counter.builder("polite.calls.would.retries")
          .description("Observation mode: retries polite would have made; the answers were "
              + "returned as they came")
          .tags(tags).register(registry));
      wouldGiveUp = byReason("polite.calls.would.gave.up",
          "Observation mode: calls polite would have stopped trying, by reason "
              + "(wait_too_long before an attempt: refused without sending it)", tags);
    } else {
      wouldWait = null;
      wouldRetry = null;
      wouldGiveUp = null;
    }
    if (state != null) {
      // Micrometer holds a gauge's object weakly; the caller holds the LiveKey for as long as
      // the gauge is registered (PoliteMetrics: in its map of keys), and removes them together.
      add(Gauge.builder("polite.key.pace", state, LiveKey::pace)
          .description("The key's pace in requests (cost units) per second; NaN while unpaced")
          .tags(tags).register(registry));
      add(TimeGauge.builder("polite.key.pause", state, TimeUnit.NANOSECONDS,
              LiveKey::pauseNanos)
          .description("How long every call to the key must still wait; zero when not paused")
          .tags(tags).register(registry));
      add(Gauge.builder("polite.key.tokens", state, LiveKey::tokens)
          .description("Tokens in the key's bucket; negative while calls wait on reserved "
              + "tokens, NaN while unpaced")
          .tags(tags).register(registry));
      add(Gauge.builder("polite.key.in.flight", state, LiveKey::inFlight)
          .description("Calls to the key sent and not yet answered, or holding a reservation")
          .tags(tags).register(registry));
    }
  }

  /** One counter per reason to give up, indexed by the reason's ordinal. */
  private Counter[] byReason(String name, String description, Tags tags) {
    Counter[] counters = new Counter[REASONS.length];
    for (GiveUpReason reason : REASONS) {
      counters[reason.ordinal()] = add(Counter.builder(name).description(description)
          .tags(tags).tag(REASON, reason.name().toLowerCase(Locale.ROOT)).register(registry));
    }
    return counters;
  }

  private <M extends Meter> M add(M meter) {
    all.add(meter);
    return meter;
  }

  /**
   * Removes this key's meters from the registry; not one whose tag a {@code MeterFilter} took
   * away ({@code ignoreTags("key")}), since that meter is every key's, and removing it would
   * silently drop the events of the keys still held.
   */
  void remove() {
    for (Meter meter : all) {
      if (key.equals(meter.getId().getTag(KEY))) {
        registry.remove(meter);
      }
    }
  }
}
