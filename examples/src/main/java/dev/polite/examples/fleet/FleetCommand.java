package dev.polite.examples.fleet;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.polite.demo.DemoServer;
import dev.polite.demo.HeaderStyle;
import dev.polite.examples.LocalRedis;
import java.io.IOException;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import okhttp3.Request;
import okhttp3.Response;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code fleet}: P polite clients on one rate limit, alone and sharing one budget through
 * polite-redis. Starts a real redis-server from the {@code PATH}, then for each header style and
 * each P runs three rows against a fresh in-process demo server (token bucket, 20 a second, burst
 * 20): {@code alone} (P independent instances, today's behaviour), {@code shared} (P instances on
 * one {@code RedisSharedState} budget) and {@code shared, Redis killed} (Redis killed at mid-run
 * and restarted on the same port). The P instances are P child JVMs ({@link ProcessFleet}, one
 * instance each, started and stopped by the command, as a fleet is in production), or, with
 * {@code --in-process} (for tests), isolated client instances in this one process: each its own
 * OkHttpClient, PoliteInterceptor and Redis connection either way.
 *
 * <p>Usage: {@code java -jar polite-examples.jar fleet --instances 1,4,8,16 --headers ietf,none [--in-process] [--json]}
 */
@Command(name = "fleet",
    description = {"P polite client instances of C threads each on one limit (a demo server at 20/s, burst 20, "
        + "fresh per row), for each P and header style: alone (P independent instances), shared (one budget on "
        + "polite-redis), and shared with Redis killed at mid-run and restarted 3 s later. Each instance is a child "
        + "JVM of its own (its own OkHttpClient, PoliteInterceptor and Redis connection), started, warmed up and "
        + "stopped by the command; --in-process runs them all in this JVM instead. Starts redis-server from the PATH.",
        "Prints a table (or, with --json, one JSON object with a rows array as the last line)."},
    usageHelpAutoWidth = true, sortOptions = false)
public final class FleetCommand implements Callable<Integer> {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String IN_PROCESS = "isolated client instances in one process: each its own OkHttpClient "
      + "(dispatcher, connection pool), PoliteInterceptor and, shared, RedisSharedState connection";
  private static final String PROCESSES = "separate JVM processes, one instance each (its own OkHttpClient, "
      + "PoliteInterceptor and, shared, RedisSharedState), started and warmed up before the clock starts";

  @Spec
  CommandSpec spec;

  @Option(names = {"-h", "--help"}, usageHelp = true, description = "Show this help and exit.")
  boolean help;

  @Option(names = "--instances", paramLabel = "P", split = ",", defaultValue = "1,4,8,16",
      description = "Client instances per row, comma-separated (default: ${DEFAULT-VALUE}).")
  List<Integer> instances;

  @Option(names = "--threads", paramLabel = "C", defaultValue = "4",
      description = "Worker threads per instance, each calling in a closed loop (default: ${DEFAULT-VALUE}).")
  int threads;

  @Option(names = "--seconds", paramLabel = "D", defaultValue = "7",
      description = "Length of each row's run, at least 2 (default: ${DEFAULT-VALUE}; 24 rows, about 8 minutes).")
  int seconds;

  @Option(names = "--headers", paramLabel = "STYLE", split = ",", defaultValue = "ietf,none",
      converter = HeaderStyleConverter.class,
      description = "The server's header styles, comma-separated (default: ${DEFAULT-VALUE}).")
  List<HeaderStyle> headers;

  @Option(names = "--in-process",
      description = "Run the P instances in this JVM instead of P child JVMs (faster; for tests).")
  boolean inProcess;

  @Option(names = "--child-jvm-options", paramLabel = "OPTIONS",
      description = "The child JVMs' options, space-separated (default: the ones ProcessFleet names: "
          + "-Xmx64m -XX:+UseSerialGC -XX:TieredStopAtLevel=1).")
  @Nullable String childJvmOptions;

  @Option(names = "--redis-timeout", paramLabel = "MS", defaultValue = "20",
      description = "Each instance's RedisSharedState timeout, in milliseconds (default: ${DEFAULT-VALUE}, "
          + "polite-redis's own).")
  int redisTimeoutMillis;

  @Option(names = "--json", description = "Print one JSON object (the rows in an array) instead of the table.")
  boolean json;

  @Override
  public Integer call() throws IOException, InterruptedException {
    validate();
    PrintWriter out = spec.commandLine().getOut();
    Duration length = Duration.ofSeconds(seconds);
    Duration redisTimeout = Duration.ofMillis(redisTimeoutMillis);
    FleetRun.Launch launch = inProcess ? FleetRun.Launch.inProcess(redisTimeout) : FleetRun.Launch.processes(
        childJvmOptions == null ? ProcessFleet.JVM_OPTIONS : List.of(childJvmOptions.trim().split("\\s+")),
        redisTimeout);
    String isolation = inProcess ? IN_PROCESS : PROCESSES
        + (childJvmOptions == null ? "" : "; JVM options " + childJvmOptions.trim());
    text(out, String.format(Locale.ROOT, "fleet: a demo server at %d/s, burst %d (token bucket; every instance is "
        + "127.0.0.1, one key), fresh per row; P instances x %d threads, closed loop, %d s per row", FleetRun.LIMIT,
        FleetRun.BURST, threads, seconds));
    text(out, "  P = " + isolation + ".");
    text(out, "  shared: each instance's RedisSharedState waits at most " + redisTimeoutMillis + " ms for Redis"
        + (redisTimeoutMillis == 20 ? " (its default)." : " (--redis-timeout; the default is 20)."));
    text(out, String.format(Locale.ROOT, "  shared, Redis killed: redis-server SIGKILLed at %.1f s, restarted empty on "
        + "the same port %.1f s later.", seconds / 2.0, FleetRun.outage(length).toMillis() / 1000.0));
    text(out, "");
    text(out, FleetRow.heading());
    List<FleetRow> rows = new ArrayList<>();
    List<Map<String, @Nullable Object>> jsonRows = new ArrayList<>();
    try (LocalRedis redis = LocalRedis.start()) {
      if (inProcess) {
        warmUp(redis, redisTimeout); // a child JVM warms itself up before it says it is ready
      }
      for (HeaderStyle style : headers) {
        for (int p : instances) {
          for (FleetMode mode : FleetMode.values()) {
            FleetRow row = new FleetRun(style, mode, p, threads, length, redis, launch).run();
            rows.add(row);
            FleetRow alone = aloneOf(rows, row);
            List<String> misses = FleetTargets.misses(row, alone);
            text(out, row.line(alone, misses));
            jsonRows.add(row.fields(alone, misses));
          }
        }
      }
    }
    text(out, "");
    text(out, "  calls: calls that ended (ok: 2xx; the rest a 429 polite handed back, or failed: threw). rejected: the "
        + "server's own count of");
    text(out, "  429s, every attempt (retries included), and its share of the server's decisions. share: admitted per "
        + "second from 1 s to D, over 20/s.");
    text(out, "  rt/call: Redis commands per call ended, from 1 s to D. fallback: share of instance-time pacing alone "
        + "for want of Redis.");
    text(out, "  p99 ms: a call's 99th percentile duration, mostly queueing for the limit in a saturated closed loop; "
        + "vs alone: that p99");
    text(out, "  minus the alone row's. redis p99: the 99th percentile over every call from 1 s to D of the time Redis "
        + "held it back");
    text(out, "  (0 for one that went on its lease, or whose units fell due after the answer): what the fleet adds. "
        + "targets: issues 11's and 24's.");
    if (json) {
      Map<String, @Nullable Object> all = new LinkedHashMap<>();
      all.put("command", "fleet");
      all.put("limit_per_second", FleetRun.LIMIT);
      all.put("burst", FleetRun.BURST);
      all.put("threads", threads);
      all.put("redis_timeout_ms", redisTimeoutMillis);
      all.put("seconds", seconds);
      all.put("steady_from_seconds", InstanceLoad.STEADY_FROM.toSeconds());
      all.put("instances_are", isolation);
      all.put("rows", jsonRows);
      out.println(JSON.writeValueAsString(all));
    }
    out.flush();
    return 0;
  }

  private void validate() {
    if (instances.isEmpty() || instances.stream().anyMatch(p -> p < 1)) {
      throw new ParameterException(spec.commandLine(), "--instances: each must be at least 1: " + instances);
    }
    if (threads < 1) {
      throw new ParameterException(spec.commandLine(), "--threads must be at least 1: " + threads);
    }
    if (redisTimeoutMillis < 1) {
      throw new ParameterException(spec.commandLine(), "--redis-timeout must be at least 1 ms: " + redisTimeoutMillis);
    }
    if (seconds < 2) {
      throw new ParameterException(spec.commandLine(), "--seconds must be at least 2: " + seconds);
    }
  }

  private void text(PrintWriter out, String line) {
    if (!json) {
      out.println(line);
      out.flush();
    }
  }

  private static @Nullable FleetRow aloneOf(List<FleetRow> rows, FleetRow row) {
    return rows.stream().filter(r -> r.mode() == FleetMode.ALONE && r.sameFootingAs(row)).findFirst().orElse(null);
  }

  /**
   * A few calls through a throwaway alone and shared instance to an unlimited {@code /health},
   * so that no measured row pays the JVM's first use of OkHttp, polite and the Redis client.
   */
  private static void warmUp(LocalRedis redis, Duration redisTimeout) throws IOException {
    try (DemoServer server = DemoServer.builder().start();
        FleetInstance alone = FleetInstance.alone(1);
        FleetInstance shared = FleetInstance.shared(redis.uri(), 1, redisTimeout)) {
      Request health = new Request.Builder().url(server.url() + "/health").build();
      for (int i = 0; i < 10; i++) {
        for (FleetInstance instance : List.of(alone, shared)) {
          try (Response response = instance.client().newCall(health).execute()) {
            response.body().bytes();
          }
        }
      }
    }
  }
}
