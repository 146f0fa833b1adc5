package dev.polite.examples.zoo;

import static org.assertj.core.api.Assertions.assertThat;

import dev.polite.examples.clients.ClientKind;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The zoo's page from made-up rows: a grid per client, squares coloured by verdict, no network. */
class ZooReportTest {

  @Test
  void oneGridPerClientAndASquarePerCellColouredByItsVerdict() {
    ZooMatrix matrix = ZooMatrix.full(new ZooMatrix.Selection(List.of(ClientKind.POLITE, ClientKind.NAIVE),
        List.of("token-bucket/ietf", "token-bucket/none"), List.of(1, 16), false), Optional.empty());
    List<ZooRow> rows = ZooRows.of(matrix, cell -> switch (cell.client()) {
      case NAIVE -> ZooRows.result(cell, 25, 469, 0.3);
      default -> cell.concurrency() == 16 && cell.server().name().endsWith("none")
          ? ZooRows.result(cell, 86, 18, 9.0) : ZooRows.result(cell, 100, 0, 4.4);
    });

    String html = ZooReport.render(matrix, rows);

    assertThat(html).startsWith("<!DOCTYPE html>");
    assertThat(html.split("<table class=\"grid\"", -1)).hasSize(3);
    assertThat(html).contains("data-client=\"polite\"", "data-client=\"naive\"");
    assertThat(html.split("<td class=\"cell\"", -1)).as("polite 2x2, naive 1 limiter x2 (blind to headers)")
        .hasSize(1 + 4 + 2);
    assertThat(html.split("data-verdict=\"ok\"", -1)).hasSize(1 + 3);
    assertThat(html).contains("data-verdict=\"lost 14, rejections, slow\"", "data-verdict=\"lost 75, rejections\"");
    assertThat(html).contains("#a5d6a7", "#ef9a9a", "4.4 s", "/ 4.0 floor", "86/100 ok");
    assertThat(html).doesNotContain("<script", "<link", "@import", "http://", "https://");
  }

  @Test
  void theSkippedHaproxyIsNoted() {
    String html = ZooReport.render(ZooMatrix.quick(ZooMatrix.Selection.DEFAULT, Optional.empty()), List.of());

    assertThat(html).contains("<b>Note:</b> haproxy is not on the PATH");
  }

  @Test
  void aSpentQuotaShowsItsBoundWhereTheOthersShowTheirFloor() {
    ZooMatrix matrix = ZooMatrix.full(new ZooMatrix.Selection(List.of(ClientKind.POLITE),
        List.of("token-bucket/ietf", "quota/spent"), List.of(16), false), Optional.empty());
    List<ZooRow> rows = ZooRows.of(matrix, cell -> cell.server().quota().isPresent()
        ? ZooRows.result(cell, 20, 1, 0.3) : ZooRows.result(cell, 100, 0, 4.4));

    String html = ZooReport.render(matrix, rows);

    assertThat(html.split("data-verdict=\"ok\"", -1)).as("80 failed calls on the quota are no loss").hasSize(1 + 2);
    assertThat(html).contains("/ 3.0 bound", "/ 4.0 floor", "20/100 ok", "&le; 3.00 s (a bound)",
        "but the shapes of a limit", "a spent quota's cell when exactly the quota's calls succeeded");
  }

  @Test
  void aCellThatDidNotRunIsGrey() {
    ZooMatrix matrix = ZooMatrix.full(new ZooMatrix.Selection(List.of(ClientKind.POLITE),
        List.of("token-bucket/ietf"), List.of(1, 4), false), Optional.of(Path.of("/bin/false")));
    List<ZooRow> rows = ZooRows.of(matrix.cells().subList(0, 1), cell -> ZooRows.result(cell, 100, 0, 4.1));

    String html = ZooReport.render(matrix, rows);

    assertThat(html.split("<td class=\"cell\"", -1)).hasSize(3);
    assertThat(html).contains("#f5f5f5\"><span class=\"muted\">–</span>");
  }
}
