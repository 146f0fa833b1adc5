package dev.polite.redis;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class LeaseTest {
  private static final long MS = 1_000_000L;

  @Test
  void unitsTheBucketHeldAreDueAtOnce() {
    Lease lease = new Lease(1_000 * MS, 10, 5, 4); // 4 of 10 units, 5 a second
    assertThat(lease.covers(4)).isTrue();
    assertThat(lease.dueOf(4)).isEqualTo(1_000 * MS);
    lease.spend(4, 1_000 * MS);
    assertThat(lease.covers(1)).isFalse();
    assertThat(lease.left()).isZero();
  }

  @Test
  void unitsLentPastEmptyFallDueOneRateApart() {
    // The bucket held 0.5: unit 1 is covered after 0.1 s at 5/s, unit 2 after 0.3 s, unit 3 after 0.5 s.
    Lease lease = new Lease(0, 0.5, 5, 3);
    assertThat(lease.dueOf(1)).isEqualTo(100 * MS);
    lease.spend(1, 100 * MS);
    assertThat(lease.dueOf(1)).isEqualTo(300 * MS);
    assertThat(lease.dueOf(2)).isEqualTo(500 * MS); // a call of two units waits for both
  }

  @Test
  void unitsInDebtWaitForTheWholeFleetBefore() {
    Lease lease = new Lease(0, -8, 4, 2); // eight units lent to others first: 2.25 s, 2.5 s
    assertThat(lease.dueOf(1)).isEqualTo(2_250 * MS);
    assertThat(lease.dueOf(2)).isEqualTo(2_500 * MS);
  }

  @Test
  void unitsNotSpentWithinTheirValidityGoBack() {
    Lease lease = new Lease(0, 0, 10, 5); // due at 0.1, 0.2, ..., 0.5 s
    assertThat(lease.expire(250 * MS, 100 * MS)).isEqualTo(1); // unit 1 was due at 0.1 s
    assertThat(lease.left()).isEqualTo(4);
    assertThat(lease.dueOf(1)).isEqualTo(200 * MS); // the next unit keeps its own place
    lease.spend(1, 200 * MS);
    assertThat(lease.expire(250 * MS, 100 * MS)).isZero();
    assertThat(lease.expire(10_000 * MS, 100 * MS)).isEqualTo(3);
    assertThat(lease.covers(1)).isFalse();
  }

  @Test
  void anUnpacedLeaseIsDueAtOnceAndExpiresWhole() {
    Lease lease = new Lease(0, 0, 0, 3);
    assertThat(lease.dueOf(3)).isZero();
    assertThat(lease.expire(50 * MS, 100 * MS)).isZero();
    assertThat(lease.expire(150 * MS, 100 * MS)).isEqualTo(3);
  }

  @Test
  void surrenderGivesBackWhatIsLeft() {
    Lease lease = new Lease(0, 5, 1, 5);
    lease.spend(2, 0);
    assertThat(lease.surrender()).isEqualTo(3);
    assertThat(lease.spentWholeWithin(250 * MS, 0)).as("given back, not spent").isFalse();
    assertThat(lease.surrender()).isZero();
    assertThat(Lease.NONE.covers(1)).isFalse();
  }

  @Test
  void aLeaseSpentWholeJustNowSaysTheInstanceIsBusy() {
    Lease lease = new Lease(0, 0, 10, 2);
    lease.spend(1, 100 * MS);
    assertThat(lease.spentWholeWithin(250 * MS, 150 * MS)).as("a unit left").isFalse();
    lease.spend(1, 200 * MS);
    assertThat(lease.spentWholeWithin(250 * MS, 300 * MS)).isTrue();
    assertThat(lease.spentWholeWithin(250 * MS, 450 * MS)).as("spent, but long ago").isFalse();

    Lease expired = new Lease(0, 0, 10, 2);
    expired.spend(1, 100 * MS);
    expired.expire(1_000 * MS, 250 * MS);
    assertThat(expired.spentWholeWithin(250 * MS, 1_000 * MS)).as("one unit went unspent").isFalse();
    assertThat(Lease.NONE.spentWholeWithin(250 * MS, 0)).isFalse();
  }
}
