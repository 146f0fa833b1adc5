package dev.polite.examples.nodes;

import dev.polite.demo.Algorithm;
import dev.polite.demo.DemoServer;
import dev.polite.demo.DemoServerConfig;
import dev.polite.demo.WhenDown;
import dev.polite.examples.LocalRedis;
import dev.polite.examples.lessons.LessonOptions;
import dev.polite.examples.lessons.LessonOutput;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import okhttp3.ConnectionPool;
import okhttp3.Dispatcher;
import okhttp3.OkHttpClient;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * {@code nodes}: the reference's "Many nodes, one limit", on real nodes. Starts, in this process,
 * N demo servers per design (each alone with the full limit; each with limit ÷ N; shared and
 * atomic in Redis; synced with Redis every S) and one real redis-server, and sends the same
 * open-loop traffic to every design at once, printing admitted per second beside the reference's
 * numbers and the latency the client saw:
 *
 * <ol>
 *   <li>the client on all N nodes at 3 × the limit, with the synced design at four intervals;
 *   <li>the client on one node (the limit ÷ N design falls to a tenth);
 *   <li>Redis frozen for 3 s (the shared design fails open; the synced one falls back to its
 *       share);
 *   <li>a client sending exactly the limit, each request to a random node of N allowing limit ÷ N
 *       each: the share rejected by randomness alone.
 * </ol>
 *
 * <p>The reference's simulation counts in one-second windows (its 12 % is what a fixed window of
 * 10 makes of a binomial 10-ish), so the default algorithm here is the fixed window; with a token
 * bucket the synced design pays its overshoot back and averages the limit.
 *
 * <p>Usage: {@code java -jar polite-examples.jar nodes [--json] [--seconds 8] [--scale 0.5]}
 */
@Command(name = "nodes",
    description = {"Many nodes, one limit: N real demo servers per design (each alone; each with limit / N; shared "
        + "in Redis; synced every S) on the same open-loop traffic, admitted per second beside the reference's. "
        + "Starts redis-server from the PATH.",
        "With --json: one object per lane and scenario, the reference's figure (scaled) in 'reference'."},
    usageHelpAutoWidth = true)
public final class NodesCommand implements Callable<Integer> {
  private static final int WARMUP_SECONDS = 2; // the first scenario warms 40 servers and the client up

  @Mixin
  LessonOptions options;

  @Spec
  CommandSpec spec;

  @Option(names = "--seconds", paramLabel = "N", description = "Counted seconds per scenario (default: ${DEFAULT-VALUE}).")
  int seconds = 8;

  @Option(names = "--nodes", paramLabel = "N", description = "Nodes per design (default: ${DEFAULT-VALUE}).")
  int nodes = 10;

  @Option(names = "--scale", paramLabel = "F",
      description = "Multiplies the limit (100/s) and the client's rates (300/s, 100/s), for a machine that cannot "
          + "drive them honestly (default: ${DEFAULT-VALUE}).")
  double scale = 1.0;

  @Option(names = "--sync-intervals", paramLabel = "MS[,MS...]", split = ",",
      description = "Sync intervals of the synced designs, in milliseconds; the first is the one in every scenario "
          + "(default: 200,20,100,500).")
  List<Integer> syncIntervals = new ArrayList<>(List.of(200, 20, 100, 500));

  @Option(names = "--outage", paramLabel = "SECONDS", description = "How long Redis is frozen (default: ${DEFAULT-VALUE}).")
  int outage = 3;

  @Option(names = "--algorithm", paramLabel = "NAME",
      description = "fixed-window, sliding-counter or token-bucket (default: ${DEFAULT-VALUE}).")
  String algorithm = "fixed-window";

  private long limit;
  private Algorithm chosen = Algorithm.FIXED_WINDOW;

  @Override
  public Integer call() throws Exception {
    check();
    LessonOutput out = options.output();
    limit = Math.max(nodes, Math.round(100 * scale));
    double clientRate = 300 * scale;
    ExecutorService callbacks = Executors.newCachedThreadPool(task -> {
      Thread thread = new Thread(task, "nodes-client");
      thread.setDaemon(true);
      return thread;
    });
    Dispatcher dispatcher = new Dispatcher(callbacks);
    dispatcher.setMaxRequests(4096);
    dispatcher.setMaxRequestsPerHost(4096);
    OkHttpClient http = new OkHttpClient.Builder().dispatcher(dispatcher)
        .connectionPool(new ConnectionPool(400, 1, java.util.concurrent.TimeUnit.MINUTES))
        .retryOnConnectionFailure(false).callTimeout(Duration.ofSeconds(5)).build();
    long started = System.nanoTime();
    out.text(String.format(Locale.ROOT, "nodes: %d demo servers per design, all in this process, limit %d/s (%s, "
            + "1 s window), a real redis-server; %d counted s per scenario after %d s of warm-up%s",
        nodes, limit, chosen.cliName(), seconds, WARMUP_SECONDS,
        scale == 1.0 ? "" : String.format(Locale.ROOT, "; rates scaled by %.2f (the reference's numbers too)", scale)));
    try (LocalRedis redis = LocalRedis.start()) {
      spread(out, http, redis, clientRate);
      oneNode(out, http, redis, clientRate);
      storeDown(out, http, redis, clientRate);
      randomness(out, http);
    } finally {
      dispatcher.executorService().shutdown();
      http.connectionPool().evictAll();
    }
    out.text(String.format(Locale.ROOT, "took %.0f s", (System.nanoTime() - started) / 1e9));
    return 0;
  }

  private void check() {
    if (seconds < 1 || seconds > 600) {
      throw new ParameterException(spec.commandLine(), "--seconds: must be 1 to 600, was " + seconds);
    }
    if (nodes < 2 || nodes > 50) {
      throw new ParameterException(spec.commandLine(), "--nodes: must be 2 to 50, was " + nodes);
    }
    if (!(scale >= 0.05 && scale <= 10)) {
      throw new ParameterException(spec.commandLine(), "--scale: must be 0.05 to 10, was " + scale);
    }
    if (outage < 1 || outage >= seconds + WARMUP_SECONDS + 60) {
      throw new ParameterException(spec.commandLine(), "--outage: must be 1 s or more, was " + outage);
    }
    if (syncIntervals.isEmpty() || syncIntervals.stream().anyMatch(ms -> ms < 1 || ms > 10_000)) {
      throw new ParameterException(spec.commandLine(), "--sync-intervals: each must be 1 to 10000 ms, was "
          + syncIntervals);
    }
    try {
      chosen = Algorithm.parse(algorithm);
    } catch (IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(), "--algorithm: " + e.getMessage());
    }
    if (chosen != Algorithm.FIXED_WINDOW && chosen != Algorithm.SLIDING_COUNTER && chosen != Algorithm.TOKEN_BUCKET) {
      throw new ParameterException(spec.commandLine(),
          "--algorithm: one of fixed-window, sliding-counter, token-bucket, was " + algorithm);
    }
  }

  /** The client on every node at 3 × the limit: the four designs, then the synced one at each interval. */
  private void spread(LessonOutput out, OkHttpClient http, LocalRedis redis, double clientRate) throws Exception {
    measure(out, http, mainLanes("spread", redis, clientRate, 298.0, 100.0, 100.0, 155.0), clientRate, nodes, false,
        "spread", String.format(Locale.ROOT, "client on all %d nodes, %.0f/s round robin", nodes, clientRate),
        second -> { });
    // The sweep on its own traffic: eleven designs at once would be more than two cores can drive.
    List<NodeLane> lanes = new ArrayList<>();
    try {
      for (int ms : syncIntervals.stream().sorted().toList()) {
        lanes.add(synced("sync-interval", redis, ms, referenceSynced(ms), clientRate));
      }
    } catch (RuntimeException e) {
      lanes.forEach(NodeLane::close);
      throw e;
    }
    measure(out, http, lanes, clientRate, nodes, false, "sync-interval",
        String.format(Locale.ROOT, "the synced design's interval, client on all %d nodes, %.0f/s", nodes, clientRate),
        second -> { });
  }

  /** The client pinned to one node: the share design falls to limit ÷ N. */
  private void oneNode(LessonOutput out, OkHttpClient http, LocalRedis redis, double clientRate) throws Exception {
    measure(out, http, mainLanes("one-node", redis, clientRate, null, 10.0, 100.0, null), clientRate, 1, false,
        "one-node", String.format(Locale.ROOT, "client on 1 of %d nodes, %.0f/s", nodes, clientRate), second -> { });
  }

  /** Redis frozen from counted second 1 for {@code outage} seconds: the shared and synced designs. */
  private void storeDown(LessonOutput out, OkHttpClient http, LocalRedis redis, double clientRate) throws Exception {
    int length = Math.max(seconds, outage + 3); // a second before, the outage, its end, a second after
    List<NodeLane> lanes = List.of(
        NodeLane.start("shared atomic (Redis), fails open", clientRate, "down-shared", nodes,
            node(redis.uri()).whenDown(WhenDown.OPEN), length, expected(clientRate, length)),
        // The reference's synced lane keeps its local counts, a full limit per node (about the
        // client's rate); this store's local fallback is the share, limit / N, so about the limit.
        NodeLane.start("synced every " + syncIntervals.get(0) + " ms, local share", clientRate, "down-synced",
            nodes, node("synced:" + redis.uri()).syncInterval(Duration.ofMillis(syncIntervals.get(0)))
                .whenDown(WhenDown.LOCAL).nodes(nodes), length, expected(clientRate, length)));
    try {
      NodeTraffic traffic = new NodeTraffic(http, lanes, clientRate, nodes, false);
      traffic.run(WARMUP_SECONDS, length, second -> {
        try {
          if (second == 1) {
            redis.freeze();
          } else if (second == 1 + outage) {
            redis.thaw();
          }
        } catch (IOException | InterruptedException e) {
          throw new IllegalStateException("cannot freeze or thaw redis-server", e);
        }
      });
      redis.thaw(); // in case the run ended inside the outage
      out.text(String.format(Locale.ROOT, "Redis frozen for %d s (SIGSTOP), client on all %d nodes, %.0f/s:"
          + "%32s before  during  after   reference during", outage, nodes, clientRate, ""));
      for (NodeLane lane : lanes) {
        double before = lane.admittedPerSecond(0, 1);
        double during = lane.admittedPerSecond(1, 1 + outage);
        double after = lane.admittedPerSecond(2 + outage, length);
        out.row(String.format(Locale.ROOT, "  %-44s %38.0f %7.0f %7.0f   %s", lane.name(), before, during, after,
                referenceText(lane.reference())),
            LessonOutput.fields("lesson", "nodes", "scenario", "store-down", "lane", lane.name(),
                "before_per_second", before, "during_per_second", during, "after_per_second", after,
                "outage_seconds", outage, "each_second", lane.admittedEachSecond(), "reference", lane.reference(),
                "failed", lane.failed()));
      }
    } finally {
      redis.thaw();
      lanes.forEach(NodeLane::close);
    }
  }

  /** Exactly the limit, each request to a random node allowing limit ÷ N: what randomness alone costs. */
  private void randomness(LessonOutput out, OkHttpClient http) throws Exception {
    double rate = limit;
    try (NodeLane lane = NodeLane.start("random spread", 12.0, "random", nodes,
        node("memory").limit(limit / nodes), seconds, expected(rate, seconds))) {
      new NodeTraffic(http, List.of(lane), rate, nodes, true).run(WARMUP_SECONDS, seconds, second -> { });
      long answered = lane.admitted() + lane.rejected();
      double share = answered == 0 ? 0 : 100.0 * lane.rejected() / answered;
      out.row(String.format(Locale.ROOT, "randomness: %.0f/s, each request to a random one of %d nodes allowing %d/s "
              + "each: %.1f %% rejected (reference: about 12 %%)", rate, nodes, limit / nodes, share),
          LessonOutput.fields("lesson", "nodes", "scenario", "randomness", "lane", lane.name(), "rate", rate,
              "nodes", nodes, "rejected_percent", Math.round(share * 10) / 10.0, "reference", 12.0,
              "failed", lane.failed()));
    }
  }

  /** Each alone (full limit), each with the share, shared, synced at the first interval. */
  private List<NodeLane> mainLanes(String scenario, LocalRedis redis, double clientRate, @Nullable Double alone,
      @Nullable Double share, @Nullable Double shared, @Nullable Double synced) {
    List<NodeLane> lanes = new ArrayList<>();
    try {
      lanes.add(NodeLane.start("each alone, full limit", scaled(alone), scenario + "-alone", nodes, node("memory"),
          seconds, expected(clientRate, seconds)));
      lanes.add(NodeLane.start("each alone, limit / N", scaled(share), scenario + "-share", nodes,
          node("memory").limit(limit / nodes), seconds, expected(clientRate, seconds)));
      lanes.add(NodeLane.start("shared atomic (Redis)", scaled(shared), scenario + "-shared", nodes,
          node(redis.uri()), seconds, expected(clientRate, seconds)));
      lanes.add(synced(scenario, redis, syncIntervals.get(0), synced, clientRate));
      return lanes;
    } catch (RuntimeException e) {
      lanes.forEach(NodeLane::close);
      throw e;
    }
  }

  private NodeLane synced(String scenario, LocalRedis redis, int ms, @Nullable Double reference, double clientRate) {
    return NodeLane.start("synced every " + ms + " ms", scaled(reference), scenario + "-synced-" + ms, nodes,
        node("synced:" + redis.uri()).syncInterval(Duration.ofMillis(ms)).whenDown(WhenDown.LOCAL).nodes(nodes),
        seconds, expected(clientRate, seconds));
  }

  /**
   * One node's configuration. The Redis timeout is 100 ms rather than the server's 20 ms: with
   * dozens of servers and the client on two shared cores, a 20 ms stall is load, not an outage,
   * and a shared lane failing open on it would be measured as admitting too much.
   */
  private DemoServerConfig.Builder node(String store) {
    return DemoServer.builder().algorithm(chosen).limit(limit).window(Duration.ofSeconds(1)).store(store)
        .redisTimeout(Duration.ofMillis(100)).maxConnectionsPerClient(0);
  }

  private void measure(LessonOutput out, OkHttpClient http, List<NodeLane> lanes, double rate, int reach,
      boolean random, String scenario, String title, java.util.function.IntConsumer onSecond) throws Exception {
    try {
      NodeTraffic traffic = new NodeTraffic(http, lanes, rate, reach, random);
      traffic.run(WARMUP_SECONDS, seconds, onSecond);
      out.text(String.format(Locale.ROOT, "%-58s admitted/s  reference   latency p50 / p99 (ms)", title + ":"));
      for (NodeLane lane : lanes) {
        double perSecond = lane.admittedPerSecond(0, seconds);
        out.row(String.format(Locale.ROOT, "  %-56s %9.1f  %9s   %6.2f / %6.2f%s", lane.name(), perSecond,
                referenceText(lane.reference()), lane.latencyMillis(0.5), lane.latencyMillis(0.99),
                lane.failed() > 0 ? "   " + lane.failed() + " failed" : ""),
            LessonOutput.fields("lesson", "nodes", "scenario", scenario, "lane", lane.name(), "nodes", nodes,
                "client_nodes", random ? nodes : reach, "rate", rate, "limit", limit,
                "admitted_per_second", Math.round(perSecond * 10) / 10.0,
                "sent_per_second", Math.round(10.0 * (lane.admitted() + lane.rejected() + lane.failed()) / seconds) / 10.0,
                "reference", lane.reference(),
                "rejected", lane.rejected(), "failed", lane.failed(),
                "latency_ms_p50", Math.round(lane.latencyMillis(0.5) * 100) / 100.0,
                "latency_ms_p99", Math.round(lane.latencyMillis(0.99) * 100) / 100.0,
                "sender_max_lag_ms", Math.round(traffic.maxLagMillis() * 10) / 10.0));
      }
      out.text(String.format(Locale.ROOT, "  (the sender ran at most %.1f ms late)", traffic.maxLagMillis()));
    } finally {
      lanes.forEach(NodeLane::close);
    }
  }

  /** The reference's synced lane at the intervals it states (at 300 a second, limit 100). */
  private static @Nullable Double referenceSynced(int ms) {
    switch (ms) {
      case 20:
        return 107.0;
      case 100:
        return 128.0;
      case 200:
        return 155.0;
      case 500:
        return 232.0;
      default:
        return null;
    }
  }

  private @Nullable Double scaled(@Nullable Double reference) {
    return reference == null ? null : Math.round(reference * scale * 10) / 10.0;
  }

  private static String referenceText(@Nullable Double reference) {
    return reference == null ? "-" : String.format(Locale.ROOT, "%.0f", reference);
  }

  private static int expected(double rate, int seconds) {
    return (int) Math.ceil(rate * (seconds + 1)) + 16;
  }
}
