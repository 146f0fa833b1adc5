package dev.polite.examples.compare;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.polite.examples.Cli;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code compare} end to end, against the in-process demo servers it starts itself. */
class CompareCommandTest {
  private static final int REQUESTS = 12;

  @TempDir
  Path dir;

  @Test
  void everyClientGetsAJsonLineAndAChart() throws Exception {
    Path report = dir.resolve("report.html");

    Cli cli = Cli.run("compare", "--requests", Integer.toString(REQUESTS), "--json", "--report", report.toString());

    assertThat(cli.exit).as(cli.toString()).isZero();
    List<JsonNode> rows = cli.jsonLines();
    assertThat(rows).extracting(row -> row.get("client").asText())
        .containsExactly("naive", "retry-after", "paced", "polite", "polite-adaptive");
    for (JsonNode row : rows) {
      assertThat(row.get("requests").asInt()).isEqualTo(REQUESTS);
      assertThat(row.get("retries").asLong()).isEqualTo(row.get("sent").asLong() - REQUESTS);
      assertThat(row.fieldNames()).toIterable()
          .containsExactly("client", "requests", "succeeded", "failed", "rejected", "sent", "retries", "seconds");
      assertThat(row.get("failed").asInt()).isZero();
    }
    JsonNode naive = rows.get(0);
    assertThat(naive.get("rejected").asLong()).as("retry at once hammers").isPositive();
    assertThat(naive.get("sent").asLong()).isGreaterThan(REQUESTS);
    JsonNode retryAfter = rows.get(1);
    assertThat(retryAfter.get("succeeded").asInt()).isEqualTo(REQUESTS);
    assertThat(retryAfter.get("rejected").asLong()).as("it learns nothing, so each burst meets a 429").isPositive();
    JsonNode paced = rows.get(2);
    assertThat(paced.get("succeeded").asInt()).isEqualTo(REQUESTS);
    assertThat(paced.get("rejected").asLong()).isZero();
    JsonNode polite = rows.get(3);
    assertThat(polite.get("succeeded").asInt()).isEqualTo(REQUESTS);
    assertThat(polite.get("rejected").asLong()).isLessThanOrEqualTo(1);
    assertThat(polite.get("sent").asLong()).isLessThanOrEqualTo(REQUESTS + 1);
    JsonNode adaptive = rows.get(4);
    assertThat(adaptive.get("succeeded").asInt()).as("the server is not overloaded: nothing to shed").isEqualTo(REQUESTS);
    assertThat(adaptive.get("rejected").asLong()).isLessThanOrEqualTo(1);
    assertThat(adaptive.get("sent").asLong()).isLessThanOrEqualTo(REQUESTS + 1);
    assertThat(adaptive.has("local_drops")).as("no call dropped locally").isFalse();

    assertThat(cli.err).contains("report: " + report.toAbsolutePath());
    String html = Files.readString(report);
    assertThat(count(html, "<svg class=\"chart\"")).isEqualTo(5);
    assertThat(html).contains("<h1>Five clients, one rate limit</h1>", "5. polite + adaptive throttling");
    for (String client : List.of("naive", "retry-after", "paced", "polite", "polite-adaptive")) {
      assertThat(html).contains("<svg class=\"chart\" data-client=\"" + client + "\"");
    }
    assertThat(html).doesNotContain("http://", "https://cdn", "<script src");
  }

  @Test
  void theTableHasOneRowPerClientAndNamesTheReport() throws Exception {
    Path report = dir.resolve("sub/table.html");

    Cli cli = Cli.run("compare", "--requests", "6", "--clients", "paced,polite,polite-adaptive", "--report",
        report.toString());

    assertThat(cli.exit).as(cli.toString()).isZero();
    assertThat(cli.out).containsPattern("3\\. client-side bucket 4\\.5/s +6/6 ok +0 rejected +6 requests sent +\\d+\\.\\d s");
    assertThat(cli.out).containsPattern("4\\. polite +6/6 ok +\\d+ rejected +\\d+ requests sent +\\d+\\.\\d s");
    assertThat(cli.out).containsPattern(
        "5\\. polite \\+ adaptive throttling +6/6 ok +\\d+ rejected +\\d+ requests sent +\\d+\\.\\d s");
    assertThat(cli.out).contains("report: " + report.toAbsolutePath());
    assertThat(count(Files.readString(report), "<svg class=\"chart\"")).isEqualTo(3);
  }

  @Test
  void failsafeRunsWhenAskedAndIsNumberedAfterTheFive() throws Exception {
    Path report = dir.resolve("failsafe.html");

    Cli cli = Cli.run("compare", "--requests", "6", "--clients", "paced,failsafe", "--report", report.toString());

    assertThat(cli.exit).as(cli.toString()).isZero();
    assertThat(cli.out).containsPattern("3\\. client-side bucket 4\\.5/s +6/6 ok");
    assertThat(cli.out).containsPattern("6\\. OkHttp \\+ Failsafe by hand +6/6 ok +0 rejected +6 requests sent");
  }

  private static int count(String text, String needle) {
    Matcher m = Pattern.compile(Pattern.quote(needle)).matcher(text);
    int n = 0;
    while (m.find()) {
      n++;
    }
    return n;
  }
}
