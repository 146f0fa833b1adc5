package dev.polite.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The gate holds polite, and only polite, to lost calls, rejections and twice the floor. */
class ZooGateTest {
  private final ZooMatrix matrix = ZooMatrix.full(new ZooMatrix.Selection(
      List.of(ClientKind.POLITE, ClientKind.POLITE_ADAPTIVE, ClientKind.NAIVE), List.of("token-bucket/ietf"),
      List.of(1), false), Optional.empty());

  @Test
  void slowWithinTwiceTheFloorPassesTheGateButNotTheTable() {
    List<ZooRow> rows = ZooRows.of(matrix, cell -> ZooRows.result(cell, 100, 2, 7.5));

    assertThat(rows.get(0).verdict().text()).isEqualTo("slow");
    assertThat(ZooGate.misses(rows)).isEmpty();
  }

  @Test
  void aLostCallTooManyRejectionsOrOverTwiceTheFloorFailIt() {
    List<ZooRow> lost = ZooRows.of(matrix, cell -> ZooRows.result(cell, 99, 0, 4.0));
    List<ZooRow> refused = ZooRows.of(matrix, cell -> ZooRows.result(cell, 100, 11, 4.0));
    List<ZooRow> slow = ZooRows.of(matrix, cell -> ZooRows.result(cell, 100, 0, 8.1));

    assertThat(ZooGate.misses(lost)).hasSize(1);
    assertThat(ZooGate.describe(ZooGate.misses(lost).get(0))).isEqualTo("token-bucket/ietf at 1: lost 1");
    assertThat(ZooGate.describe(ZooGate.misses(refused).get(0))).isEqualTo("token-bucket/ietf at 1: rejections");
    assertThat(ZooGate.describe(ZooGate.misses(slow).get(0))).isEqualTo("token-bucket/ietf at 1: slow");
  }

  @Test
  void peersAndAdaptiveAreShownNotGated() {
    List<ZooRow> rows = ZooRows.of(matrix, cell -> cell.client() == ClientKind.POLITE
        ? ZooRows.result(cell, 100, 0, 4.2) : ZooRows.result(cell, 20, 400, 0.3));

    assertThat(ZooGate.misses(rows)).isEmpty();
  }
}
