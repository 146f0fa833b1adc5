package dev.polite.examples.zoo;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The verdict: lost calls, the rejection allowance and the time target, each named when missed. */
class VerdictTest {

  @Test
  void everyTargetMetIsOk() {
    Verdict verdict = Verdict.judge(100, 100, 10, 5.2, 4.0, Verdict.SLOW_FACTOR);

    assertThat(verdict.ok()).isTrue();
    assertThat(verdict.text()).isEqualTo("ok");
  }

  @Test
  void theAllowanceIsTenPercentButNeverUnderThree() {
    assertThat(Verdict.rejectionAllowance(100)).isEqualTo(10);
    assertThat(Verdict.rejectionAllowance(60)).isEqualTo(6);
    assertThat(Verdict.rejectionAllowance(20)).isEqualTo(3);
    assertThat(Verdict.rejectionAllowance(1)).isEqualTo(3);
    assertThat(Verdict.judge(20, 20, 3, 1, 1, 1.3).ok()).isTrue();
    assertThat(Verdict.judge(20, 20, 4, 1, 1, 1.3).text()).isEqualTo("rejections");
    assertThat(Verdict.judge(100, 100, 11, 1, 1, 1.3).text()).isEqualTo("rejections");
  }

  @Test
  void slowIsOverTheFactorTimesTheFloor() {
    assertThat(Verdict.judge(100, 100, 0, 5.2, 4.0, Verdict.SLOW_FACTOR).slow()).as("exactly 1.3x").isFalse();
    assertThat(Verdict.judge(100, 100, 0, 5.21, 4.0, Verdict.SLOW_FACTOR).text()).isEqualTo("slow");
    assertThat(Verdict.judge(100, 100, 0, 7.9, 4.0, Verdict.GATE_SLOW_FACTOR).ok()).as("the gate's slack").isTrue();
    assertThat(Verdict.judge(100, 100, 0, 8.1, 4.0, Verdict.GATE_SLOW_FACTOR).text()).isEqualTo("slow");
  }

  @Test
  void missesAreNamedInOrder() {
    Verdict verdict = Verdict.judge(100, 86, 18, 24.8, 4.95, Verdict.SLOW_FACTOR);

    assertThat(verdict.lost()).isEqualTo(14);
    assertThat(verdict.text()).isEqualTo("lost 14, rejections, slow");
    assertThat(Verdict.judge(100, 97, 0, 1, 4, 1.3).text()).isEqualTo("lost 3");
    assertThat(Verdict.judge(100, 100, 50, 9, 4, 1.3).text()).isEqualTo("rejections, slow");
  }

  @Test
  void aSpentQuotaIsOkWhenExactlyItsCallsSucceededFewRefusedAndFast() {
    Verdict verdict = Verdict.spentQuota(100, 20, 2, 3.0, 20);

    assertThat(verdict.ok()).as("20 of 100, 2 refused, 3.0 s").isTrue();
    assertThat(verdict.text()).isEqualTo("ok");
    assertThat(Verdict.spentQuota(16, 16, 0, 0.1, 20).ok()).as("fewer calls than the quota: all of them")
        .isTrue();
    assertThat(Verdict.spentQuota(16, 15, 0, 0.1, 20).text()).isEqualTo("lost 1");
  }

  @Test
  void aSpentQuotaNamesWhatItMissed() {
    assertThat(Verdict.spentQuota(100, 20, 0, 3.01, 20).text()).as("over 3 s").isEqualTo("slow");
    assertThat(Verdict.spentQuota(100, 20, 3, 0.2, 20).text()).as("a third refusal").isEqualTo("rejections");
    assertThat(Verdict.spentQuota(100, 14, 0, 0.2, 20).text()).as("fewer than the quota allows")
        .isEqualTo("lost 6");
    assertThat(Verdict.spentQuota(100, 14, 0, 0.2, 20).lost()).isEqualTo(6);
    assertThat(Verdict.spentQuota(100, 0, 480, 20.0, 20).text()).isEqualTo("lost 20, rejections, slow");
    assertThat(Verdict.spentQuota(100, 25, 0, 0.2, 20).text()).as("a window that turned mid-cell")
        .isEqualTo("over quota 5");
  }

  @Test
  void aLimiterThatRefusesEverythingIsOkWhenEveryCallFailedFastWithFewRefusals() {
    assertThat(Verdict.refusesEverything(100, 0, 10, 3.0).ok()).as("the allowance, within 3 s").isTrue();
    assertThat(Verdict.refusesEverything(100, 0, 11, 0.5).text()).isEqualTo("rejections");
    assertThat(Verdict.refusesEverything(100, 0, 1, 3.01).text()).as("a call that hung holds the cell").isEqualTo("slow");
    assertThat(Verdict.refusesEverything(100, 2, 1, 0.5).text()).as("admitted all the same")
        .isEqualTo("over quota 2");
    assertThat(Verdict.refusesEverything(20, 0, 3, 0.5).ok()).as("max(3, 10 %)").isTrue();
    assertThat(Verdict.refusesEverything(100, 0, 600, 20.0).text()).isEqualTo("rejections, slow");
    assertThat(Verdict.REFUSES_EVERYTHING_SECONDS).isEqualTo(3.0);
  }

  @Test
  void unusableHintsExcuseTheCallsGivenUpWithTheirRefusals() {
    // 100 calls, one answer in 10 refused: 10 given up, 90 admitted in 4.5 s against a floor of 4.5 s
    assertThat(Verdict.unusableHints(100, 90, 10, 10, 4.5, 4.5, Verdict.SLOW_FACTOR, 10).ok()).isTrue();
    assertThat(Verdict.unusableHints(100, 100, 0, 11, 4.5, 4.5, Verdict.SLOW_FACTOR, 10).ok())
        .as("every refused call tried again, and admitted").isTrue();
    assertThat(Verdict.unusableHints(100, 80, 10, 10, 4.5, 4.5, Verdict.SLOW_FACTOR, 10).text())
        .as("10 more failed with no refusal to excuse them").isEqualTo("lost 10");
    assertThat(Verdict.unusableHints(100, 90, 10, 3, 4.5, 4.5, Verdict.SLOW_FACTOR, 10).text())
        .as("no more excused than were refused").isEqualTo("lost 7");
    assertThat(Verdict.unusableHintsRejections(100, 10)).as("the 10 bogus ones and the allowance").isEqualTo(20);
    assertThat(Verdict.unusableHints(100, 100, 0, 21, 4.5, 4.5, Verdict.SLOW_FACTOR, 10).text()).isEqualTo("rejections");
    assertThat(Verdict.unusableHints(100, 90, 10, 10, 5.9, 4.5, Verdict.SLOW_FACTOR, 10).text()).isEqualTo("slow");
    assertThat(Verdict.unusableHints(100, 90, 10, 10, 5.9, 4.5, Verdict.GATE_SLOW_FACTOR, 10).ok()).isTrue();
  }

  @Test
  void aSpentQuotaIsNotJudgedByTheUsualTargets() {
    // 80 calls failed is the point, not a loss; 2 s is within the bound, though a "floor" of 0.
    assertThat(Verdict.spentQuota(100, 20, 1, 2.0, 20).ok()).isTrue();
    assertThat(Verdict.judge(100, 20, 1, 2.0, 3.0, Verdict.SLOW_FACTOR).text()).isEqualTo("lost 80");
    assertThat(Verdict.spentQuota(100, 20, 3, 0.1, 20).tooManyRejections())
        .as("2 refusals, not the usual 10").isTrue();
  }
}
