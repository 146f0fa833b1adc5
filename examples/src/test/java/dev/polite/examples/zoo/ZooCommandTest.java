package dev.polite.examples.zoo;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.polite.examples.Cli;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code zoo} end to end on small selections, the spent quota with its bound among them, and its
 * HAProxy rows skipped with a note when HAProxy is absent.
 */
class ZooCommandTest {
  @TempDir
  Path dir;

  @Test
  void oneJsonLinePerCellThenASummaryAndTheReport() throws Exception {
    Path report = dir.resolve("zoo.html");

    Cli cli = Cli.run("zoo", "--servers", "token-bucket/ietf", "--concurrency", "4", "--clients", "polite,paced",
        "--json", "--report", report.toString());

    assertThat(cli.exit).as(cli.toString()).isZero();
    List<JsonNode> lines = cli.jsonLines();
    assertThat(lines).hasSize(3);
    for (JsonNode row : lines.subList(0, 2)) {
      assertThat(row.fieldNames()).toIterable().containsExactly("client", "server", "concurrency", "requests",
          "succeeded", "failed", "rejected", "rejected_by", "sent", "retries", "seconds", "floor", "verdict");
      assertThat(row.get("server").asText()).isEqualTo("token-bucket/ietf");
      assertThat(row.get("concurrency").asInt()).isEqualTo(4);
      assertThat(row.get("requests").asInt()).isEqualTo(ZooMatrix.REQUESTS);
      assertThat(row.get("rejected_by").asText()).isEqualTo("server");
      assertThat(row.get("floor").asDouble()).isEqualTo(4.0);
    }
    assertThat(lines.get(0).get("client").asText()).isEqualTo("polite");
    JsonNode paced = lines.get(1);
    assertThat(paced.get("client").asText()).isEqualTo("paced");
    assertThat(paced.get("succeeded").asInt()).as("18/s under a 20/s limit: all, or all but a stray").isGreaterThan(95);
    assertThat(paced.get("sent").asInt()).as("it never retries").isEqualTo(100);
    assertThat(paced.get("seconds").asDouble()).as("(100 - 20) / 18 s").isGreaterThan(4.3);
    JsonNode summary = lines.get(2);
    assertThat(summary.get("summary").asBoolean()).isTrue();
    assertThat(summary.get("cells").asInt()).isEqualTo(2);
    assertThat(summary.has("gate")).as("only --quick is a gate").isFalse();
    assertThat(cli.err).contains("report: " + report.toAbsolutePath());
    String html = Files.readString(report);
    assertThat(html).contains("data-client=\"polite\"", "data-client=\"paced\"");
  }

  @Test
  void theTableHasAHeaderARowPerCellAndTheTotals() throws Exception {
    Path report = dir.resolve("table.html");

    Cli cli = Cli.run("zoo", "--servers", "sliding-log/ietf", "--concurrency", "1", "--clients", "paced",
        "--report", report.toString());

    assertThat(cli.exit).as(cli.toString()).isZero();
    assertThat(cli.out).contains(ZooRow.HEADER);
    // Told the documented burst, the client-side bucket sends 20 at once and then 18 per second, but
    // a sliding log admits 20 in any second: it is refused until the burst leaves the log, and it
    // never retries. The zoo is meant to show exactly this.
    assertThat(cli.out).containsPattern("paced +sliding-log/ietf +1 +100 +[6-9]\\d +[1-3]\\d +100 +\\d+\\.\\d +4\\.0  lost [1-3]\\d, rejections");
    assertThat(cli.out).as("the gated clients' totals name only those that ran").containsPattern("1 cell, 0 ok; \\d+ s");
    assertThat(cli.out).contains("report: " + report.toAbsolutePath());
  }

  @Test
  void theSpentQuotaShowsItsBoundAndIsJudgedByItsOwnVerdict() throws Exception {
    Path report = dir.resolve("quota.html");

    Cli json = Cli.run("zoo", "--servers", "quota/spent", "--concurrency", "4", "--clients", "naive", "--json",
        "--report", report.toString());
    Cli table = Cli.run("zoo", "--servers", "quota/spent", "--concurrency", "4", "--clients", "naive", "--report",
        report.toString());

    assertThat(json.exit).as(json.toString()).isZero();
    List<JsonNode> lines = json.jsonLines();
    assertThat(lines).hasSize(2);
    JsonNode row = lines.get(0);
    assertThat(row.fieldNames()).toIterable().containsExactly("client", "server", "concurrency", "requests",
        "succeeded", "failed", "rejected", "rejected_by", "sent", "retries", "seconds", "floor", "verdict", "quota",
        "rejections_allowed", "floor_is_bound");
    assertThat(row.get("server").asText()).isEqualTo("quota/spent");
    assertThat(row.get("quota").asInt()).isEqualTo(20);
    assertThat(row.get("rejections_allowed").asInt()).isEqualTo(2);
    assertThat(row.get("floor").asDouble()).as("the bound").isEqualTo(3.0);
    assertThat(row.get("floor_is_bound").asBoolean()).isTrue();
    // 20 calls get through, and every other one is retried at once into the spent quota: not a loss
    // here (the quota allows no more), but hundreds of refusals.
    assertThat(row.get("succeeded").asInt()).isEqualTo(20);
    assertThat(row.get("rejected").asInt()).isGreaterThanOrEqualTo(80);
    assertThat(row.get("verdict").asText()).isEqualTo("rejections");
    JsonNode summary = lines.get(1);
    assertThat(summary.get("cells").asInt()).isEqualTo(1);
    assertThat(summary.get("ok").asInt()).isZero();
    assertThat(table.exit).as(table.toString()).isZero();
    assertThat(table.out).contains("quota/spent: ok when exactly 20 succeeded, at most 2 rejected, within 3 s");
    assertThat(table.out).containsPattern("naive +quota/spent +4 +100 +20 +\\d+ +\\d+ +\\d+\\.\\d +<=3\\.0  rejections");
    assertThat(Files.readString(report)).contains("a bound", "/ 3.0 bound");
  }

  /**
   * Two budgets on one host: a quarter of the calls spend search's 5 a second, so the floor is
   * search's (25 calls, 4 windows after the first), and a client that hammers is refused by both.
   */
  @Test
  void theTwoBudgetsRowSpendsEachBudgetAndIsJudgedAgainstTheLargerFloor() throws Exception {
    Path report = dir.resolve("budgets.html");

    Cli json = Cli.run("zoo", "--servers", "budgets/", "--concurrency", "4", "--clients", "naive", "--json",
        "--report", report.toString());

    assertThat(json.exit).as(json.toString()).isZero();
    List<JsonNode> lines = json.jsonLines();
    assertThat(lines).hasSize(2);
    JsonNode row = lines.get(0);
    assertThat(row.fieldNames()).toIterable().containsExactly("client", "server", "concurrency", "requests",
        "succeeded", "failed", "rejected", "rejected_by", "sent", "retries", "seconds", "floor", "verdict");
    assertThat(row.get("server").asText()).isEqualTo("budgets/x-ratelimit");
    assertThat(row.get("requests").asInt()).isEqualTo(100);
    assertThat(row.get("floor").asDouble()).as("search's: 25 calls at 5 a window").isEqualTo(4.0);
    assertThat(row.get("rejected_by").asText()).isEqualTo("server");
    // naive retries at once, six attempts a call: each window admits core's 20 and search's 5, and
    // the rest of the calls are refused through in well under a second
    assertThat(row.get("rejected").asInt()).isPositive();
    assertThat(row.get("succeeded").asInt()).isBetween(25, 99);
    assertThat(Files.readString(report)).contains("budgets/x-ratelimit",
        "1 in 4 to /api/search, a budget of its own: search, 5 per 1 s");
  }

  @Test
  void withoutHaproxyItsRowsAreSkippedWithOneNote() throws Exception {
    Path report = dir.resolve("none.html");

    Run table = run(new ZooCommand(name -> Optional.empty()), "--servers", "haproxy", "--report", report.toString());
    Run json = run(new ZooCommand(name -> Optional.empty()), "--servers", "haproxy", "--json", "--report",
        report.toString());

    assertThat(table.exit).as(table.out + table.err).isZero();
    assertThat(table.out).containsOnlyOnce("note: " + ZooMatrix.HAPROXY_MISSING);
    assertThat(table.out).contains("0 cells");
    assertThat(json.exit).isZero();
    JsonNode summary = new ObjectMapper().readTree(json.out.strip());
    assertThat(summary.get("cells").asInt()).isZero();
    assertThat(summary.get("notes")).hasSize(1);
    assertThat(summary.get("notes").get(0).asText()).isEqualTo(ZooMatrix.HAPROXY_MISSING);
  }

  @Test
  void aBadConcurrencyIsACommandLineError() {
    Cli cli = Cli.run("zoo", "--concurrency", "0");

    assertThat(cli.exit).isEqualTo(2);
    assertThat(cli.err).contains("--concurrency must be 1 to 1000, was 0");
  }

  private record Run(int exit, String out, String err) {}

  private static Run run(ZooCommand command, String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine cli = new CommandLine(command);
    cli.setOut(new PrintWriter(out, true));
    cli.setErr(new PrintWriter(err, true));
    int exit = cli.execute(args);
    return new Run(exit, out.toString(), err.toString());
  }
}
