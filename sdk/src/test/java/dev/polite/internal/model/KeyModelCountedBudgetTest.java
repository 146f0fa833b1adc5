package dev.polite.internal.model;

import static org.assertj.core.api.Assertions.assertThat;

import dev.polite.Aimd;
import dev.polite.HeaderLines;
import dev.polite.Polite;
import dev.polite.RateLimitSignals;
import dev.polite.Sleeper;
import dev.polite.internal.headers.SignalsReader;
import dev.polite.testing.FixedWindowCount;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * A count with no reset through the key model ({@link CountedBudget}): a fixed window of 20 a
 * second that says only Shopify's {@code used/limit} (or Azure's remaining count), and
 * {@code Retry-After} in whole seconds on a refusal, as the demo server's do. The key spends the
 * count at once, learns the refill from its one refusal, and from then pauses when the count is
 * spent instead of being refused; the neighbours: calls on the wire hold the next while the count
 * has no room, a bare refusal's reopening teaches the refill, a count that keeps room while the
 * server refuses is dropped, and a weighted key keeps no count.
 */
class KeyModelCountedBudgetTest {
  private static final long MS = 1_000_000L;
  private static final long SECOND = 1_000 * MS;

  private long now = 1_000 * SECOND;

  private KeyModel key() {
    return new KeyModel("k", Polite.builder().clock(() -> 0L, Sleeper.system())
        .rateController(Aimd.defaults()).maxWait(Duration.ofSeconds(60)).build().config(), now);
  }

  private static RateLimitSignals read(int status, String... headers) {
    return SignalsReader.standard().parse(status, HeaderLines.of(headers), 1_735_689_600_000L);
  }

  /** Shopify's call limit, admitted: {@code used} of 20 taken, the call included. */
  private static RateLimitSignals used(long used) {
    return read(200, "X-Shopify-Shop-Api-Call-Limit", used + "/20");
  }

  /**
   * A fixed window of 20 a second on the key's clock, which answers as Shopify does (Azure's
   * remaining count with {@code azure}); a refusal names the rest of the window rounded up to
   * whole seconds, or nothing when {@code bare}.
   */
  private static final class FixedWindow {
    final boolean azure;
    final boolean bare;
    final FixedWindowCount count = new FixedWindowCount(20, SECOND);
    int refused;
    int status;

    FixedWindow(boolean azure, boolean bare) {
      this.azure = azure;
      this.bare = bare;
    }

    RateLimitSignals answer(long at) {
      boolean admitted = count.admit(at);
      status = admitted ? 200 : 429;
      refused += admitted ? 0 : 1;
      String[] counted = azure
          ? new String[] {"x-ms-ratelimit-remaining-subscription-reads", Long.toString(count.remaining())}
          : new String[] {"X-Shopify-Shop-Api-Call-Limit", count.used() + "/20"};
      if (admitted || bare) {
        return read(status, counted);
      }
      return read(status, counted[0], counted[1], "Retry-After", "1");
    }
  }

  /**
   * Sends {@code calls} calls one at a time, each as soon as the key lets it, answered a
   * millisecond after it went.
   */
  private void run(KeyModel key, FixedWindow server, int calls) {
    for (int i = 0; i < calls; i++) {
      now += key.pauseLeft(now);
      assertThat(key.gateClosed()).as("one caller, nothing on the wire").isFalse();
      KeyModel.Reservation r = key.reserve(1, now);
      now += r.waitNanos();
      Permit permit = key.grant(now, r);
      now += MS;
      RateLimitSignals signals = server.answer(permit.sentAt());
      key.onAnswer(server.status, signals, permit, now);
    }
  }

  @Test
  void theCountIsSpentAtOnceAndOnlyTheFirstEmptyCountIsRefused() {
    for (boolean azure : new boolean[] {false, true}) {
      now = 1_000 * SECOND; // a window's start
      KeyModel key = key();
      FixedWindow server = new FixedWindow(azure, false);
      long began = now;
      run(key, server, 100);
      assertThat(server.refused).as("azure %s: the first empty count only", azure).isEqualTo(1);
      // 20 a window; each window's 20 go at once, the last at 4 s and the pauses' overshoot.
      assertThat(now - began).as("azure %s", azure).isLessThan(4_200 * MS);
    }
  }

  @Test
  void anAnswerThatSaysTheCountIsSpentPausesTheKeyForTheRefillItsRefusalNamed() {
    KeyModel key = key();
    FixedWindow server = new FixedWindow(false, false);
    run(key, server, 21); // 20 admitted, the 21st refused: "Retry-After: 1"
    now += key.pauseLeft(now);
    run(key, server, 20);
    assertThat(key.pauseLeft(now)).as("the count spent: paused for the refill, not refused")
        .isEqualTo(SECOND);
    assertThat(server.refused).isEqualTo(1);
  }

  @Test
  void afterAPauseOneCallAsksWhatTheRefillLeftThenTheRestGoAtOnce() {
    KeyModel key = key();
    FixedWindow server = new FixedWindow(false, false);
    run(key, server, 21);
    now += key.pauseLeft(now);
    Permit asking = key.grant(now, key.reserve(1, now));
    assertThat(key.gateClosed()).as("the count unknown: one call asks").isTrue();
    key.onAnswer(200, server.answer(asking.sentAt()), asking, now += MS);
    for (int i = 0; i < 19; i++) { // paced evenly after the refusal, these would wait 50 ms each
      assertThat(key.gateClosed()).as("call %s", i + 2).isFalse();
      KeyModel.Reservation r = key.reserve(1, now);
      assertThat(r.waitNanos()).as("call %s: the count has room", i + 2).isZero();
      key.grant(now, r);
    }
    assertThat(key.gateClosed()).as("the count taken: the 21st waits for an answer").isTrue();
  }

  @Test
  void withCallsOnTheWireACallWaitsUntilAnAnswerGivesTheCountRoom() {
    KeyModel key = key();
    key.onAnswer(200, used(17), key.grant(now, key.reserve(1, now)), now += MS); // 3 left
    Permit first = key.grant(now, key.reserve(1, now));
    key.grant(now, key.reserve(1, now));
    key.grant(now, key.reserve(1, now));
    assertThat(key.gateClosed()).as("3 left, 3 on the wire").isTrue();
    key.onAnswer(200, used(18), first, now += MS);
    assertThat(key.gateClosed()).as("its count is old news: the two after it are not in it").isTrue();
  }

  @Test
  void aBareRefusalTeachesTheRefillByTheReopeningAfterIt() {
    KeyModel key = key();
    FixedWindow server = new FixedWindow(true, true);
    run(key, server, 21); // the 21st refused, naming nothing: the key backs off and probes
    long emptiedAt = now - MS; // the 20th's answer, which said 0 left (the 21st went at once)
    while (server.status != 200) {
      run(key, server, 1);
    }
    long reopenedAt = now - MS; // sent then
    run(key, server, 19);
    assertThat(key.pauseLeft(now)).as("the refill measured, from empty to the reopening's call")
        .isEqualTo(reopenedAt - emptiedAt);
  }

  @Test
  void aCountThatKeepsRoomWhileTheServerRefusesIsDroppedAfterTwoRounds() {
    KeyModel key = key();
    RateLimitSignals refusedWithRoom = read(429, "X-Shopify-Shop-Api-Call-Limit", "10/20",
        "Retry-After", "1");
    for (int round = 0; round < 2; round++) {
      key.onAnswer(200, used(10), key.grant(now, key.reserve(1, now)), now += MS);
      key.onAnswer(429, refusedWithRoom, key.grant(now, key.reserve(1, now)), now += MS);
      now += key.pauseLeft(now);
    }
    key.onAnswer(200, used(10), key.grant(now, key.reserve(1, now)), now += MS);
    assertThat(key.reserve(1, now).waitNanos()).as("dropped: the key paces as it found").isPositive();
  }

  @Test
  void aRefillNoCallMayWaitPausesNothingAheadOfTheServer() {
    KeyModel key = key();
    key.onAnswer(200, used(20), key.grant(now, key.reserve(1, now)), now += MS); // 0 left
    key.onAnswer(429, read(429, "X-Shopify-Shop-Api-Call-Limit", "20/20", "Retry-After", "86400"),
        key.grant(now, key.reserve(1, now)), now += MS); // a stray day
    now += key.pauseLeft(now); // the max wait: one call re-verifies the day
    assertThat(key.pauseLeft(now)).as("the probe's turn").isZero();
    key.onAnswer(200, used(1), key.grant(now, key.reserve(1, now)), now += MS); // it was not
    assertThat(key.pauseLeft(now)).isZero();
    key.onAnswer(200, used(20), key.grant(now, key.reserve(1, now)), now += MS);
    assertThat(key.pauseLeft(now)).as("0 left: the next call asks, not a day's pause").isZero();
  }

  @Test
  void anEmptyCountThatNamesItsOwnDelayPausesForThatOne() {
    KeyModel key = key();
    key.onAnswer(200, used(20), key.grant(now, key.reserve(1, now)), now += MS);
    key.onAnswer(429, read(429, "X-Shopify-Shop-Api-Call-Limit", "20/20", "Retry-After", "3"),
        key.grant(now, key.reserve(1, now)), now += MS); // a refill of 3 s learnt
    now += key.pauseLeft(now);
    key.onAnswer(200, used(20), key.grant(now, key.reserve(1, now)), now += MS); // asked: 0 left
    now += key.pauseLeft(now);
    key.onAnswer(200, read(200, "X-Shopify-Shop-Api-Call-Limit", "20/20", "Retry-After", "1"),
        key.grant(now, key.reserve(1, now)), now += MS);
    assertThat(key.pauseLeft(now)).as("the answer's own second, not the 3 s learnt").isEqualTo(SECOND);
  }

  @Test
  void aCountStopsGoverningOnceTheKeysCallsAreWeighed() {
    KeyModel key = key();
    key.onAnswer(200, used(17), key.grant(now, key.reserve(1, now)), now += MS); // 3 left
    key.onAnswer(200, used(19), key.grant(now, key.reserve(2, now)), now += MS); // weighs 2
    key.grant(now, key.reserve(1, now));
    key.grant(now, key.reserve(1, now));
    // The count would have 1 left for these two; the key's slow start, 3 after two answers, lets them.
    assertThat(key.gateClosed()).isFalse();
  }

  @Test
  void aWeightedKeyKeepsNoCount() {
    KeyModel key = key();
    FixedWindow server = new FixedWindow(false, false);
    KeyModel.Reservation heavy = key.reserve(2, now);
    key.onAnswer(200, server.answer(now), key.grant(now, heavy), now += MS);
    run(key, server, 20); // the 20th refused, naming a second
    now += key.pauseLeft(now);
    run(key, server, 20); // the window's 20 taken, the last answer said 0 left

    assertThat(key.pauseLeft(now)).isZero();
  }
}
