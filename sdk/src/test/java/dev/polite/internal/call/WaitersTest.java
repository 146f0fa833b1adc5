package dev.polite.internal.call;

import static org.assertj.core.api.Assertions.assertThat;

import dev.polite.CallContext;
import dev.polite.HeaderLines;
import dev.polite.RequestView;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The attempts waiting at a key: who is woken, by what, and how many times. */
class WaitersTest {
  private static final CallContext CONTEXT =
      CallContext.of("k", RequestView.of("GET", URI.create("http://localhost/"), HeaderLines.empty()), 1);

  private final Waiters waiters = new Waiters();
  private final List<String> woken = new ArrayList<>();

  private Acquisition attempt() {
    return new Acquisition(CONTEXT, 0);
  }

  @Test
  void aSignalWakesEveryAttemptAtTheGateInTheOrderTheyCameAndEachOnce() {
    waiters.atGate(attempt(), () -> woken.add("first"));
    waiters.atGate(attempt(), () -> woken.add("second"));
    assertThat(waiters.atGate()).isEqualTo(2);

    waiters.signal();
    waiters.signal();

    assertThat(woken).containsExactly("first", "second");
    assertThat(waiters.none()).isTrue();
  }

  @Test
  void anAttemptThatLeavesIsNotWokenNorKept() {
    Acquisition gone = attempt();
    waiters.atGate(gone, () -> woken.add("gone"));
    waiters.atGate(attempt(), () -> woken.add("stays"));

    waiters.forget(gone); // granted or released: a stalled key keeps no call it turned away
    waiters.signal();

    assertThat(woken).containsExactly("stays");
  }

  @Test
  void aSignalLeavesTheSleepersAlone() {
    waiters.asleep(attempt(), () -> woken.add("asleep"));

    waiters.signal();

    assertThat(woken).isEmpty();
    assertThat(waiters.none()).isFalse();
    assertThat(waiters.atGate()).isZero();
  }

  @Test
  void theSleepersWakeWhenTheEpochMovesAndOnlyThen() {
    waiters.asleep(attempt(), () -> woken.add("asleep"));
    waiters.atGate(attempt(), () -> woken.add("at the gate"));

    waiters.voided(0); // the epoch as it was: nothing was voided
    assertThat(woken).isEmpty();

    waiters.voided(1); // a pause began, or a cut: the reservations held are void
    assertThat(woken).containsExactly("asleep");
    assertThat(waiters.epoch()).isEqualTo(1);
    assertThat(waiters.atGate()).isEqualTo(1);

    waiters.asleep(attempt(), () -> woken.add("asleep again"));
    waiters.voided(1);
    assertThat(woken).containsExactly("asleep");
  }

  @Test
  void aSleeperThatWokeForItsTokensIsNotWokenByTheVoiding() {
    Acquisition due = attempt();
    waiters.asleep(due, () -> woken.add("due"));

    waiters.forgetAsleep(due); // its reservation went stale at its step, or it was granted
    waiters.voided(1);

    assertThat(woken).isEmpty();
    assertThat(waiters.none()).isTrue();
  }

  @Test
  void describesWhereAnAttemptWaits() {
    Acquisition gate = attempt();
    waiters.atGate(gate, () -> {});

    assertThat(waiters.describe(gate)).isEqualTo("atGate=true asleep=false");
  }
}
