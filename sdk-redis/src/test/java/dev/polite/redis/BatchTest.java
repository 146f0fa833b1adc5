package dev.polite.redis;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** A batch is what an instance sends over a lease's time, within its fair share of the pace. */
class BatchTest {
  private static final long LEASE_FOR = 2_000_000_000L;
  private static final long AHEAD = 4 * LEASE_FOR;

  @Test
  void aFewInstancesLeaseTheirShareOfLeaseFor() {
    // 4 instances on 20 a second: 20 × 2 s / 4 = 10 units each, more than the fewest.
    assertThat(Batch.of(1, 50, false, 20, 4, LEASE_FOR, AHEAD)).isEqualTo(10);
    assertThat(Batch.seconds(20, 4, LEASE_FOR, AHEAD)).isEqualTo(2.0);
    // Sending less than its share, an instance asks for what it sends over that time.
    assertThat(Batch.of(1, 2, false, 20, 4, LEASE_FOR, AHEAD)).isEqualTo(4);
  }

  @Test
  void manyInstancesOnASlowPaceStretchTheTimeUntilAShareHoldsTheFewest() {
    // 16 instances on 20 a second: 2.5 units each in 2 s; 5 × 16 / 20 = 4 s holds 5.
    assertThat(Batch.seconds(20, 16, LEASE_FOR, AHEAD)).isEqualTo(4.0);
    assertThat(Batch.of(1, 50, false, 20, 16, LEASE_FOR, AHEAD)).isEqualTo(Batch.FEWEST);
    // 8 instances: 5 × 8 / 20 = 2 s, leaseFor's own.
    assertThat(Batch.of(1, 50, false, 20, 8, LEASE_FOR, AHEAD)).isEqualTo(Batch.FEWEST);
    assertThat(Batch.seconds(20, 8, LEASE_FOR, AHEAD)).isEqualTo(2.0);
  }

  @Test
  void theTimeStopsStretchingAtHalfOfWhatTheBucketLendsAhead() {
    // 100 instances on 20 a second would need 25 s; half of 8 s ahead is 4 s: 20 × 4 / 100 = 0.8,
    // so one unit each, as the script lends then anyway.
    assertThat(Batch.seconds(20, 100, LEASE_FOR, AHEAD)).isEqualTo(4.0);
    assertThat(Batch.of(1, 50, false, 20, 100, LEASE_FOR, AHEAD)).isEqualTo(1);
  }

  @Test
  void aCallCostingMoreThanTheShareIsStillCovered() {
    assertThat(Batch.of(7.5, 50, false, 20, 16, LEASE_FOR, AHEAD)).isEqualTo(8);
  }

  @Test
  void noPaceKnownLeavesLeaseForAlone() {
    assertThat(Batch.seconds(-1, 16, LEASE_FOR, AHEAD)).isEqualTo(2.0);
    assertThat(Batch.of(1, 3, false, -1, 16, LEASE_FOR, AHEAD)).isEqualTo(1);
  }

  @Test
  void aBusyInstanceAsksForItsShareWhateverItsSendRateReads() {
    // 16 instances on 20 a second, the meter reading 0.3 a second between batches: 0.3 × 4 s, 2.
    assertThat(Batch.of(1, 0.3, false, 20, 16, LEASE_FOR, AHEAD)).isEqualTo(2);
    assertThat(Batch.of(1, 0.3, true, 20, 16, LEASE_FOR, AHEAD)).isEqualTo(Batch.FEWEST);
    assertThat(Batch.of(1, 0, true, 20, 4, LEASE_FOR, AHEAD)).isEqualTo(10);
  }
}
