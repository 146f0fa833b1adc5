package dev.polite.examples.zoo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.polite.demo.Algorithm;
import dev.polite.demo.HeaderStyle;
import dev.polite.examples.clients.ClientKind;
import java.nio.file.Path;
import java.time.Duration;
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
        "sliding-log/none", "sliding-log/ietf", "leaky-queue/none", "leaky-queue/ietf", "concurrency/x-ratelimit",
        "concurrency/github-403", "fixed-window/wrong-reset", "quota/spent", "budgets/x-ratelimit", "haproxy");
    assertThat(polite).hasSize(20 * 4);
    assertThat(cellsOf(matrix, ClientKind.POLITE_JDK)).as("polite on the JDK's client, every cell too")
        .extracting(cell -> cell.server().name() + "@" + cell.concurrency())
        .containsExactlyElementsOf(polite.stream().map(cell -> cell.server().name() + "@" + cell.concurrency()).toList());
    assertThat(cellsOf(matrix, ClientKind.POLITE_ADAPTIVE)).hasSize(polite.size());
    assertThat(matrix.notes()).isEmpty();
    assertThat(matrix.cells().get(0).client()).as("polite's rows first").isEqualTo(ClientKind.POLITE);
  }

  @Test
  void peersRunOnlyWhereTheirInputDiffers() {
    ZooMatrix matrix = ZooMatrix.full(ZooMatrix.Selection.DEFAULT, HAPROXY);

    // The cap, the quota and the two budgets are limiters of their own (a peer that reads no header
    // still meets search's floor on the budgets); GitHub's 403 differs from the 429 only for a peer
    // that retries; no peer reads a reset.
    assertThat(names(cellsOf(matrix, ClientKind.NAIVE))).containsExactly("token-bucket/ietf", "fixed-window/ietf",
        "sliding-log/ietf", "leaky-queue/ietf", "concurrency/x-ratelimit", "concurrency/github-403", "quota/spent",
        "budgets/x-ratelimit", "haproxy");
    assertThat(names(cellsOf(matrix, ClientKind.PACED))).as("it never retries: a 403 is a 429 to it")
        .containsExactly("token-bucket/ietf", "fixed-window/ietf", "sliding-log/ietf", "leaky-queue/ietf",
            "concurrency/x-ratelimit", "quota/spent", "budgets/x-ratelimit", "haproxy");
    List<String> retryAfterShapes = List.of("token-bucket/retry-after", "token-bucket/retry-after-date",
        "token-bucket/none", "fixed-window/ietf", "sliding-log/ietf", "leaky-queue/ietf", "concurrency/x-ratelimit",
        "concurrency/github-403", "quota/spent", "budgets/x-ratelimit", "haproxy");
    assertThat(names(cellsOf(matrix, ClientKind.RETRY_AFTER))).containsExactlyElementsOf(retryAfterShapes);
    assertThat(names(cellsOf(matrix, ClientKind.FAILSAFE))).containsExactlyElementsOf(retryAfterShapes);
  }

  @Test
  void theFullZooIsItsRowsTimesItsColumnsLessThePeersRepeats() {
    ZooMatrix full = ZooMatrix.full(ZooMatrix.Selection.DEFAULT, HAPROXY);
    ZooMatrix every = ZooMatrix.full(new ZooMatrix.Selection(List.of(), List.of(), List.of(), true), HAPROXY);

    assertThat(ZooMatrix.servers(HAPROXY)).hasSize(20);
    assertThat(every.cells()).hasSize(7 * 20 * 4);
    // polite, polite-jdk and polite-adaptive 20 rows each, naive 9, paced 8, retry-after and failsafe 11 each
    assertThat(full.cells()).hasSize((20 + 20 + 20 + 9 + 8 + 11 + 11) * 4);
    assertThat(every.cells().size() - full.cells().size()).as("every peer runs the budgets: no new repeats")
        .isEqualTo(164);
  }

  @Test
  void theShapesOfALimitAreEachTheFlagsTheyName() {
    List<ZooServer> shapes = ZooMatrix.servers(NO_HAPROXY).stream().filter(ZooServer::shaped).toList();

    assertThat(shapes).extracting(ZooServer::name).containsExactly("concurrency/x-ratelimit",
        "concurrency/github-403", "fixed-window/wrong-reset", "quota/spent", "budgets/x-ratelimit");
    DemoZooServer cap = (DemoZooServer) shapes.get(0);
    assertThat(cap.shape()).isEqualTo(DemoZooServer.Shape.cap(2, Duration.ofMillis(50), 429));
    assertThat(cap.headers()).isEqualTo(HeaderStyle.X_RATELIMIT);
    assertThat(cap.limit()).as("far above the 40 per second a cap of 2 x 50 ms lets through").isEqualTo(1000);
    assertThat(cap.capacity()).isEqualTo(1000);
    assertThat(((DemoZooServer) shapes.get(1)).shape().rejectStatus()).isEqualTo(403);
    DemoZooServer wrongReset = (DemoZooServer) shapes.get(2);
    assertThat(wrongReset.algorithm()).isEqualTo(Algorithm.FIXED_WINDOW);
    assertThat(wrongReset.shape().wrongResetEvery()).isEqualTo(10);
    assertThat(wrongReset.limit()).isEqualTo(20);
    assertThat(wrongReset.window()).isEqualTo(Duration.ofSeconds(1));
    DemoZooServer quota = (DemoZooServer) shapes.get(3);
    assertThat(quota.algorithm()).isEqualTo(Algorithm.FIXED_WINDOW);
    assertThat(quota.window()).isEqualTo(Duration.ofHours(1));
    assertThat(quota.shape().rejectStatus()).isEqualTo(403);
    assertThat(quota.quota()).hasValue(20);
    assertThat(quota.floorSeconds(100)).as("the bound, shown as the floor").isEqualTo(Verdict.SPENT_QUOTA_SECONDS);
    assertThat(quota.description()).contains("20 per 1 h", "403");
    assertThat(shapes.subList(0, 3)).allMatch(server -> server.quota().isEmpty());
    assertThat(ZooMatrix.servers(NO_HAPROXY).stream().filter(server -> !server.shaped()))
        .allMatch(server -> server.quota().isEmpty() && server.rate() == 20.0);
    assertThat(shapes).allMatch(server -> ((DemoZooServer) server).shape().split().none() == (server != shapes.get(4)));
  }

  @Test
  void theTwoBudgetsAreGithubsCoreAndSearchOnAFixedWindow() {
    DemoZooServer budgets = (DemoZooServer) ZooMatrix.servers(NO_HAPROXY).stream()
        .filter(server -> server.name().equals("budgets/x-ratelimit")).findFirst().orElseThrow();

    assertThat(budgets.algorithm()).isEqualTo(Algorithm.FIXED_WINDOW);
    assertThat(budgets.headers()).isEqualTo(HeaderStyle.X_RATELIMIT);
    assertThat(budgets.limit()).as("core").isEqualTo(20);
    assertThat(budgets.window()).isEqualTo(Duration.ofSeconds(1));
    DemoZooServer.Split split = budgets.shape().split();
    assertThat(split.mainCalls()).isEqualTo(3);
    assertThat(split.routes()).containsExactly(
        new DemoZooServer.Route("/api/search", "search", 5, Duration.ofSeconds(1), 1));
    assertThat(split.cycle()).isEqualTo(4);
    assertThat(split.paths()).containsExactly("/api/items", "/api/items", "/api/items", "/api/search");
    assertThat(budgets.shape().concurrency()).isZero();
    assertThat(budgets.shape().rejectStatus()).isEqualTo(429);
    assertThat(budgets.shaped()).isTrue();
    assertThat(budgets.quota()).isEmpty();
    // 3/4 x 20 and 4 x 5 a second: search binds, so the mix goes at 20 a second, 20 at once
    assertThat(budgets.rate()).isEqualTo(20.0);
    assertThat(budgets.burst()).isEqualTo(20);
    assertThat(budgets.description()).contains("fixed window, 20 per 1 s", "x-ratelimit headers",
        "3 calls in 4 to /api/items (core)", "1 in 4 to /api/search, a budget of its own: search, 5 per 1 s");
    assertThat(budgets.floorRule()).contains("each budget's own floor", "search 1/4 of N at 5 per 1 s",
        "(ceil(N / limit) - 1) windows");
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
  void quickIsPoliteOnBothEnginesOnTheCellsThatMatterMostAndAdaptiveOnOne() {
    ZooMatrix quick = ZooMatrix.quick(ZooMatrix.Selection.DEFAULT, HAPROXY);

    assertThat(quick.quick()).isTrue();
    assertThat(quick.requests()).isEqualTo(ZooMatrix.QUICK_REQUESTS);
    List<String> polite = cellsOf(quick, ClientKind.POLITE).stream()
        .map(cell -> cell.server().name() + "@" + cell.concurrency()).toList();
    assertThat(polite).containsExactly("token-bucket/none@16", "token-bucket/none@64", "token-bucket/legacy@16",
        "token-bucket/legacy@64", "token-bucket/x-ratelimit@16", "token-bucket/x-ratelimit@64",
        "token-bucket/retry-after-date@16", "token-bucket/retry-after-date@64", "token-bucket/ietf@64",
        "fixed-window/none@16", "haproxy@4", "haproxy@16", "fixed-window/wrong-reset@16",
        "budgets/x-ratelimit@16", "budgets/x-ratelimit@64", "quota/spent@4", "quota/spent@16",
        "concurrency/x-ratelimit@4", "concurrency/github-403@16");
    assertThat(cellsOf(quick, ClientKind.POLITE_JDK)).as("the JDK's client on the very same cells")
        .extracting(cell -> cell.server().name() + "@" + cell.concurrency()).containsExactlyElementsOf(polite);
    assertThat(cellsOf(quick, ClientKind.POLITE_ADAPTIVE)).hasSize(1);
    assertThat(quick.cells()).hasSize(19 + 19 + 1);
    assertThat(quick.cells()).extracting(ZooCell::client)
        .containsOnly(ClientKind.POLITE, ClientKind.POLITE_JDK, ClientKind.POLITE_ADAPTIVE);
  }

  @Test
  void aCapOnCallsInFlightThatFewerCallersCannotFillFloorsAtTheirWaves() {
    ZooServer cap = ZooMatrix.servers(NO_HAPROXY).stream()
        .filter(server -> server.name().equals("concurrency/x-ratelimit")).findFirst().orElseThrow();

    assertThat(cap.floorSeconds(100, 1)).as("one caller: one call at a time").isCloseTo(5.0, within(1e-9));
    assertThat(cap.floorSeconds(100, 16)).as("the cap's two at a time").isCloseTo(2.5, within(1e-9));
    assertThat(cap.floorSeconds(100)).isCloseTo(2.5, within(1e-9));
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
