package dev.polite.internal.call;

import static org.assertj.core.api.Assertions.assertThat;

import dev.polite.CallContext;
import dev.polite.HeaderLines;
import dev.polite.Polite;
import dev.polite.RateLimitPolicy;
import dev.polite.RateLimitSignals;
import dev.polite.RequestView;
import dev.polite.Sleeper;
import dev.polite.Ticker;
import dev.polite.internal.model.Permit;
import java.net.URI;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** How a key reconciles the server's remaining count with the calls it has in flight. */
class KeyStateTest {
  private static final CallContext CONTEXT = CallContext.of("k", RequestView.of("GET", URI.create("http://localhost/"), HeaderLines.empty()), 1);
  private final AtomicLong now = new AtomicLong(1_000_000_000L);
  private final Ticker ticker = now::get;
  private final Sleeper sleeper = (deadline, stop) -> now.accumulateAndGet(deadline, Math::max);
  private final KeyState state = new KeyState("k",
      Polite.builder().clock(ticker, sleeper).cautiousStart(false)
          .maxWait(Duration.ofHours(1)).build().config(),
      now.get());

  private Permit go() throws Exception {
    return state.acquire(new Acquisition(CONTEXT, 0), new Patience(ticker, sleeper, () -> false, Long.MAX_VALUE, TimeUnit.HOURS.toNanos(1)));
  }

  private static RateLimitSignals tenPerSecond(long remaining) {
    RateLimitPolicy p = RateLimitPolicy.builder("default").quota(10).window(Duration.ofSeconds(1))
        .remaining(remaining).reset(Duration.ofSeconds(1)).build();
    return RateLimitSignals.builder().addPolicy(p).governedBy(p).dialect("test").build();
  }

  private boolean hasTokens(int n) {
    return state.waitEstimate(n, now.get()) == 0;
  }

  @Test
  void aCallNothingHoldsBackIsGrantedAtOnceAndOneThatWouldWaitTakesNothing() throws Exception {
    state.onAnswer(200, tenPerSecond(1), go(), CONTEXT);
    Permit atOnce = state.acquireNow(CONTEXT, now.get());
    assertThat(atOnce).as("its token is there: granted without a reservation").isNotNull();
    assertThat(state.acquireNow(CONTEXT, now.get())).as("none left: it would wait").isNull();
    assertThat(state.snapshot().inFlight()).as("the refused try took no place").isEqualTo(1);

    state.onAnswer(429, RateLimitSignals.builder().rejection(true).retryAfter(Duration.ofSeconds(5))
        .build(), atOnce, CONTEXT);
    now.addAndGet(TimeUnit.SECONDS.toNanos(1));
    assertThat(state.acquireNow(CONTEXT, now.get())).as("paused: it would wait").isNull();
  }

  @Test
  void aKeysFirstCallIsGrantedAtOnceAndTheNextWaitsAtTheGate() {
    KeyState fresh = new KeyState("k", Polite.builder().clock(ticker, sleeper).build().config(),
        now.get());
    assertThat(fresh.acquireNow(CONTEXT, now.get())).isNotNull();
    assertThat(fresh.acquireNow(CONTEXT, now.get())).as("one in flight until the first answer")
        .isNull();
  }

  @Test
  void aCallAloneFromGrantToAnswerReportsTheExactCount() throws Exception {
    state.onAnswer(200, tenPerSecond(9), go(), CONTEXT);
    assertThat(hasTokens(9)).isTrue();
    assertThat(hasTokens(10)).isFalse();

    state.onAnswer(200, tenPerSecond(2), go(), CONTEXT); // the server knows better than our count of 8
    assertThat(hasTokens(2)).isTrue();
    assertThat(hasTokens(3)).isFalse();
  }

  private static RateLimitSignals twentyAnHour(long remaining) {
    RateLimitPolicy p = RateLimitPolicy.builder("hourly").quota(20).window(Duration.ofHours(1))
        .remaining(remaining).reset(Duration.ofMinutes(30)).build();
    return RateLimitSignals.builder().addPolicy(p).governedBy(p).dialect("test").build();
  }

  @Test
  void aCallShortOfItsTokenWaitsForTheAnswersOnTheWireBeforeItGivesUp() throws Exception {
    // Patience of a minute, against a quota of 20 an hour: one token is three minutes away.
    Patience minute = new Patience(ticker, sleeper, () -> false, Long.MAX_VALUE, TimeUnit.MINUTES.toNanos(1));
    state.onAnswer(200, twentyAnHour(3), go(), CONTEXT);
    Permit a = go();
    Permit b = go();
    // The server counts b (2 left), then a (1 left); a's answer comes first, read as if b were
    // unseen: 0 believed.
    state.onAnswer(200, twentyAnHour(1), a, CONTEXT);
    Acquisition third = new Acquisition(CONTEXT, 0);
    Runnable[] woken = {null};
    long step = state.step(third, minute, now.get(), () -> woken[0] = () -> {});
    assertThat(step).as("not refused: b's answer may settle the count").isEqualTo(KeyState.AWAIT_SIGNAL);

    state.onAnswer(200, twentyAnHour(2), b, CONTEXT); // the wire is empty: the lowest report, 1
    assertThat(woken[0]).as("the answer signalled the waiting call").isNotNull();
    assertThat(state.step(third, minute, now.get(), null)).isZero();
    assertThat(third.permit()).isNotNull();
  }

  @Test
  void aCallShortOfAsManyTokensAsCallsOnTheWireWaitsForThemToo() throws Exception {
    Patience minute = new Patience(ticker, sleeper, () -> false, Long.MAX_VALUE, TimeUnit.MINUTES.toNanos(1));
    state.onAnswer(200, twentyAnHour(6), go(), CONTEXT);
    Permit a = go();
    Permit b = go();
    Permit c = go();
    Permit d = go();
    // The server counts d, c, b, a (2 left); a's answer comes first, read as if the three others
    // were unseen: -1 believed, and a fifth call lacks two tokens.
    state.onAnswer(200, twentyAnHour(2), a, CONTEXT);
    Acquisition fifth = new Acquisition(CONTEXT, 0);
    assertThat(state.step(fifth, minute, now.get(), () -> {})).isEqualTo(KeyState.AWAIT_SIGNAL);
    state.onAnswer(200, twentyAnHour(3), b, CONTEXT);
    state.onAnswer(200, twentyAnHour(4), c, CONTEXT);
    state.onAnswer(200, twentyAnHour(5), d, CONTEXT); // the wire is empty: the lowest report, 2
    assertThat(state.step(fifth, minute, now.get(), null)).isZero();
    assertThat(hasTokens(1)).as("and one more after it").isTrue();
    assertThat(hasTokens(2)).isFalse();
  }

  @Test
  void aCallWaitingForTheWireFailsAtOnceWhenTheAnswerSaysTheQuotaIsSpent() throws Exception {
    Patience minute = new Patience(ticker, sleeper, () -> false, Long.MAX_VALUE, TimeUnit.MINUTES.toNanos(1));
    state.onAnswer(200, twentyAnHour(1), go(), CONTEXT);
    Permit last = go(); // the last token, on the wire
    Acquisition next = new Acquisition(CONTEXT, 0);
    assertThat(state.step(next, minute, now.get(), () -> {})).isEqualTo(KeyState.AWAIT_SIGNAL);

    state.onAnswer(200, twentyAnHour(0), last, CONTEXT); // spent for half an hour
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> state.step(next, minute, now.get(), null))
        .isInstanceOf(dev.polite.RateLimitedException.class);
  }

  @Test
  void aCallAsleepOnThePauseOfABudgetItTurnsOutNotToSpendWakesHoldingNothing() throws Exception {
    Sleeper honest = (deadline, stop) -> { // asks whether to stop before it moves the clock
      if (!stop.getAsBoolean()) {
        now.accumulateAndGet(deadline, Math::max);
      }
    };
    Patience minute = new Patience(ticker, honest, () -> false, Long.MAX_VALUE, TimeUnit.MINUTES.toNanos(1));
    state.onAnswer(200, twentyAnHour(3), go(), CONTEXT);
    state.onAnswer(429, RateLimitSignals.builder().rejection(true).retryAfter(Duration.ofSeconds(30))
        .build(), go(), CONTEXT);
    boolean[] moved = {false};
    long before = now.get();
    // Not moved when it begins to wait; moved by the time the sleeper asks.
    Acquisition waiting = new Acquisition(CONTEXT, 0).movedWhen(() -> {
      boolean was = moved[0];
      moved[0] = true;
      return was;
    });

    assertThat(state.acquire(waiting, minute)).as("no permit: it queues at the other budget").isNull();
    assertThat(now.get()).as("it did not sleep out the pause").isEqualTo(before);
    assertThat(state.snapshot().inFlight()).isZero();
  }

  @Test
  void anOvertakenAnswerNeverRaisesTheCount() throws Exception {
    state.onAnswer(200, tenPerSecond(9), go(), CONTEXT); // learn the policy: 9 left
    Permit a = go();
    Permit b = go();
    // The server counted a, then b; b's answer arrives first. a went before b, so the server
    // most likely counted it: 7 left. Calls reserved after b would still be subtracted.
    state.onAnswer(200, tenPerSecond(7), b, CONTEXT);
    state.onAnswer(200, tenPerSecond(8), a, CONTEXT);
    assertThat(hasTokens(7)).isTrue();
    assertThat(hasTokens(8)).as("a's stale 8 must not raise the count").isFalse();
  }

  @Test
  void callsStillInFlightAreSubtractedFromTheServersCount() throws Exception {
    state.onAnswer(200, tenPerSecond(9), go(), CONTEXT);
    Permit a = go();
    go(); // b, c, d in flight, unseen by the server when it answered a
    go();
    go();
    state.onAnswer(200, tenPerSecond(3), a, CONTEXT);
    assertThat(hasTokens(0)).isTrue();
    assertThat(hasTokens(1)).as("3 left, 3 already on their way").isFalse();
  }

  @Test
  void remainingZeroPausesTheKeyUntilTheReset() throws Exception {
    state.onAnswer(200, tenPerSecond(0), go(), CONTEXT);
    assertThat(state.waitEstimate(1, now.get())).isEqualTo(TimeUnit.SECONDS.toNanos(1));
  }
}
