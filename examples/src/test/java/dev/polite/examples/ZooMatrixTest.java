package dev.polite.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Which cells the zoo runs: every limiter for polite, the informative ones for peers, quick's few, HAProxy only when found. */
class ZooMatrixTest {
  private static final Optional<Path> HAPROXY = Optional.of(Path.of("/usr/sbin/haproxy"));
  private static final Optional<Path> NO_HAPROXY = Optional.empty();

  @Test
  void politeRunsEveryLimiterAtEveryConcurrency() {
    ZooMatrix matrix = ZooMatrix.full(ZooMatrix.Selection.DEFAULT, HAPROXY);

    List<ZooCell> polite = cellsOf(matrix, ClientKind.POLITE);
    assertThat(polite).hasSize(ZooMatrix.servers(HAPROXY).size() * 4);
    assertThat(polite).extracting(ZooCell::requests).containsOnly(ZooMatrix.REQUESTS);
    assertThat(polite.subList(0, 4)).extracting(ZooCell::concurrency).containsExactly(1, 4, 16, 64);
    assertThat(names(polite)).containsExactly("token-bucket/ietf", "token-bucket/legacy", "token-bucket/x-ratelimit",
        "token-bucket/used-limit", "token-bucket/retry-after", "token-bucket/retry-after-ms",
        "token-bucket/retry-after-date", "token-bucket/none", "fixed-window/none", "fixed-window/ietf",
        "sliding-log/none", "sliding-log/ietf", "leaky-queue/none", "leaky-queue/ietf", "haproxy");
    assertThat(cellsOf(matrix, ClientKind.POLITE_ADAPTIVE)).hasSize(polite.size());
    assertThat(matrix.notes()).isEmpty();
    assertThat(matrix.cells().get(0).client()).as("polite's rows first").isEqualTo(ClientKind.POLITE);
  }

  @Test
  void peersRunOnlyWhereTheirInputDiffers() {
    ZooMatrix matrix = ZooMatrix.full(ZooMatrix.Selection.DEFAULT, HAPROXY);

    List<String> blind = List.of("token-bucket/ietf", "fixed-window/ietf", "sliding-log/ietf", "leaky-queue/ietf",
        "haproxy");
    assertThat(names(cellsOf(matrix, ClientKind.NAIVE))).containsExactlyElementsOf(blind);
    assertThat(names(cellsOf(matrix, ClientKind.PACED))).containsExactlyElementsOf(blind);
    List<String> retryAfterShapes = List.of("token-bucket/retry-after", "token-bucket/retry-after-date",
        "token-bucket/none", "fixed-window/ietf", "sliding-log/ietf", "leaky-queue/ietf", "haproxy");
    assertThat(names(cellsOf(matrix, ClientKind.RETRY_AFTER))).containsExactlyElementsOf(retryAfterShapes);
    assertThat(names(cellsOf(matrix, ClientKind.FAILSAFE))).containsExactlyElementsOf(retryAfterShapes);
  }

  @Test
  void everyCellRunsEveryClientEverywhere() {
    ZooMatrix matrix = ZooMatrix.full(new ZooMatrix.Selection(List.of(ClientKind.NAIVE), List.of(), List.of(1), true),
        NO_HAPROXY);

    assertThat(matrix.cells()).hasSize(ZooMatrix.servers(NO_HAPROXY).size());
  }

  @Test
  void theSelectionNarrowsClientsLimitersAndColumns() {
    ZooMatrix matrix = ZooMatrix.full(new ZooMatrix.Selection(List.of(ClientKind.PACED, ClientKind.POLITE),
        List.of("token-bucket", "haproxy"), List.of(16), false), HAPROXY);

    assertThat(matrix.cells()).extracting(ZooCell::concurrency).containsOnly(16);
    assertThat(matrix.cells().get(0).client()).as("in the order asked").isEqualTo(ClientKind.PACED);
    assertThat(names(cellsOf(matrix, ClientKind.PACED))).containsExactly("token-bucket/ietf", "haproxy");
    assertThat(names(cellsOf(matrix, ClientKind.POLITE))).allMatch(name -> name.startsWith("token-bucket/")
        || name.equals("haproxy"));
  }

  @Test
  void withoutHaproxyItsRowsAreSkippedWithOneNote() {
    ZooMatrix full = ZooMatrix.full(ZooMatrix.Selection.DEFAULT, NO_HAPROXY);
    ZooMatrix quick = ZooMatrix.quick(ZooMatrix.Selection.DEFAULT, NO_HAPROXY);
    ZooMatrix onlyBuckets = ZooMatrix.full(new ZooMatrix.Selection(List.of(), List.of("token-bucket"), List.of(), false),
        NO_HAPROXY);

    assertThat(names(full.cells())).doesNotContain("haproxy");
    assertThat(full.notes()).containsExactly(ZooMatrix.HAPROXY_MISSING);
    assertThat(names(quick.cells())).doesNotContain("haproxy");
    assertThat(quick.notes()).containsExactly(ZooMatrix.HAPROXY_MISSING);
    assertThat(onlyBuckets.notes()).as("not asked for, so nothing to say").isEmpty();
  }

  @Test
  void quickIsPoliteOnTheCellsThatMatterMostAndAdaptiveOnOne() {
    ZooMatrix quick = ZooMatrix.quick(ZooMatrix.Selection.DEFAULT, HAPROXY);

    assertThat(quick.quick()).isTrue();
    assertThat(quick.requests()).isEqualTo(ZooMatrix.QUICK_REQUESTS);
    List<String> polite = cellsOf(quick, ClientKind.POLITE).stream()
        .map(cell -> cell.server().name() + "@" + cell.concurrency()).toList();
    assertThat(polite).contains("token-bucket/none@16", "token-bucket/none@64", "token-bucket/legacy@64",
        "token-bucket/x-ratelimit@16", "token-bucket/ietf@64", "fixed-window/none@16", "haproxy@4", "haproxy@16");
    assertThat(cellsOf(quick, ClientKind.POLITE_ADAPTIVE)).hasSize(1);
    assertThat(quick.cells()).extracting(ZooCell::client)
        .containsOnly(ClientKind.POLITE, ClientKind.POLITE_ADAPTIVE);
  }

  @Test
  void theRetryAfterDateComesFromAClockAMinuteAhead() {
    DemoZooServer dated = (DemoZooServer) ZooMatrix.servers(NO_HAPROXY).stream()
        .filter(server -> server.name().equals("token-bucket/retry-after-date")).findFirst().orElseThrow();

    assertThat(dated.clockSkew()).isEqualTo(java.time.Duration.ofSeconds(60));
    assertThat(dated.description()).contains("its clock 60 s ahead");
  }

  @Test
  void pacedIsToldNinetyPercentOfTheDocumentedRateAndTheBurst() {
    ZooCell cell = cellsOf(ZooMatrix.full(ZooMatrix.Selection.DEFAULT, HAPROXY), ClientKind.PACED).get(0);

    assertThat(cell.toldRate()).isEqualTo(18.0);
    assertThat(cell.toldBurst()).isEqualTo(20.0);
  }

  private static List<ZooCell> cellsOf(ZooMatrix matrix, ClientKind client) {
    return matrix.cells().stream().filter(cell -> cell.client() == client).toList();
  }

  private static List<String> names(List<ZooCell> cells) {
    return cells.stream().map(cell -> cell.server().name()).distinct().toList();
  }
}
