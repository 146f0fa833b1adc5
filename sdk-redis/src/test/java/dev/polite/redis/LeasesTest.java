package dev.polite.redis;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** When the next batch is asked for ahead, and how the key turns over to it. */
class LeasesTest {
  private static final long MS = 1_000_000L;
  private static final long UNIT = 100 * MS; // 10 a second
  private static final long AHEAD = 250 * MS; // validity

  @Test
  void aBusyKeyAsksAheadOnceHalfOfALeaseLentPastEmptyIsLeft() {
    Leases leases = new Leases();
    leases.add(new Lease(0, -1, 10, 4)); // a shallow schedule: due at 0.2, 0.3, 0.4, 0.5 s
    assertThat(spendOnDue(leases)).as("at 0.2 s: 3 left").isFalse();
    assertThat(spendOnDue(leases)).as("at 0.3 s: 2 left, the last 200 ms away").isTrue();
    assertThat(leases.add(new Lease(350 * MS, -3, 10, 4))).isZero(); // due at 0.75 s and on
    assertThat(spendOnDue(leases)).as("a next batch in hand: no more asking").isFalse();
    assertThat(spendOnDue(leases)).isFalse();
    assertThat(leases.left()).isEqualTo(4);

    assertThat(leases.covers(1)).as("this lease spent").isFalse();
    assertThat(leases.turnOver(1)).as("nothing left behind").isZero();
    assertThat(leases.covers(1)).as("the next one spent now").isTrue();
    assertThat(leases.dueOf(1)).isEqualTo(750 * MS);
  }

  @Test
  void noAskingAheadWhereTheScheduleIsDeep() {
    Leases leases = new Leases();
    leases.add(new Lease(0, -10, 10, 4)); // first due a second after the answer: 1.1 to 1.4 s
    for (int i = 0; i < 4; i++) {
      assertThat(spendOnDue(leases)).isFalse();
    }
  }

  @Test
  void noAskingAheadWhereTheBucketHeldTheUnits() {
    Leases leases = new Leases();
    leases.add(new Lease(0, 10, 10, 4)); // all due at once: the fleet is below its pace
    for (int i = 0; i < 4; i++) {
      assertThat(leases.spend(1, 0, UNIT, AHEAD, 0)).isFalse();
    }
  }

  @Test
  void aSlowPacesNextLeaseIsNotHeldAheadForLong() {
    Leases leases = new Leases();
    leases.add(new Lease(0, 0.5, 2, 4)); // 2 a second: due at 0.25, 0.75, 1.25, 1.75 s
    assertThat(spendOnDue(leases, 500 * MS)).as("at 0.25 s: 3 left").isFalse();
    assertThat(spendOnDue(leases, 500 * MS)).as("at 0.75 s: half left, but the last 1 s away").isFalse();
    assertThat(spendOnDue(leases, 500 * MS)).as("at 1.25 s: 500 ms away").isFalse();
    assertThat(spendOnDue(leases, 500 * MS)).as("at 1.75 s: none left, the next now").isTrue();
  }

  @Test
  void noAskingAheadForCallsThatCameAfterTheirUnits() {
    Leases leases = new Leases();
    leases.add(new Lease(0, -10, 10, 4));
    // Each unit spent a second after it fell due: this instance sends slower than its lease.
    assertThat(leases.spend(1, 1_100 * MS, UNIT, AHEAD, 2_100 * MS)).isFalse();
    assertThat(leases.spend(1, 1_200 * MS, UNIT, AHEAD, 2_200 * MS)).isFalse();
  }

  @Test
  void theNextLeasesUnitsExpireOnTheirOwnClockAndAllGoBackTogether() {
    Leases leases = twoSpentThenTheNext(4); // the next due at 2.55, 2.65, 2.75, 2.85 s
    // At 2.7 s with 100 ms validity: this lease's two (due 1.3, 1.4 s) and the next's first.
    assertThat(leases.expire(2_700 * MS, 100 * MS)).isEqualTo(3);
    assertThat(leases.turnOver(1)).isZero();
    assertThat(leases.dueOf(1)).isEqualTo(2_650 * MS);
    assertThat(leases.surrender()).isEqualTo(3);
    assertThat(leases.left()).isZero();
  }

  @Test
  void aCallTheSpentLeaseCannotCoverLeavesItsRestBehind() {
    Leases leases = twoSpentThenTheNext(3);
    assertThat(leases.turnOver(2)).as("one unit left behind for a call of two").isEqualTo(1);
    assertThat(leases.covers(2)).isTrue();
  }

  /**
   * A lease of {@code granted} units at 10 a second, due from 1.1 s, its first two spent as they
   * fell due; then the next lease of 4, granted at 1.25 s, due from 2.55 s.
   */
  private static Leases twoSpentThenTheNext(int granted) {
    Leases leases = new Leases();
    leases.add(new Lease(0, -10, 10, granted));
    leases.spend(1, 1_100 * MS, UNIT, AHEAD, 1_100 * MS);
    leases.spend(1, 1_200 * MS, UNIT, AHEAD, 1_200 * MS);
    leases.add(new Lease(1_250 * MS, -12, 10, 4));
    return leases;
  }

  /** Spends one unit as it falls due. */
  private static boolean spendOnDue(Leases leases) {
    return spendOnDue(leases, UNIT);
  }

  private static boolean spendOnDue(Leases leases, long unitNanos) {
    long due = leases.dueOf(1);
    return leases.spend(1, due, unitNanos, AHEAD, due);
  }
}
