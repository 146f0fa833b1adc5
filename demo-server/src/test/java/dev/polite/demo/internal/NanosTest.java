package dev.polite.demo.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** Arithmetic on nanoseconds saturates at the ends of a long instead of wrapping. */
class NanosTest {

  @Test
  void addAndMultiplySaturate() {
    assertThat(Nanos.saturatedAdd(Long.MAX_VALUE - 1, 5)).isEqualTo(Long.MAX_VALUE);
    assertThat(Nanos.saturatedAdd(Long.MIN_VALUE + 1, -5)).isEqualTo(Long.MIN_VALUE);
    assertThat(Nanos.saturatedAdd(40, 2)).isEqualTo(42);
    assertThat(Nanos.saturatedMultiply(Long.MAX_VALUE / 2, 3)).isEqualTo(Long.MAX_VALUE);
    assertThat(Nanos.saturatedMultiply(Long.MAX_VALUE / 2, -3)).isEqualTo(Long.MIN_VALUE);
    assertThat(Nanos.saturatedMultiply(-6, 7)).isEqualTo(-42);
  }

  @Test
  void ceilRoundsUpAndSaturates() {
    assertThat(Nanos.ceil(0.2)).isEqualTo(1);
    assertThat(Nanos.ceil(-3)).isZero();
    assertThat(Nanos.ceil(Double.NaN)).isZero();
    assertThat(Nanos.ceil(1e30)).isEqualTo(Long.MAX_VALUE);
  }

  @Test
  void ceilDivRoundsUpWithoutOverflowing() {
    assertThat(Nanos.ceilDiv(0, 1_000)).isZero();
    assertThat(Nanos.ceilDiv(1, 1_000)).isEqualTo(1);
    assertThat(Nanos.ceilDiv(1_000, 1_000)).isEqualTo(1);
    assertThat(Nanos.ceilDiv(1_001, 1_000)).isEqualTo(2);
    assertThat(Nanos.ceilDiv(Long.MAX_VALUE, 1_000_000)).isEqualTo(Long.MAX_VALUE / 1_000_000 + 1);
  }

  @Test
  void durationsAndInstantsBeyondALongSaturate() {
    assertThat(Nanos.of(Duration.ofMillis(3))).isEqualTo(3_000_000);
    assertThat(Nanos.of(Duration.ofDays(365L * 1000))).isEqualTo(Long.MAX_VALUE);
    assertThat(Nanos.of(Duration.ofDays(-365L * 1000))).isEqualTo(Long.MIN_VALUE);
    assertThat(Nanos.sinceEpoch(Instant.ofEpochSecond(2, 5))).isEqualTo(2_000_000_005L);
    assertThat(Nanos.sinceEpoch(Instant.MAX)).isEqualTo(Long.MAX_VALUE);
  }
}
