package dev.polite.examples.lessons;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.polite.examples.Cli;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code lessons refund} end to end, against real demo servers on loopback: the server side gives
 * the reference's figures exactly (its clock held still, as the reference's was), and the client
 * that settles its reservation saves the 6 s wait the other one sits out (real time, so bounds).
 */
class LessonRefundTest {
  @Test
  void bothSidesGiveBackWhatWasNotUsedAndTheClientSavesTheWait() {
    Cli cli = Cli.run("lessons", "refund", "--json");

    assertThat(cli.exit).as(cli.toString()).isZero();
    List<JsonNode> rows = cli.jsonLines();
    assertThat(rows).hasSize(6);
    assertThat(rows).allSatisfy(row -> assertThat(row.get("lesson").asText()).isEqualTo("refund"));
    assertThat(rows.get(0).get("value").asDouble()).as("reserve 4,000: left").isEqualTo(6_000);
    assertThat(rows.get(1).get("value").asDouble()).as("7,000: retry after").isEqualTo(6.0);
    assertThat(rows.get(2).get("value").asDouble()).as("refund 2,400: left").isEqualTo(8_400);
    assertThat(rows.get(3).get("ours").asText()).startsWith("allowed, 1,400 left");
    // Settled, the next 7,000 call goes at once; unsettled, it waits the 6 s that 1,000 units
    // take at 10,000 a minute, for tokens nobody used.
    assertThat(rows.get(4).get("ours").asText()).startsWith("allowed");
    assertThat(rows.get(4).get("value").asDouble()).isLessThan(1.0);
    assertThat(rows.get(5).get("ours").asText()).startsWith("allowed");
    assertThat(rows.get(5).get("value").asDouble()).isBetween(5.5, 8.0);
  }

  @Test
  void linesPutEachStepBesideTheReference() {
    Cli cli = Cli.run("lessons", "refund");

    assertThat(cli.exit).as(cli.toString()).isZero();
    assertThat(cli.out).contains("6,000 left").contains("429, retry in 6.0 s").contains("8,400 left")
        .contains("(reference: 429, retry in 6.0 s)");
  }
}
