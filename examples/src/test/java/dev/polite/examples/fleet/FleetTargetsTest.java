package dev.polite.examples.fleet;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The shared rows' targets, each met and missed by one measure, the others held at their best. */
class FleetTargetsTest {
  private static FleetRow row(FleetMode mode, String headers, long admitted, long rejected, double share,
      double roundTripsPerCall, double redisWaitP99Millis) {
    return new FleetRow(headers, mode, 8, 4, 7, admitted, 0, 0, 0, admitted, rejected, share, 0,
        roundTripsPerCall, roundTripsPerCall, 5000, redisWaitP99Millis, 0.0, null, List.of());
  }

  private static final FleetRow ALONE = row(FleetMode.ALONE, "ietf", 180, 150, 1.0, 0, 0);

  @Test
  void aRowAtItsBestMeetsThemAll() {
    assertThat(FleetTargets.misses(row(FleetMode.SHARED, "ietf", 180, 0, 1.0, 0.2, 5.0), ALONE)).isEmpty();
    assertThat(FleetTargets.misses(ALONE, null)).as("alone has no targets").isNull();
  }

  @Test
  void eachMeasureMissesOnItsOwn() {
    assertThat(FleetTargets.misses(row(FleetMode.SHARED, "ietf", 180, 1, 1.0, 0.2, 1.0), ALONE))
        .containsExactly("rejected 1 > 0");
    // Without headers: max(3, 5 % of the server's 200 decisions) = 10.
    assertThat(FleetTargets.misses(row(FleetMode.SHARED, "none", 190, 10, 1.0, 0.2, 1.0), ALONE)).isEmpty();
    assertThat(FleetTargets.misses(row(FleetMode.SHARED, "none", 189, 11, 1.0, 0.2, 1.0), ALONE))
        .containsExactly("rejected 11 > 10");
    assertThat(FleetTargets.misses(row(FleetMode.SHARED, "ietf", 180, 0, 0.89, 0.2, 1.0), ALONE))
        .containsExactly("share 89% < 90%");
    assertThat(FleetTargets.misses(row(FleetMode.SHARED, "ietf", 180, 0, 1.0, 0.26, 1.0), ALONE))
        .containsExactly("rt/call 0.260 > 0.25");
    assertThat(FleetTargets.misses(row(FleetMode.SHARED, "ietf", 180, 0, 1.0, 0.2, 5.1), ALONE))
        .containsExactly("redis p99 5.1 ms > 5");
  }
}
