package dev.polite.examples.overload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The scenario table: the book's form behaves as its analysis predicts (half of what reaches the
 * server refused at K = 2, slow recovery), polite's defaults meet the targets set before they were
 * chosen, and the JSON is well formed.
 */
class OverloadScenariosTest {
  private static List<ScenarioRow> rows;

  @BeforeAll
  static void runOnce() {
    rows = OverloadScenarios.run();
  }

  private static ScenarioRow row(String scenario, String config) {
    return rows.stream().filter(r -> r.scenario().equals(scenario) && r.config().equals(config))
        .findFirst().orElseThrow();
  }

  @Test
  void theBookFormRefusesHalfAndRecoversSlowly() {
    assertThat(row("B1.1", "book").serverRejected()).isCloseTo(0.50, within(0.02));
    assertThat(row("B1.1", "book").goodputRps()).isGreaterThan(99);
    assertThat(row("B1.2", "book").recoverySeconds()).isBetween(30.0, 50.0);
    assertThat(row("B1.3", "book").recoverySeconds()).isBetween(500.0, 900.0);
  }

  @Test
  void politeMeetsItsTargets() {
    assertThat(row("B1.1", "polite").serverRejected()).isLessThanOrEqualTo(0.20);
    assertThat(row("B1.1", "polite").goodputRps()).isGreaterThanOrEqualTo(97);
    assertThat(row("B1.2", "polite").recoverySeconds()).isLessThanOrEqualTo(10);
    assertThat(row("B1.3", "polite").localDrop()).as("at most 25 % reach the dead server")
        .isGreaterThanOrEqualTo(0.75);
    assertThat(row("B1.3", "polite").recoverySeconds()).isLessThanOrEqualTo(30);
    assertThat(row("B1.3-0.5rps", "polite").recoverySeconds()).isLessThanOrEqualTo(10);
  }

  @Test
  void discoverySettlesNearTheLimitWithFewRejections() {
    ScenarioRow cubic = row("discovery", "cubic");
    assertThat(cubic.sentRps()).isCloseTo(20, within(2.0));
    assertThat(cubic.serverRejected()).isLessThanOrEqualTo(0.10);
    assertThat(row("discovery", "none").serverRejected()).isCloseTo(2 / 3.0, within(0.01));
  }

  @Test
  void everyRowIsOneFlatJsonObject() {
    assertThat(rows).hasSize(15);
    for (ScenarioRow r : rows) {
      assertThat(r.toJson()).startsWith("{\"scenario\":\"").endsWith("}")
          .contains("\"sent_rps\":", "\"server_rejected\":", "\"goodput_rps\":", "\"local_drop\":",
              "\"recovery_s\":")
          .doesNotContain("NaN");
    }
    assertThat(row("B1.1", "none").toJson()).contains("\"recovery_s\":null");
  }

  @Test
  void runsAreDeterministic() {
    assertThat(OverloadScenarios.run()).isEqualTo(rows);
  }
}
