package dev.polite.examples.zoo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A host's budgets and a cell's fixed mix of calls over them; the shapes a row may add. */
class SplitTest {
  private static final Duration SECOND = Duration.ofSeconds(1);

  @Test
  void oneCycleSendsTheMainCallsFirstThenEachRoutesAndTheSharesFollowTheCycle() {
    Split github = new Split(3, List.of(new Route("/api/search", "search", 5, SECOND, 1)));

    assertThat(github.cycle()).isEqualTo(4);
    assertThat(github.paths()).containsExactly(Split.PATH, Split.PATH, Split.PATH, "/api/search");
    assertThat(github.mainShare(10)).as("slots 0-2 of 4, over 10 calls").isEqualTo(8);
    assertThat(github.routeShare(10, 0)).isEqualTo(2);
    assertThat(github.named()).isTrue();
    assertThat(github.unnamed().named()).isFalse();
    assertThat(github.none()).isFalse();
    assertThat(Split.NONE.none()).isTrue();
    assertThat(Split.NONE.paths()).containsExactly(Split.PATH);
  }

  @Test
  void aMixWithoutMainCallsOrARouteWithoutCallsIsRefused() {
    assertThatThrownBy(() -> new Split(0, List.of())).hasMessageStartingWith("mainCalls:");
    assertThatThrownBy(() -> new Route("/api/x", "x", 1, SECOND, 0)).hasMessageStartingWith("calls:");
    assertThat(new Route("/api/x", "x", 30, Duration.ofMinutes(1), 1).rate()).isEqualTo(0.5);
  }

  @Test
  void eachShapeIsPlainButForWhatItsFactorySetsAndIsJudgedByItsTargets() {
    assertThat(Shape.PLAIN.plain()).isTrue();
    assertThat(Shape.PLAIN.targets(10)).isEqualTo(Targets.USUAL);

    Shape cap = Shape.cap(2, Duration.ofMillis(50), 403);
    assertThat(cap.plain()).isFalse();
    assertThat(cap.concurrency()).isEqualTo(2);
    assertThat(cap.rejectStatus()).isEqualTo(403);
    assertThat(cap.split()).isEqualTo(Split.NONE);

    assertThat(Shape.spent(429).targets(10)).isEqualTo(new Targets.SpentQuota(10));
    assertThat(Shape.refusesEverything().targets(10)).isEqualTo(new Targets.RefusesEverything());
    assertThat(Shape.unusableHints(5, Duration.ZERO).targets(10)).isEqualTo(new Targets.UnusableHints(5));
    assertThat(Shape.wrongReset(7).targets(10)).isEqualTo(Targets.USUAL);
  }
}
