package dev.polite.examples.zoo;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.polite.examples.clients.ClientKind;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The gate holds polite, on OkHttp and on the JDK's client, and only polite, to lost calls,
 * rejections and twice the floor; a spent quota to its own verdict.
 */
class ZooGateTest {
  private final ZooMatrix matrix = ZooMatrix.full(new ZooMatrix.Selection(
      List.of(ClientKind.POLITE, ClientKind.POLITE_JDK, ClientKind.POLITE_ADAPTIVE, ClientKind.NAIVE),
      List.of("token-bucket/ietf"),
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

    assertThat(ZooGate.misses(lost)).hasSize(2);
    assertThat(ZooGate.describe(ZooGate.misses(lost).get(0))).isEqualTo("polite on token-bucket/ietf at 1: lost 1");
    assertThat(ZooGate.describe(ZooGate.misses(lost).get(1)))
        .isEqualTo("polite-jdk on token-bucket/ietf at 1: lost 1");
    assertThat(ZooGate.describe(ZooGate.misses(refused).get(0)))
        .isEqualTo("polite on token-bucket/ietf at 1: rejections");
    assertThat(ZooGate.describe(ZooGate.misses(slow).get(1))).isEqualTo("polite-jdk on token-bucket/ietf at 1: slow");
  }

  @Test
  void peersAndAdaptiveAreShownNotGated() {
    List<ZooRow> rows = ZooRows.of(matrix, cell -> ZooGate.GATED.contains(cell.client())
        ? ZooRows.result(cell, 100, 0, 4.2) : ZooRows.result(cell, 20, 400, 0.3));

    assertThat(ZooGate.misses(rows)).isEmpty();
  }

  @Test
  void aLimiterThatRefusesEverythingIsGatedByItsBoundAndSaysSoInItsJson() {
    ZooMatrix refuses = ZooMatrix.full(new ZooMatrix.Selection(List.of(ClientKind.POLITE),
        List.of("refuses/everything"), List.of(64), false), Optional.empty());
    ZooRow ok = ZooRows.of(refuses, cell -> ZooRows.result(cell, 0, 10, 0.4)).get(0);
    ZooRow refusedPerCall = ZooRows.of(refuses, cell -> ZooRows.result(cell, 0, 100, 0.4)).get(0);
    ZooRow hung = ZooRows.of(refuses, cell -> ZooRows.result(cell, 0, 3, 20.0)).get(0);

    assertThat(ok.verdict().ok()).as("100 calls failed, as they must").isTrue();
    assertThat(ZooGate.misses(List.of(ok, refusedPerCall, hung))).extracting(ZooGate::describe).containsExactly(
        "polite on refuses/everything at 64: rejections", "polite on refuses/everything at 64: slow");
    assertThat(ok.floorIsBound()).isTrue();
    assertThat(ok.floorText()).isEqualTo("<=3.0");
    ObjectNode json = ok.toJsonNode(new ObjectMapper());
    assertThat(json.get("quota").asInt()).isZero();
    assertThat(json.get("rejections_allowed").asInt()).isEqualTo(10);
    assertThat(json.get("floor_is_bound").asBoolean()).isTrue();
  }

  @Test
  void unusableHintsExcuseTheCallsGivenUpWithARefusal() {
    ZooMatrix hints = ZooMatrix.full(new ZooMatrix.Selection(List.of(ClientKind.POLITE),
        List.of("hints/unusable"), List.of(4), false), Optional.empty());
    ZooCell cell = hints.cells().get(0);
    // 90 succeeded and 10 given up with the server's 429 (no exception), in 4.0 s against a floor of 3.5 s
    ZooRow givenUp = new ZooRow(cell, new dev.polite.examples.load.RunResult("polite", 100, 90, 10, 100, 0, 0, 0,
        4.0, List.of()), 10, true, cell.floorSeconds(), false);
    ZooRow failed = ZooRows.result(cell, 90, 10, 4.0); // 10 failed with an exception: not given up with a refusal

    assertThat(givenUp.verdict().ok()).isTrue();
    assertThat(givenUp.toJsonNode(new ObjectMapper()).get("given_up").asInt()).isEqualTo(10);
    assertThat(givenUp.toJsonNode(new ObjectMapper()).get("rejections_allowed").asInt()).isEqualTo(20);
    assertThat(ZooGate.describe(ZooGate.misses(List.of(failed)).get(0))).isEqualTo("polite on hints/unusable at 4: lost 10");
  }

  @Test
  void aSpentQuotaIsGatedAndShownByItsOwnVerdict() {
    ZooMatrix quota = ZooMatrix.full(new ZooMatrix.Selection(List.of(ClientKind.POLITE), List.of("quota/spent"),
        List.of(16), false), Optional.empty());
    List<ZooRow> ok = ZooRows.of(quota, cell -> ZooRows.result(cell, 20, 1, 0.4));
    List<ZooRow> slow = ZooRows.of(quota, cell -> ZooRows.result(cell, 20, 1, 4.0));
    List<ZooRow> refused = ZooRows.of(quota, cell -> ZooRows.result(cell, 20, 3, 0.4));
    List<ZooRow> lost = ZooRows.of(quota, cell -> ZooRows.result(cell, 12, 0, 0.4));

    assertThat(ok.get(0).verdict().text()).as("80 failed calls are the point, not a loss").isEqualTo("ok");
    assertThat(ZooGate.misses(ok)).isEmpty();
    // No slack over the bound at the gate: 4 s is within twice a floor of 3 s, but not within 3 s.
    assertThat(ZooGate.describe(ZooGate.misses(slow).get(0))).isEqualTo("polite on quota/spent at 16: slow");
    assertThat(ZooGate.describe(ZooGate.misses(refused).get(0))).isEqualTo("polite on quota/spent at 16: rejections");
    assertThat(ZooGate.describe(ZooGate.misses(lost).get(0))).isEqualTo("polite on quota/spent at 16: lost 8");
  }

  @Test
  void aSpentQuotasFloorColumnIsItsBoundInTheTableAndTheJson() {
    ZooMatrix quota = ZooMatrix.full(new ZooMatrix.Selection(List.of(ClientKind.POLITE), List.of("quota/spent"),
        List.of(16), false), Optional.empty());
    ZooRow row = ZooRows.of(quota, cell -> ZooRows.result(cell, 20, 1, 0.4)).get(0);

    assertThat(row.tableRow()).containsPattern("quota/spent +16 +100 +20 +1 +101 +0\\.4 +<=3\\.0  ok$");
    assertThat(row.tableRow().indexOf("<=3.0")).as("aligned with the header")
        .isEqualTo(ZooRow.HEADER.indexOf("floor") + "floor".length() - "<=3.0".length());
    ObjectNode json = row.toJsonNode(new ObjectMapper());
    assertThat(json.get("floor").asDouble()).isEqualTo(3.0);
    assertThat(json.get("quota").asLong()).isEqualTo(20);
    assertThat(json.get("floor_is_bound").asBoolean()).isTrue();
    assertThat(json.get("verdict").asText()).isEqualTo("ok");
    ZooRow plain = ZooRows.of(matrix, cell -> ZooRows.result(cell, 100, 0, 4.1)).get(0);
    assertThat(plain.toJsonNode(new ObjectMapper()).has("floor_is_bound")).isFalse();
  }
}
