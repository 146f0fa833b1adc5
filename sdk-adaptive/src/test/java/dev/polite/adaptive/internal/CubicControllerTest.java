package dev.polite.adaptive.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

/** The values the AWS SDK for Java's CUBIC ({@code TransientState}) computes for the same inputs. */
class CubicControllerTest {
  private static final long T0 = 1_000_000_000_000L;

  private static long at(double seconds) {
    return T0 + (long) (seconds * 1e9);
  }

  @Test
  void noPaceUntilTheFirstRejection() {
    CubicController c = new CubicController(0.7, 0.4, 0.5);
    c.onSuccess(at(0), 50);
    assertThat(c.rate()).isInfinite();
  }

  @Test
  void aThrottleAtTenPerSecondCutsToSevenWithKOf1957ms() {
    CubicController c = new CubicController(0.7, 0.4, 0.5);
    c.onRejection(at(0), 10);
    assertThat(c.rate()).isCloseTo(7.0, within(1e-9));
    assertThat(c.k()).isCloseTo(Math.cbrt(7.5), within(1e-9)).isCloseTo(1.957, within(5e-4));
  }

  @Test
  void theCurveClimbsBackThroughTheRefusedRate() {
    CubicController c = new CubicController(0.7, 0.4, 0.5);
    c.onRejection(at(0), 10);
    double k = c.k();
    assertThat(c.calculated(at(0.5))).isCloseTo(8.76, within(0.005));
    assertThat(c.calculated(at(1.0))).isCloseTo(9.65, within(0.005));
    assertThat(c.calculated(at(k))).isCloseTo(10.00, within(0.005));
    assertThat(c.calculated(at(3))).isCloseTo(10.45, within(0.005));
    assertThat(c.calculated(at(5))).isCloseTo(21.27, within(0.005));
  }

  @Test
  void successesSetThePaceOnTheCurveCappedAtTwiceTheMeasuredRate() {
    CubicController c = new CubicController(0.7, 0.4, 0.5);
    c.onRejection(at(0), 10);
    c.onSuccess(at(0.5), 10);
    assertThat(c.rate()).isCloseTo(8.76, within(0.005));
    c.onSuccess(at(3), 10);
    assertThat(c.rate()).isCloseTo(10.45, within(0.005));
    c.onSuccess(at(5), 10);
    assertThat(c.rate()).as("21.27 capped at 2 x 10").isEqualTo(20.0);
  }

  @Test
  void largerRatesFollowTheSecondVector() {
    CubicController c = new CubicController(0.7, 0.4, 0.5);
    c.onRejection(at(0), 100);
    assertThat(c.k()).isCloseTo(4.217, within(5e-4));
    assertThat(c.calculated(at(2))).isCloseTo(95.6, within(0.05));
    assertThat(c.calculated(at(6))).isCloseTo(102.3, within(0.05));
    assertThat(c.calculated(at(8))).isCloseTo(121.7, within(0.05));
    assertThat(c.calculated(at(10))).isCloseTo(177.4, within(0.05));
  }

  @Test
  void aLaterRejectionStartsFromThePaceWhenTheKeySentFasterThanIt() {
    CubicController c = new CubicController(0.7, 0.4, 0.5);
    c.onRejection(at(0), 10);
    c.onRejection(at(1), 30); // measured above the 7.0 pace: the pace is what was refused
    assertThat(c.rate()).isCloseTo(4.9, within(1e-9));
  }

  @Test
  void neverBelowTheMinimumRate() {
    CubicController c = new CubicController(0.7, 0.4, 0.5);
    c.onRejection(at(0), 0.1);
    assertThat(c.rate()).isEqualTo(0.5);
  }
}
