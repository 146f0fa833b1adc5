package dev.polite.examples.lessons;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.polite.examples.Cli;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code lessons algorithms} end to end: the demo server's limiter classes on a virtual clock give
 * the reference's "most in any 10 s" column exactly (deterministic, so no tolerance), and the
 * leaky meter, which the reference leaves out, the token bucket's figure.
 */
class LessonAlgorithmsTest {

  @Test
  void mostInAny10sIsTheReferencesColumn() {
    Cli cli = Cli.run("lessons", "algorithms", "--json");

    assertThat(cli.exit).as(cli.toString()).isZero();
    Map<String, Integer> most = new LinkedHashMap<>();
    for (JsonNode row : cli.jsonLines()) {
      assertThat(row.get("lesson").asText()).isEqualTo("algorithms");
      most.put(row.get("algorithm").asText(), row.get("most_in_any_10s").asInt());
      if (!row.get("reference").isNull()) {
        assertThat(row.get("most_in_any_10s").asInt()).as(row.toString()).isEqualTo(row.get("reference").asInt());
      }
    }
    assertThat(most).containsExactly(
        Map.entry("token-bucket", 19), Map.entry("gcra", 19), Map.entry("leaky-meter", 19),
        Map.entry("leaky-queue", 10), Map.entry("fixed-window", 20), Map.entry("sliding-log", 10),
        Map.entry("sliding-counter", 19));
  }

  @Test
  void tablePrintsEachAlgorithmBesideTheReference() {
    Cli cli = Cli.run("lessons", "algorithms");

    assertThat(cli.exit).as(cli.toString()).isZero();
    assertThat(cli.out).containsPattern("fixed-window +20 +10 +20 +20 +20");
    assertThat(cli.out).containsPattern("sliding-log +10 +10 +10 +10 +10");
    assertThat(cli.outLines()).filteredOn(line -> line.matches("^[a-z-]+ +\\d+ .*")).hasSize(7);
  }

  @Test
  void lessonsWithoutANameListsThem() {
    Cli cli = Cli.run("lessons");

    assertThat(cli.exit).isEqualTo(2);
    assertThat(cli.err).contains("naive").contains("algorithms");
    assertThat(List.of(cli.out, cli.err)).noneMatch(text -> text.contains("Exception"));
  }
}
