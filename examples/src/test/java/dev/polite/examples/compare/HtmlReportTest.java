package dev.polite.examples.compare;

import static org.assertj.core.api.Assertions.assertThat;

import dev.polite.examples.clients.ClientKind;
import dev.polite.examples.clients.SentAttempt;
import dev.polite.examples.load.RunResult;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The report's page, from made-up runs: one chart per client, a dot per attempt, no network. */
class HtmlReportTest {

  @Test
  void oneChartPerClientAndOneDotPerAttempt() {
    RunResult hammer = new RunResult("naive", 2, 1, 5, 7, 5, 1, 0, 0.01, List.of(
        new SentAttempt(1_000, 200, false),
        new SentAttempt(2_000, 429, true), new SentAttempt(3_000, 429, true), new SentAttempt(4_000, 429, true),
        new SentAttempt(5_000, 429, true), new SentAttempt(6_000, 429, true), new SentAttempt(7_000, 0, false)));
    RunResult polite = new RunResult("polite", 2, 2, 0, 2, 0, 0, 0, 0.2, List.of(
        new SentAttempt(0, 200, false), new SentAttempt(200_000_000, 200, false)));

    String html = HtmlReport.render(List.of(
        new ComparedRun(ClientKind.NAIVE, "1. retry <at> once", hammer),
        new ComparedRun(ClientKind.POLITE, "4. polite", polite)), 5, 5);

    assertThat(html).startsWith("<!DOCTYPE html>");
    assertThat(html.split("<svg class=\"chart\"", -1)).hasSize(3);
    assertThat(html.split("<circle ", -1)).hasSize(1 + 7 + 2);
    assertThat(html.split("#d32f2f\" fill-opacity", -1)).as("five red dots").hasSize(6);
    assertThat(html).contains("1. retry &lt;at&gt; once").doesNotContain("<at>");
    assertThat(html).contains("class=\"limit\"", "class=\"admitted\"", "I/O error");
    assertThat(html).doesNotContain("<script", "<link", "@import");
  }

  @Test
  void axisStepsAreRoundNumbers() {
    assertThat(HtmlReport.niceCeiling(31.5)).isEqualTo(50);
    assertThat(HtmlReport.niceCeiling(162)).isEqualTo(200);
    assertThat(HtmlReport.niceCeiling(10)).isEqualTo(10);
    assertThat(HtmlReport.niceCeiling(11)).isEqualTo(20);
    assertThat(HtmlReport.niceCeiling(0.3)).isEqualTo(1);
  }
}
