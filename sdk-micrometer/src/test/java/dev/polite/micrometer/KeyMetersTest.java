package dev.polite.micrometer;

import static org.assertj.core.api.Assertions.assertThat;

import dev.polite.KeySnapshot;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.config.MeterFilter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * One key tag's meters in one registry, without an interceptor: what is registered at once, what
 * the gauges read from the key's live state, and what removing leaves.
 */
class KeyMetersTest {
  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

  private static KeySnapshot snapshot(double pace, double tokens, Duration paused, int inFlight) {
    return new KeySnapshot("k", pace, 5, tokens, paused, null, KeySnapshot.Source.ADVERTISED, inFlight, false);
  }

  private long meters(String key) {
    return registry.getMeters().stream().filter(m -> key.equals(m.getId().getTag(KeyMeters.KEY))).count();
  }

  @Test
  void aTaggedKeyRegistersEveryCounterAtZeroAndItsFourGauges() {
    LiveKey live = new LiveKey(() -> snapshot(2.5, 3, Duration.ofMillis(1500), 4));
    KeyMeters meters = new KeyMeters(registry, "k", Tags.of("client", "c"), live, false);

    // timer, rejected, retries, one gave-up counter per reason, four gauges
    assertThat(meters(("k"))).isEqualTo(3 + dev.polite.GiveUpReason.values().length + 4);
    assertThat(meters.wouldWait).isNull();
    assertThat(meters.wouldRetry).isNull();
    assertThat(meters.wouldGiveUp).isNull();
    assertThat(registry.get("polite.calls.rejected").tags("key", "k", "client", "c").counter().count()).isZero();
    assertThat(registry.get("polite.calls.gave.up").tags("key", "k", "reason", "wait_too_long").counter().count())
        .isZero();
    assertThat(registry.get("polite.key.pace").tag("key", "k").gauge().value()).isEqualTo(2.5);
    assertThat(registry.get("polite.key.tokens").tag("key", "k").gauge().value()).isEqualTo(3);
    assertThat(registry.get("polite.key.in.flight").tag("key", "k").gauge().value()).isEqualTo(4);
    assertThat(registry.get("polite.key.pause").tag("key", "k").timeGauge().value(TimeUnit.MILLISECONDS))
        .isEqualTo(1500);
  }

  @Test
  void theGaugesReadTheNewestStateAndShowAnUnpacedKeyAsNaN() {
    LiveKey live = new LiveKey(() -> snapshot(2, 1, Duration.ZERO, 0));
    new KeyMeters(registry, "k", Tags.empty(), live, false);

    live.state = () -> snapshot(Double.POSITIVE_INFINITY, 7, Duration.ZERO, 1);

    assertThat(registry.get("polite.key.pace").gauge().value()).isNaN();
    assertThat(registry.get("polite.key.tokens").gauge().value()).as("an unpaced bucket is never drawn from")
        .isNaN();
    assertThat(registry.get("polite.key.in.flight").gauge().value()).isEqualTo(1);
  }

  @Test
  void anObservingKeyAlsoHasTheWouldBeMetersAndOtherHasNoGauges() {
    KeyMeters other = new KeyMeters(registry, PoliteMetrics.OTHER, Tags.empty(), null, true);

    assertThat(other.wouldWait).isNotNull();
    assertThat(other.wouldRetry).isNotNull();
    assertThat(other.wouldGiveUp).hasSize(dev.polite.GiveUpReason.values().length);
    assertThat(registry.find("polite.key.pace").gauges()).isEmpty();
    // the timer, rejected, retries, gave-up by reason; the would-be timer, retries, gave-up by reason
    assertThat(meters(PoliteMetrics.OTHER)).isEqualTo(3 + 2 + 2 * dev.polite.GiveUpReason.values().length);
  }

  @Test
  void removingTakesTheKeysMetersButNotOnesAFilterStrippedOfTheKeyTag() {
    LiveKey live = new LiveKey(() -> snapshot(1, 1, Duration.ZERO, 0));
    KeyMeters meters = new KeyMeters(registry, "k", Tags.empty(), live, false);
    meters.remove();
    assertThat(meters("k")).isZero();

    SimpleMeterRegistry filtered = new SimpleMeterRegistry();
    filtered.config().meterFilter(MeterFilter.ignoreTags("key"));
    KeyMeters untagged = new KeyMeters(filtered, "k", Tags.empty(), live, false);
    int before = filtered.getMeters().size();
    untagged.remove();
    assertThat(filtered.getMeters()).as("every key's meters, not this one's").hasSize(before);
    assertThat(filtered.getMeters()).extracting(Meter::getId).allMatch(id -> id.getTag("key") == null);
  }
}
