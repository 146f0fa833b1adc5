package dev.polite.examples.zoo;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.polite.examples.Cli;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The zoo's CI gate, run by {@code mvn -B verify}: {@code zoo --quick} through the same command
 * line users run, against real limiters on loopback (HAProxy too, where it is installed, as
 * {@code .ci/run} makes sure). Every cell of polite's, on OkHttp ({@code polite}) and on the JDK's
 * client ({@code polite-jdk}) alike, must lose no call, meet at most max(3, 10 %)
 * rejections and finish within twice its floor; a spent quota's cell ({@code quota/spent}; its row
 * says {@code quota}, {@code rejections_allowed} and {@code floor_is_bound}) must let exactly
 * {@code min(requests, quota)} calls succeed, be refused at most {@code rejections_allowed} times and
 * end within its bound of 3 s, the {@code floor} field (a limiter that refuses everything is a quota
 * of 0); a row whose refused calls may be given up says how many were ({@code given_up}). The command must say so with its exit code.
 * The targets were set before the work and are not to be eased to fit today's polite: a red gate means
 * polite is not yet the client it promises to be.
 */
class ZooQuickTest {
  /** The clients the gate holds to the targets: polite on each engine. */
  private static final List<String> GATED = List.of("polite", "polite-jdk", "polite-spring", "polite-webclient",
      "polite-hc5");
  /** polite on OkHttp and on the JDK's client run the quick zoo's every cell; the other engines four. */
  private static final List<String> EVERY_CELL = List.of("polite", "polite-jdk");

  @TempDir
  Path dir;

  /** Two clients on 26 cells and three on 4, of about 5 s each: longer than the build's default limit allows a test. */
  @Test
  @Timeout(value = 10, unit = TimeUnit.MINUTES)
  void everyCellOfPolitesOnEitherEngineMeetsItsTargets() {
    Cli cli = Cli.run("zoo", "--quick", "--json", "--report", dir.resolve("zoo.html").toString());

    List<JsonNode> lines = cli.jsonLines();
    JsonNode summary = lines.get(lines.size() - 1);
    List<JsonNode> rows = lines.subList(0, lines.size() - 1);
    for (String client : GATED) {
      assertThat(rows).filteredOn(row -> row.get("client").asText().equals(client))
          .as("the quick zoo's " + client + " cells").hasSizeGreaterThanOrEqualTo(EVERY_CELL.contains(client) ? 8 : 4);
    }
    List<JsonNode> gated = rows.stream().filter(row -> GATED.contains(row.get("client").asText())).toList();
    List<String> missed = new ArrayList<>();
    for (JsonNode row : gated) {
      int requests = row.get("requests").asInt();
      String where = row.get("client").asText() + " on " + row.get("server").asText() + " at "
          + row.get("concurrency").asInt();
      if (row.has("quota")) {
        missed.addAll(spentQuotaMisses(row, where));
        continue;
      }
      // a row whose refused calls may be given up says how many were (hints/unusable)
      int mayFail = row.has("given_up") ? Math.min(row.get("given_up").asInt(), row.get("rejected").asInt()) : 0;
      if (row.get("succeeded").asInt() + mayFail != requests) {
        missed.add(where + ": lost " + (requests - row.get("succeeded").asInt() - mayFail));
      }
      long allowed = row.has("rejections_allowed") ? row.get("rejections_allowed").asLong() : Math.max(3, requests / 10);
      if (row.get("rejected").asLong() > allowed) {
        missed.add(where + ": " + row.get("rejected").asLong() + " rejected");
      }
      if (row.get("seconds").asDouble() > 2 * row.get("floor").asDouble()) {
        missed.add(where + ": " + row.get("seconds").asDouble() + " s against a floor of " + row.get("floor").asDouble());
      }
    }
    // the misses first: a CI log keeps a failure message's start and may cut its middle
    assertThat(missed).as("polite's misses in the quick zoo: " + missed + "\nthe zoo printed:\n" + cli.out)
        .isEmpty();
    assertThat(summary.get("polite_jdk_cells").asInt()).isEqualTo(summary.get("polite_cells").asInt());
    assertThat(summary.get("gate").asText()).isEqualTo("passed");
    assertThat(cli.exit).as(cli.toString()).isZero();
  }

  /**
   * {@link Verdict#spentQuota}'s targets, and {@link Verdict#refusesEverything}'s (a quota of 0), from
   * the row's own fields.
   */
  private static List<String> spentQuotaMisses(JsonNode row, String where) {
    List<String> missed = new ArrayList<>();
    assertThat(row.get("floor_is_bound").asBoolean()).as(where + ": its floor is the bound").isTrue();
    assertThat(row.get("floor").asDouble()).as(where + ": the bound").isEqualTo(3.0);
    long allowed = Math.min(row.get("requests").asLong(), row.get("quota").asLong());
    if (row.get("succeeded").asLong() != allowed) {
      missed.add(where + ": " + row.get("succeeded").asLong() + " succeeded, not the quota's " + allowed);
    }
    if (row.get("rejected").asLong() > row.get("rejections_allowed").asLong()) {
      missed.add(where + ": " + row.get("rejected").asLong() + " rejected");
    }
    if (row.get("seconds").asDouble() > 3.0) {
      missed.add(where + ": " + row.get("seconds").asDouble() + " s against a bound of 3 s");
    }
    return missed;
  }
}
