package dev.polite.internal.model;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The window a reset bounds: believed when two answers agree, dropped when one contradicts it. */
class InferredWindowTest {
  private static final long SECOND = 1_000_000_000L;
  private static final long HOUR = 3_600 * SECOND;

  private final InferredWindow window = new InferredWindow();
  private long now = 1_000 * SECOND;

  @Test
  void untilTwoAnswersAgreeTheWindowReadsAsOneSecond() {
    assertThat(window.window()).isEqualTo(SECOND);
    window.observe(HOUR, now, now);
    assertThat(window.window()).as("one answer alone").isEqualTo(SECOND);

    now += 10 * SECOND;
    assertThat(window.observe(HOUR - 10 * SECOND, now, now)).isTrue(); // a fixed window: the same instant
    assertThat(window.window()).isEqualTo(HOUR - SECOND);
    assertThat(window.confirmed()).isTrue();
  }

  @Test
  void aSlidingWindowsLaterInstantsAgreeToo() {
    window.observe(30 * SECOND, now, now);
    now += SECOND;
    window.observe(30 * SECOND, now, now);
    assertThat(window.window()).isEqualTo(29 * SECOND);
  }

  @Test
  void wrongAnswersOfOneWindowAreOneWitnessAgainstABeliefHeld() {
    window.observe(SECOND / 2, now, now);
    window.observe(SECOND / 2, now, now);
    long burst = now; // the 10th and 20th calls of a window went together
    long wrong = 200L * 86_400 * SECOND;
    window.observe(wrong, burst, now += 1_000_000);
    long candidateBack = now;
    window.observe(wrong, burst, now += 1_000_000);
    assertThat(window.window()).as("the second went before the first came back").isEqualTo(SECOND);
    window.observe(wrong, now, now += 1_000_000);
    assertThat(window.window()).as("sent after it came back, but within the window").isEqualTo(SECOND);
    now = candidateBack + SECOND;
    window.observe(wrong, now, now += 1_000_000);
    assertThat(window.window()).as("a call a window later says so too: believed")
        .isGreaterThan(199L * 86_400 * SECOND);
  }

  @Test
  void aCandidateThatTheNextAnswerContradictsIsDropped() {
    window.observe(SECOND / 2, now, now);
    window.observe(SECOND / 2, now, now);
    window.observe(200L * 86_400 * SECOND, now + 1_000_000, now += 1_000_000);
    window.observe(SECOND / 2, now + 1_000_000, now += 1_000_000);
    window.observe(SECOND / 2, now + 1_000_000, now += 1_000_000);
    assertThat(window.window()).isEqualTo(SECOND);
  }

  @Test
  void aBeliefContradictedWhileItsInstantIsAheadGivesWayAtOnce() {
    window.observe(HOUR, now, now);
    window.observe(HOUR, now, now);
    assertThat(window.window()).isEqualTo(HOUR - SECOND);
    // The server's window changed to a minute: its resets now name instants an hour too soon.
    now += SECOND;
    assertThat(window.observe(60 * SECOND, now, now)).isTrue();
    assertThat(window.window()).isEqualTo(59 * SECOND);
  }

  @Test
  void withinTheToleranceEpochSecondsStillAgree() {
    window.observe(10 * SECOND, now, now);
    window.observe(8 * SECOND, now, now); // two seconds early: the rounding of two epoch readings
    assertThat(window.window()).isEqualTo(9 * SECOND);
  }

  @Test
  void aBeliefNoAnswerRefreshesForTwoWindowsExpiresToTheLongestReadingSince() {
    window.observe(10 * SECOND, now, now);
    window.observe(10 * SECOND, now, now);
    assertThat(window.window()).isEqualTo(9 * SECOND);
    // Past its instant, only short resets come back, for more than two of its windows.
    now += 10 * SECOND;
    for (int i = 0; i < 40; i++) {
      now += SECOND;
      window.observe(SECOND / 2 + (i == 3 ? 2 * SECOND : 0), now, now);
    }
    assertThat(window.window()).isEqualTo(2 * SECOND);
  }

  @Test
  void theAnswerThatMadeTheBeliefGrowIsJudgedByTheBeliefBeforeIt() {
    window.observe(SECOND / 2, now, now);
    window.observe(SECOND / 2, now, now);
    long wrong = 200L * 86_400 * SECOND;
    window.observe(wrong, now, now += 1_000_000);
    now += SECOND; // nothing between: the key paused for its spent quota
    window.observe(wrong, now, now += 1_000_000);
    assertThat(window.window()).as("two a window apart agree").isGreaterThan(199L * 86_400 * SECOND);
    assertThat(window.believedReset(wrong, now))
        .as("the witness spent the quota: judged by the one-second belief before it")
        .isEqualTo(SECOND);
    assertThat(window.believedReset(wrong, now + 1)).as("a later answer: by the belief")
        .isEqualTo(wrong);
  }

  @Test
  void aSpentQuotasResetPastTheBeliefIsBelievedOnlyAsFarAsTheAgreeingAnswersSaid() {
    window.observe(SECOND / 2, now, now);
    window.observe(SECOND / 2, now, now);
    long day = 86_400 * SECOND;
    assertThat(window.believedReset(3 * SECOND, now)).as("in line: as it is").isEqualTo(3 * SECOND);
    assertThat(window.believedReset(day, now)).as("the instant the others named").isEqualTo(SECOND / 2);
    assertThat(window.believedReset(day, now + SECOND)).as("past it: a window").isEqualTo(SECOND);
    assertThat(new InferredWindow().believedReset(day, now)).as("no belief: as it is").isEqualTo(day);
  }
}
