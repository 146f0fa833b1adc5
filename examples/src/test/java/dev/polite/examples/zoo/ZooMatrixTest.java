package dev.polite.examples.zoo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.polite.demo.Algorithm;
import dev.polite.demo.HeaderStyle;
import dev.polite.demo.SecondPolicy;
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
        "token-bucket/used-limit", "token-bucket/azure", "token-bucket/retry-after", "token-bucket/retry-after-ms",
        "token-bucket/retry-after-date", "token-bucket/none", "fixed-window/none", "fixed-window/ietf",
        "fixed-window/used-limit", "fixed-window/azure", "sliding-log/none", "sliding-log/ietf", "leaky-queue/none",
        "leaky-queue/ietf", "concurrency/x-ratelimit", "concurrency/github-403", "concurrency/none",
        "fixed-window/wrong-reset", "quota/spent", "budgets/x-ratelimit", "budgets/unnamed", "policies/ietf",
        "block/restarted", "refuses/everything", "hints/unusable", "haproxy");
    assertThat(polite).hasSize(29 * 4);
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

    // The cap, the quota, the two budgets, the two policies, the block, the limiter that refuses
    // everything and the unusable hints are limiters of their own (a peer that reads no header still
    // meets search's floor on the budgets); GitHub's 403 differs from the 429 only for a peer that
    // retries, the bare 429 only for a reader of Retry-After; no peer reads a budget's name or a reset,
    // nor the counts with no reset.
    List<String> ownLimiters = List.of("quota/spent", "budgets/x-ratelimit", "policies/ietf", "block/restarted",
        "refuses/everything", "hints/unusable");
    assertThat(names(cellsOf(matrix, ClientKind.NAIVE))).containsExactlyElementsOf(concat(List.of("token-bucket/ietf",
        "fixed-window/ietf", "sliding-log/ietf", "leaky-queue/ietf", "concurrency/x-ratelimit", "concurrency/github-403"),
        ownLimiters, List.of("haproxy")));
    assertThat(names(cellsOf(matrix, ClientKind.PACED))).as("it never retries: a 403 is a 429 to it")
        .containsExactlyElementsOf(concat(List.of("token-bucket/ietf", "fixed-window/ietf", "sliding-log/ietf",
            "leaky-queue/ietf", "concurrency/x-ratelimit"), ownLimiters, List.of("haproxy")));
    List<String> retryAfterShapes = concat(List.of("token-bucket/retry-after", "token-bucket/retry-after-date",
        "token-bucket/none", "fixed-window/ietf", "sliding-log/ietf", "leaky-queue/ietf", "concurrency/x-ratelimit",
        "concurrency/github-403", "concurrency/none"), ownLimiters, List.of("haproxy"));
    assertThat(names(cellsOf(matrix, ClientKind.RETRY_AFTER))).containsExactlyElementsOf(retryAfterShapes);
    assertThat(names(cellsOf(matrix, ClientKind.FAILSAFE))).containsExactlyElementsOf(retryAfterShapes);
  }

  @Test
  void theFullZooIsItsRowsTimesItsColumnsLessThePeersRepeats() {
    ZooMatrix full = ZooMatrix.full(ZooMatrix.Selection.DEFAULT, HAPROXY);
    ZooMatrix every = ZooMatrix.full(new ZooMatrix.Selection(List.of(), List.of(), List.of(), true), HAPROXY);

    assertThat(ZooMatrix.servers(HAPROXY)).hasSize(29);
    assertThat(every.cells()).hasSize(7 * 29 * 4);
    // polite, polite-jdk and polite-adaptive 29 rows each, naive 13, paced 12, retry-after and failsafe 16 each
    assertThat(full.cells()).hasSize((29 + 29 + 29 + 13 + 12 + 16 + 16) * 4);
    assertThat(every.cells().size() - full.cells().size()).as("the peers' repeats").isEqualTo(4 * (4 * 29 - 57));
  }

  @Test
  void theShapesOfALimitAreEachTheFlagsTheyName() {
    List<ZooServer> shapes = ZooMatrix.servers(NO_HAPROXY).stream().filter(ZooServer::shaped).toList();

    assertThat(shapes).extracting(ZooServer::name).containsExactly("concurrency/x-ratelimit",
        "concurrency/github-403", "concurrency/none", "fixed-window/wrong-reset", "quota/spent", "budgets/x-ratelimit",
        "budgets/unnamed", "policies/ietf", "block/restarted", "refuses/everything", "hints/unusable");
    DemoZooServer cap = (DemoZooServer) shapes.get(0);
    assertThat(cap.shape()).isEqualTo(Shape.cap(2, Duration.ofMillis(50), 429));
    assertThat(cap.headers()).isEqualTo(HeaderStyle.X_RATELIMIT);
    assertThat(cap.limit()).as("far above the 40 per second a cap of 2 x 50 ms lets through").isEqualTo(1000);
    assertThat(cap.capacity()).isEqualTo(1000);
    assertThat(((DemoZooServer) shapes.get(1)).shape().rejectStatus()).isEqualTo(403);
    DemoZooServer bare = (DemoZooServer) shapes.get(2);
    assertThat(bare.shape()).as("the same cap").isEqualTo(cap.shape());
    assertThat(bare.headers()).as("a bare 429: no Retry-After, no headers").isEqualTo(HeaderStyle.NONE);
    assertThat(bare.limit()).isEqualTo(1000);
    DemoZooServer wrongReset = (DemoZooServer) shapes.get(3);
    assertThat(wrongReset.algorithm()).isEqualTo(Algorithm.FIXED_WINDOW);
    assertThat(wrongReset.shape().wrongResetEvery()).isEqualTo(10);
    assertThat(wrongReset.limit()).isEqualTo(20);
    assertThat(wrongReset.window()).isEqualTo(Duration.ofSeconds(1));
    DemoZooServer quota = (DemoZooServer) shapes.get(4);
    assertThat(quota.algorithm()).isEqualTo(Algorithm.FIXED_WINDOW);
    assertThat(quota.window()).isEqualTo(Duration.ofHours(1));
    assertThat(quota.shape().rejectStatus()).isEqualTo(403);
    assertThat(quota.quota()).hasValue(20);
    assertThat(quota.floorSeconds(100)).as("the bound, shown as the floor").isEqualTo(Verdict.SPENT_QUOTA_SECONDS);
    assertThat(quota.description()).contains("20 per 1 h", "403");
    assertThat(quota.targets()).isEqualTo(new Targets.SpentQuota(20));
    assertThat(shapes.subList(0, 4)).allMatch(server -> server.quota().isEmpty() && server.targets() == Targets.USUAL);
    assertThat(ZooMatrix.servers(NO_HAPROXY).stream().filter(server -> !server.shaped()))
        .allMatch(server -> server.quota().isEmpty() && server.rate() == 20.0 && server.targets() == Targets.USUAL);
    assertThat(shapes).filteredOn(server -> !((DemoZooServer) server).shape().split().none())
        .extracting(ZooServer::name).containsExactly("budgets/x-ratelimit", "budgets/unnamed");
  }

  @Test
  void theTwoBudgetsAreGithubsCoreAndSearchOnAFixedWindow() {
    DemoZooServer budgets = (DemoZooServer) ZooMatrix.servers(NO_HAPROXY).stream()
        .filter(server -> server.name().equals("budgets/x-ratelimit")).findFirst().orElseThrow();

    assertThat(budgets.algorithm()).isEqualTo(Algorithm.FIXED_WINDOW);
    assertThat(budgets.headers()).isEqualTo(HeaderStyle.X_RATELIMIT);
    assertThat(budgets.limit()).as("core").isEqualTo(20);
    assertThat(budgets.window()).isEqualTo(Duration.ofSeconds(1));
    Split split = budgets.shape().split();
    assertThat(split.mainCalls()).isEqualTo(3);
    assertThat(split.routes()).containsExactly(
        new Route("/api/search", "search", 5, Duration.ofSeconds(1), 1));
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
  void theUnnamedBudgetsAreGithubsTwoInXsDialectWithNoNameAndOnlyPoliteRunsThem() {
    DemoZooServer unnamed = server("budgets/unnamed");
    DemoZooServer named = server("budgets/x-ratelimit");

    assertThat(unnamed.headers()).isEqualTo(HeaderStyle.X_RATE_LIMIT);
    assertThat(unnamed.algorithm()).isEqualTo(Algorithm.FIXED_WINDOW);
    assertThat(unnamed.shape().split()).isEqualTo(named.shape().split().unnamed());
    assertThat(unnamed.shape().split().named()).isFalse();
    assertThat(unnamed.floorSeconds(100)).isEqualTo(named.floorSeconds(100));
    assertThat(unnamed.rate()).isEqualTo(named.rate());
    assertThat(unnamed.description()).contains("no answer naming its own", "x-rate-limit headers");
    for (ClientKind peer : List.of(ClientKind.NAIVE, ClientKind.PACED, ClientKind.RETRY_AFTER, ClientKind.FAILSAFE)) {
      assertThat(ZooMatrix.tells(peer, unnamed)).as(peer.cliName()).isFalse();
    }
    assertThat(ZooMatrix.tells(ClientKind.POLITE_JDK, unnamed)).isTrue();
  }

  @Test
  void theTwoPoliciesAreTheBucketAndAWindowOfSixtyPerFiveSecondsBothBinding() {
    DemoZooServer policies = server("policies/ietf");

    assertThat(policies.headers()).isEqualTo(HeaderStyle.IETF);
    assertThat(policies.shape().secondPolicy()).isEqualTo(new SecondPolicy("window", 60, Duration.ofSeconds(5)));
    assertThat(policies.floorSeconds(100)).as("more than the bucket's 4 s and the window's 5 s")
        .isCloseTo(6.0, within(1e-9));
    assertThat(policies.floorSeconds(100, 16)).isEqualTo(policies.floorSeconds(100));
    assertThat(policies.rate()).as("the window's 12 a second, below the bucket's 20").isEqualTo(12.0);
    assertThat(policies.burst()).isEqualTo(20);
    assertThat(policies.targets()).isEqualTo(Targets.USUAL);
    assertThat(policies.description()).contains("\"window\": a fixed window of 60 per 5 s");
    assertThat(policies.floorRule()).contains("starts as the window opens");
  }

  @Test
  void theBlockIsTheTokenBucketsWithRetryAfterOnlyAndItsOwnFloor() {
    DemoZooServer block = server("block/restarted");

    assertThat(block.shape().blockFor()).isEqualTo(Duration.ofSeconds(1));
    assertThat(block.headers()).isEqualTo(HeaderStyle.RETRY_AFTER);
    assertThat(block.floorSeconds(100)).as("a client that never goes over never meets the block").isEqualTo(4.0);
    assertThat(block.targets()).isEqualTo(Targets.USUAL);
    assertThat(block.description()).contains("blocked for 1 s", "restarting it");
    assertThat(block.floorRule()).contains("never meets the block");
  }

  @Test
  void aLimiterThatRefusesEverythingIsJudgedByItsOwnBound() {
    DemoZooServer refuses = server("refuses/everything");

    assertThat(refuses.shape().refuseAll()).isTrue();
    assertThat(refuses.targets()).isEqualTo(new Targets.RefusesEverything());
    assertThat(refuses.targets().floorIsBound()).isTrue();
    assertThat(refuses.floorSeconds(100, 64)).isEqualTo(Verdict.REFUSES_EVERYTHING_SECONDS);
    assertThat(refuses.quota()).isEmpty();
    assertThat(refuses.floorRule()).startsWith("no floor but a bound");
    for (ClientKind peer : List.of(ClientKind.NAIVE, ClientKind.PACED, ClientKind.RETRY_AFTER, ClientKind.FAILSAFE)) {
      assertThat(ZooMatrix.tells(peer, refuses)).as(peer.cliName()).isTrue();
    }
  }

  @Test
  void unusableHintsFloorAtTheBucketsFloorOfTheCallsTheServerAdmits() {
    DemoZooServer hints = server("hints/unusable");

    assertThat(hints.shape().bogusRefusalEvery()).isEqualTo(10);
    assertThat(hints.limit()).as("the zoo's bucket, 20 a second").isEqualTo(20);
    assertThat(hints.targets()).isEqualTo(new Targets.UnusableHints(10));
    // 90 calls admitted (every 10th answer refused): the burst of 20, then 70 at 20 a second
    for (int callers : List.of(1, 4, 16, 64)) {
      assertThat(hints.floorSeconds(100, callers)).isCloseTo(3.5, within(1e-9));
    }
    assertThat(hints.floorSeconds(100)).isCloseTo(3.5, within(1e-9));
    // With a latency, the admitted calls' waves over the callers where those are longer
    DemoZooServer slow = new DemoZooServer("hints/slow", Algorithm.TOKEN_BUCKET, HeaderStyle.RETRY_AFTER, 1000,
        Duration.ofSeconds(1), 1000, Duration.ZERO, Shape.unusableHints(10, Duration.ofMillis(50)));
    assertThat(slow.floorSeconds(100, 4)).as("23 waves").isCloseTo(1.15, within(1e-9));
    assertThat(hints.description()).contains("every 10th answer a refusal", "86400");
  }

  @Test
  void theBareCapRunsForThePeersThatReadRetryAfterAndTheCountsWithNoResetForPoliteAlone() {
    DemoZooServer bare = server("concurrency/none");
    assertThat(ZooMatrix.tells(ClientKind.RETRY_AFTER, bare)).isTrue();
    assertThat(ZooMatrix.tells(ClientKind.FAILSAFE, bare)).isTrue();
    assertThat(ZooMatrix.tells(ClientKind.NAIVE, bare)).as("a cap refusal is retried at once either way").isFalse();
    assertThat(ZooMatrix.tells(ClientKind.PACED, bare)).isFalse();
    for (String name : List.of("token-bucket/azure", "fixed-window/azure", "fixed-window/used-limit")) {
      DemoZooServer counts = server(name);
      assertThat(counts.shaped()).as(name + ": 20 per second in a dialect").isFalse();
      assertThat(counts.floorSeconds(100)).isEqualTo(4.0);
      for (ClientKind peer : List.of(ClientKind.NAIVE, ClientKind.PACED, ClientKind.RETRY_AFTER, ClientKind.FAILSAFE)) {
        assertThat(ZooMatrix.tells(peer, counts)).as(name + " " + peer.cliName()).isFalse();
      }
    }
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
  void quickIsPoliteOnOkHttpAndTheJdkOnTheCellsThatMatterMostAdaptiveOnOneAndTheOtherEnginesOnFour() {
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
        "concurrency/x-ratelimit@4", "concurrency/github-403@16", "concurrency/none@16",
        "fixed-window/used-limit@16", "budgets/unnamed@16", "policies/ietf@64", "block/restarted@16",
        "refuses/everything@16", "hints/unusable@64");
    assertThat(cellsOf(quick, ClientKind.POLITE_JDK)).as("the JDK's client on the very same cells")
        .extracting(cell -> cell.server().name() + "@" + cell.concurrency()).containsExactlyElementsOf(polite);
    assertThat(cellsOf(quick, ClientKind.POLITE_ADAPTIVE)).hasSize(1);
    for (ClientKind engine : ZooMatrix.QUICK_ENGINES) {
      assertThat(cellsOf(quick, engine)).as(engine.cliName() + ": the cells where an adapter can go wrong")
          .extracting(cell -> cell.server().name() + "@" + cell.concurrency())
          .containsExactly("token-bucket/none@16", "concurrency/none@16", "hints/unusable@64", "refuses/everything@16");
    }
    assertThat(quick.cells()).hasSize(26 + 26 + 1 + 3 * 4);
    assertThat(quick.cells()).extracting(ZooCell::client)
        .containsOnly(ClientKind.POLITE, ClientKind.POLITE_JDK, ClientKind.POLITE_ADAPTIVE, ClientKind.POLITE_SPRING,
            ClientKind.POLITE_WEBCLIENT, ClientKind.POLITE_HC5);
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

  private static DemoZooServer server(String name) {
    return (DemoZooServer) ZooMatrix.servers(NO_HAPROXY).stream().filter(server -> server.name().equals(name))
        .findFirst().orElseThrow();
  }

  @SafeVarargs
  private static List<String> concat(List<String>... parts) {
    return java.util.Arrays.stream(parts).flatMap(List::stream).toList();
  }

  private static List<ZooCell> cellsOf(ZooMatrix matrix, ClientKind client) {
    return matrix.cells().stream().filter(cell -> cell.client() == client).toList();
  }

  private static List<String> names(List<ZooCell> cells) {
    return cells.stream().map(cell -> cell.server().name()).distinct().toList();
  }
}
