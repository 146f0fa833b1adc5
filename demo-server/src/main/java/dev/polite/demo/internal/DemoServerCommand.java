package dev.polite.demo.internal;

import dev.polite.demo.Algorithm;
import dev.polite.demo.DemoServer;
import dev.polite.demo.DemoServerConfig;
import dev.polite.demo.HeaderStyle;
import dev.polite.demo.WhenDown;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * The {@code polite-demo-server} command: flags to a {@link DemoServerConfig}, then a running
 * server until the process is stopped. A flag that does not parse, or a combination the
 * configuration refuses, prints the reason and the usage to stderr and exits 2.
 */
@Command(
    name = "polite-demo-server",
    mixinStandardHelpOptions = true,
    version = "polite-demo-server 0.1.0-SNAPSHOT",
    sortOptions = false,
    usageHelpAutoWidth = true,
    description = {
        "A rate-limited HTTP API to measure clients against.",
        "Every path under /api/ is limited (200 with a JSON body, or 429 with Retry-After);",
        "GET /stats gives per-key counts and a per-second timeline; POST /stats/reset clears them;",
        "/health is never limited. First stdout line: polite-demo-server listening on http://HOST:PORT"})
public final class DemoServerCommand implements Callable<Integer> {

  @Spec
  CommandSpec spec;

  @Option(names = "--host", paramLabel = "ADDRESS", description = "Address to bind (default: ${DEFAULT-VALUE}).")
  String host = "127.0.0.1";

  @Option(names = "--port", paramLabel = "PORT", description = "Port to bind; 0 picks a free one (default: ${DEFAULT-VALUE}).")
  int port = 8080;

  @Option(names = "--algorithm", paramLabel = "NAME",
      description = "token-bucket|gcra|leaky-meter|leaky-queue|fixed-window|sliding-log|sliding-counter (default: ${DEFAULT-VALUE}).")
  String algorithm = "token-bucket";

  @Option(names = "--limit", paramLabel = "N", description = "Requests (units) per window (default: ${DEFAULT-VALUE}).")
  long limit = 10;

  @Option(names = "--window", paramLabel = "DURATION",
      description = "The window: 500ms, 10s, 1m, PT1H... Buckets hold N and refill N per window (default: ${DEFAULT-VALUE}).")
  String window = "1s";

  @Option(names = "--burst", paramLabel = "B",
      description = "Bucket capacity when it differs from --limit (bucket algorithms only; default: the limit).")
  long burst;

  @Option(names = "--headers", paramLabel = "STYLE",
      description = "ietf (draft-11 RateLimit + RateLimit-Policy)|legacy (RateLimit-Limit/-Remaining/-Reset)"
          + "|x-ratelimit (GitHub style, epoch reset)|used-limit (Shopify's X-Shopify-Shop-Api-Call-Limit: used/limit)"
          + "|retry-after (only Retry-After seconds on a 429)|retry-after-ms (retry-after-ms + Retry-After on a 429)"
          + "|retry-after-date (Retry-After as an HTTP-date, with Date)|none (nothing at all: a bare 429) (default: ${DEFAULT-VALUE}).")
  String headers = "ietf";

  @Option(names = "--clock-skew", paramLabel = "DURATION",
      description = "How far the server's stated clock (Date, HTTP-date Retry-After, epoch resets) runs ahead; "
          + "negative for behind: 60s, -30s (default: ${DEFAULT-VALUE}).")
  String clockSkew = "0s";

  @Option(names = "--store", paramLabel = "STORE", description = "memory|redis://HOST:PORT (default: ${DEFAULT-VALUE}).")
  String store = "memory";

  @Option(names = "--when-down", paramLabel = "MODE",
      description = "With Redis, when it does not answer: open|closed|local (limit ÷ nodes from memory) (default: ${DEFAULT-VALUE}).")
  String whenDown = "open";

  @Option(names = "--nodes", paramLabel = "N", description = "Nodes sharing the limit, for --when-down local (default: ${DEFAULT-VALUE}).")
  int nodes = 1;

  @Option(names = "--redis-timeout", paramLabel = "DURATION", description = "Redis connect and read timeout (default: ${DEFAULT-VALUE}).")
  String redisTimeout = "20ms";

  @Option(names = "--trusted-proxies", paramLabel = "ADDR[,ADDR...]", split = ",", hideParamSyntax = true,
      description = "Proxies (addresses or CIDR ranges) whose X-Forwarded-For is believed, read from the right (default: none).")
  List<String> trustedProxies = new ArrayList<>();

  @Option(names = "--api-key-header", paramLabel = "NAME", description = "Header carrying an API key, which beats the address as the key (default: ${DEFAULT-VALUE}).")
  String apiKeyHeader = "X-Api-Key";

  @Option(names = "--cost", paramLabel = "PREFIX=UNITS",
      description = "Weighted cost of a route, repeatable: --cost /api/export=5 (longest prefix wins; default cost 1).")
  List<String> costs = new ArrayList<>();

  @Option(names = "--concurrency", paramLabel = "N", description = "Most requests in flight per key; 0 = no limit (default: ${DEFAULT-VALUE}).")
  int concurrency;

  @Option(names = "--latency", paramLabel = "DURATION", description = "Simulated work per admitted request, holding no thread (default: ${DEFAULT-VALUE}).")
  String latency = "0ms";

  @Option(names = "--dry-run", description = "Count and log would-be rejections, never reject.")
  boolean dryRun;

  @Option(names = "--max-keys", paramLabel = "N", description = "Most keys held in memory, least recently used dropped first (default: ${DEFAULT-VALUE}).")
  int maxKeys = 100_000;

  private final CountDownLatch stopped = new CountDownLatch(1);

  /** Parses {@code args}, runs the server until the JVM stops; returns the exit code. */
  public static int run(String[] args) {
    CommandLine commandLine = new CommandLine(new DemoServerCommand());
    commandLine.setErr(new PrintWriter(System.err, true));
    return commandLine.execute(args);
  }

  /** Whether {@code args} only ask for help or the version. */
  public static boolean isInformational(String[] args) {
    for (String arg : args) {
      if (arg.equals("--help") || arg.equals("-h") || arg.equals("--version") || arg.equals("-V")) {
        return true;
      }
    }
    return false;
  }

  /** The configuration these flags describe. */
  DemoServerConfig config() {
    try {
      DemoServerConfig.Builder builder = DemoServerConfig.builder()
          .host(host)
          .port(port)
          .algorithm(Algorithm.parse(algorithm))
          .limit(limit)
          .window(DurationText.parse("window", window))
          .burst(burst)
          .headers(HeaderStyle.parse(headers))
          .clockSkew(DurationText.parseSigned("clock-skew", clockSkew))
          .store(store)
          .whenDown(WhenDown.parse(whenDown))
          .nodes(nodes)
          .redisTimeout(DurationText.parse("redis-timeout", redisTimeout))
          .trustedProxies(trustedProxies)
          .apiKeyHeader(apiKeyHeader)
          .concurrency(concurrency)
          .latency(DurationText.parse("latency", latency))
          .dryRun(dryRun)
          .maxKeys(maxKeys);
      for (String cost : costs) {
        int eq = cost.lastIndexOf('=');
        if (eq <= 0) {
          throw new IllegalArgumentException("cost: expected PREFIX=UNITS, was '" + cost + "'");
        }
        try {
          builder.routeCost(cost.substring(0, eq), Integer.parseInt(cost.substring(eq + 1).trim()));
        } catch (NumberFormatException e) {
          throw new IllegalArgumentException("cost: '" + cost + "' has no whole number of units", e);
        }
      }
      return builder.build();
    } catch (IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(), e.getMessage(), e);
    }
  }

  @Override
  public Integer call() throws InterruptedException {
    DemoServerConfig config = config();
    DemoServer server = DemoServer.start(config);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      server.close();
      stopped.countDown();
    }, "polite-demo-server-shutdown"));
    System.out.println("polite-demo-server listening on " + server.url());
    System.out.flush();
    stopped.await();
    return 0;
  }
}
