package dev.polite.examples.lessons;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.polite.examples.Cli;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code lessons race} end to end against a real redis-server the command starts, shortened
 * ({@code --runs 3 --windows 1}: about 9 s). The Lua script admits exactly 10 of 20 every run;
 * GET-then-SET only "more than the limit" somewhere and never less than it (a run that wobbles is
 * the lesson). The multiplier: clearly above the limit wherever the formula says so (rate x round
 * trip at least 1), and within a factor of two of the formula with the measured round trip, a
 * wide band for one second of random arrivals on a shared two-core machine.
 */
class LessonRaceTest {

  @Test
  void getThenSetAdmitsMoreThanTheLimitAndTheScriptExactlyIt() {
    Cli cli = Cli.run("lessons", "race", "--json", "--runs", "3", "--windows", "1");

    assertThat(cli.exit).as(cli.toString()).isZero();
    List<JsonNode> rows = cli.jsonLines();
    List<JsonNode> races = rows.stream().filter(row -> row.get("measure").asText().equals("twenty threads, ten tokens")).toList();
    assertThat(races).hasSize(3);
    assertThat(races).allSatisfy(row -> {
      assertThat(row.get("lua_script").asInt()).as(row.toString()).isEqualTo(10);
      assertThat(row.get("get_then_set").asInt()).as(row.toString()).isBetween(10, 20);
    });
    assertThat(races).as("GET then SET lets more than the limit through").anySatisfy(
        row -> assertThat(row.get("get_then_set").asInt()).isGreaterThan(10));

    List<JsonNode> cells = rows.stream().filter(row -> row.get("measure").asText().equals("multiplier")).toList();
    assertThat(cells).extracting(row -> row.get("rate").asInt() + "/" + row.get("added_round_trip_ms").asInt())
        .containsExactly("100/1", "1000/1", "3000/1", "100/5", "1000/5", "3000/5");
    for (JsonNode cell : cells) {
      double multiplier = cell.get("multiplier").asDouble();
      assertThat(multiplier).as(cell.toString()).isBetween(0.9, 2.0 * cell.get("formula_measured").asDouble());
      if (cell.get("formula").asDouble() >= 2.0) {
        assertThat(multiplier).as("the race multiplies the limit: %s", cell).isGreaterThan(1.5);
        assertThat(multiplier).as(cell.toString()).isGreaterThan(cell.get("formula_measured").asDouble() / 2);
      }
    }
  }
}
