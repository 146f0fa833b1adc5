package dev.polite.demo;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class DemoServerCommandTest {

  /** What one run of the command printed, and its exit code; nothing reaches the console. */
  private record Run(int exit, String out, String err) {
    static Run of(String... args) {
      StringWriter out = new StringWriter();
      StringWriter err = new StringWriter();
      int exit = DemoServerCommand.run(args, new PrintWriter(out, true), new PrintWriter(err, true));
      return new Run(exit, out.toString(), err.toString());
    }
  }

  private static DemoServerConfig parse(String... args) {
    DemoServerCommand command = new DemoServerCommand();
    command.commandLine().parseArgs(args);
    return command.config();
  }

  @Test
  void flagsBecomeTheConfiguration() {
    DemoServerConfig config = parse("--port", "0", "--algorithm", "sliding-counter", "--limit", "100",
        "--window", "1m", "--headers", "x-ratelimit", "--store", "redis://127.0.0.1:6390",
        "--when-down", "local", "--nodes", "4", "--trusted-proxies", "10.0.0.0/8,127.0.0.1",
        "--dry-run", "--max-keys", "500", "--cost", "/api/export=5", "--concurrency", "3",
        "--latency", "50ms");
    assertThat(config.algorithm()).isEqualTo(Algorithm.SLIDING_COUNTER);
    assertThat(config.limit()).isEqualTo(100);
    assertThat(config.window()).isEqualTo(Duration.ofMinutes(1));
    assertThat(config.headers()).isEqualTo(HeaderStyle.X_RATELIMIT);
    assertThat(config.usesRedis()).isTrue();
    assertThat(config.whenDown()).isEqualTo(WhenDown.LOCAL);
    assertThat(config.nodes()).isEqualTo(4);
    assertThat(config.trustedProxies()).containsExactly("10.0.0.0/8", "127.0.0.1");
    assertThat(config.dryRun()).isTrue();
    assertThat(config.maxKeys()).isEqualTo(500);
    assertThat(config.costOf("/api/export/x")).isEqualTo(5);
    assertThat(config.concurrency()).isEqualTo(3);
    assertThat(config.latency()).isEqualTo(Duration.ofMillis(50));
  }

  @Test
  void abuseLimitsHaveSaneDefaultsAndFlags() {
    DemoServerConfig defaults = parse();
    assertThat(defaults.parseTimeout()).isEqualTo(Duration.ofSeconds(10));
    assertThat(defaults.idleTimeout()).isEqualTo(Duration.ofSeconds(30));
    assertThat(defaults.maxConnections()).isEqualTo(10_000);
    assertThat(defaults.maxConnectionsPerClient()).isEqualTo(1_000);
    DemoServerConfig config = parse("--parse-timeout", "2s", "--idle-timeout", "5s", "--max-connections", "300",
        "--max-connections-per-client", "0");
    assertThat(config.parseTimeout()).isEqualTo(Duration.ofSeconds(2));
    assertThat(config.idleTimeout()).isEqualTo(Duration.ofSeconds(5));
    assertThat(config.maxConnections()).isEqualTo(300);
    assertThat(config.maxConnectionsPerClient()).isZero();
    assertBadFlag("maxConnections: must be at least 1, was 0", "--max-connections", "0");
    assertBadFlag("parseTimeout: must be 1 ms to 1 h", "--parse-timeout", "2h");
  }

  @Test
  void headerStylesAndASignedClockSkew() {
    DemoServerConfig config = parse("--headers", "retry-after-date", "--clock-skew", "60s");
    assertThat(config.headers()).isEqualTo(HeaderStyle.RETRY_AFTER_DATE);
    assertThat(config.clockSkew()).isEqualTo(Duration.ofSeconds(60));
    assertThat(parse("--clock-skew", "-30s").clockSkew()).isEqualTo(Duration.ofSeconds(-30));
    assertThat(parse("--clock-skew=-1.5s").clockSkew()).isEqualTo(Duration.ofMillis(-1500));
    assertThat(parse().clockSkew()).isZero();
    assertThat(parse("--headers", "retry-after-ms").headers()).isEqualTo(HeaderStyle.RETRY_AFTER_MS);
    assertThat(parse("--headers", "retry-after").headers()).isEqualTo(HeaderStyle.RETRY_AFTER);
    assertThat(parse("--headers", "used-limit").headers()).isEqualTo(HeaderStyle.USED_LIMIT);
    assertThat(parse("--headers", "none").headers()).isEqualTo(HeaderStyle.NONE);
    assertThat(parse("--headers", "x-rate-limit").headers()).isEqualTo(HeaderStyle.X_RATE_LIMIT);
    assertThat(parse("--headers", "azure").headers()).isEqualTo(HeaderStyle.AZURE);
  }

  @Test
  void withoutFlagsTheBuildersDefaultsButAFixedPort() {
    DemoServerConfig flags = parse();
    DemoServerConfig code = DemoServerConfig.builder().build();
    assertThat(flags.port()).isEqualTo(8080);
    assertThat(code.port()).isZero();
    assertThat(flags.toString()).isEqualTo(code.toBuilder().port(8080).build().toString());
  }

  @Test
  void helpListsEveryHeaderStyleAndTheClockSkew() {
    String help = new DemoServerCommand().commandLine().getUsageMessage();
    for (HeaderStyle style : HeaderStyle.values()) {
      assertThat(help).contains(style.cliName());
    }
    assertThat(help).contains("--clock-skew");
  }

  @Test
  void badFlagsPrintTheReasonAndTheUsageAndExitTwo() {
    assertBadFlag("limit: 'x' is not a whole number", "--limit", "x");
    assertBadFlag("algorithm: unknown value 'nope'", "--algorithm", "nope");
    assertBadFlag("window: 'soon' is not a duration", "--window", "soon");
    assertBadFlag("headers: unknown value 'shopify'", "--headers", "shopify");
    assertBadFlag("clock-skew: 'soon' is not a duration", "--clock-skew", "soon");
    assertBadFlag("clockSkew: must be within a day either way, was PT48H", "--clock-skew", "2d");
    assertBadFlag("algorithm: leaky-queue is not supported with a Redis store",
        "--algorithm", "leaky-queue", "--store", "redis://127.0.0.1:1");
  }

  @Test
  void rejectStatusAndWrongResetEvery() {
    DemoServerConfig config = parse("--reject-status", "403", "--wrong-reset-every", "5");
    assertThat(config.rejectStatus()).isEqualTo(403);
    assertThat(config.wrongResetEvery()).isEqualTo(5);
    assertThat(config.toString()).contains("reject-status=403", "wrong-reset-every=5");
    assertThat(parse().rejectStatus()).isEqualTo(429);
    assertThat(parse().wrongResetEvery()).isZero();
    assertThat(parse("--reject-status", "429", "--wrong-reset-every", "0").wrongResetEvery()).isZero();
    assertBadFlag("rejectStatus: must be 429 or 403, was 500", "--reject-status", "500");
    assertBadFlag("reject-status: 'forbidden' is not a whole number", "--reject-status", "forbidden");
    assertBadFlag("wrongResetEvery: must be 0 (off) or at least 2, was 1", "--wrong-reset-every", "1");
    assertBadFlag("wrongResetEvery: must be 0 (off) or at least 2, was -3", "--wrong-reset-every", "-3");
    String help = new DemoServerCommand().commandLine().getUsageMessage();
    assertThat(help).contains("--reject-status=N", "--wrong-reset-every=N", "unaffected");
  }

  @Test
  void aBlockForAWhile() {
    assertThat(parse("--block-for", "1s").blockFor()).isEqualTo(Duration.ofSeconds(1));
    assertThat(parse("--block-for", "1s").toString()).contains("block-for=PT1S");
    assertThat(parse().blockFor()).isZero();
    assertBadFlag("blockFor: must be 0 (off) or 1 ms to 1 day, was PT48H", "--block-for", "2d");
    assertBadFlag("block-for: 'soon' is not a duration", "--block-for", "soon");
    assertThat(new DemoServerCommand().commandLine().getUsageMessage()).contains("--block-for=DURATION");
  }

  @Test
  void refusalsNoLimiterMakes() {
    DemoServerConfig all = parse("--refuse-all", "--refuse-all-retry-after", "3s");
    assertThat(all.refuseAll()).isTrue();
    assertThat(all.refuseAllRetryAfter()).isEqualTo(Duration.ofSeconds(3));
    assertThat(parse().refuseAll()).isFalse();
    assertThat(parse().refuseAllRetryAfter()).isZero();
    DemoServerConfig bogus = parse("--bogus-refusal-every", "10");
    assertThat(bogus.bogusRefusalEvery()).isEqualTo(10);
    assertThat(bogus.bogusRetryAfter()).isEqualTo(Duration.ofDays(1));
    assertThat(parse("--bogus-retry-after", "1h").bogusRetryAfter()).isEqualTo(Duration.ofHours(1));
    assertThat(parse().bogusRefusalEvery()).isZero();
    assertThat(all.toString()).contains("refuse-all=true", "refuse-all-retry-after=PT3S");
    assertBadFlag("bogusRefusalEvery: must be 0 (off) or at least 2, was 1", "--bogus-refusal-every", "1");
    assertBadFlag("refuseAllRetryAfter: must be 0 to 1 day, was PT48H", "--refuse-all-retry-after", "2d");
    assertBadFlag("bogus-retry-after: 'never' is not a duration", "--bogus-retry-after", "never");
    assertThat(new DemoServerCommand().commandLine().getUsageMessage()).contains("--refuse-all",
        "--refuse-all-retry-after=DURATION", "--bogus-refusal-every=N", "--bogus-retry-after=DURATION");
  }

  @Test
  void aSecondPolicy() {
    DemoServerConfig config = parse("--limit", "20", "--second-policy", "window:60/5s");
    assertThat(config.secondPolicy()).hasValue(new SecondPolicy("window", 60, Duration.ofSeconds(5)));
    assertThat(parse().secondPolicy()).isEmpty();
    assertBadFlag("second-policy: expected NAME:LIMIT/WINDOW, such as window:60/5s, was 'window'",
        "--second-policy", "window");
    assertBadFlag("second-policy: 'w:lots/5s' has no whole number for its limit ('lots')", "--second-policy", "w:lots/5s");
    assertBadFlag("second-policy: 'soon' is not a duration", "--second-policy", "w:60/soon");
    assertBadFlag("secondPolicy: the limit must be at least 1, was 0", "--second-policy", "w:0/5s");
    assertBadFlag("secondPolicy: two policies in one field need --headers ietf, was legacy",
        "--second-policy", "w:60/5s", "--headers", "legacy");
    assertThat(new DemoServerCommand().commandLine().getUsageMessage()).contains("--second-policy=NAME:LIMIT/WINDOW");
  }

  @Test
  void anUnknownFlagSuggestsAKnownOneAndExitsTwo() {
    Run run = Run.of("--node", "3");
    assertThat(run.exit()).isEqualTo(2);
    assertThat(run.err()).startsWith("Unknown options: '--node', '3'").contains("--nodes");
  }

  @Test
  void syncedStoreFlagsAndTheirRefusals() {
    DemoServerConfig config = parse("--store", "synced:redis://127.0.0.1:6390", "--sync-interval", "20ms",
        "--algorithm", "fixed-window");
    assertThat(config.usesRedis()).isTrue();
    assertThat(config.storeKind()).isEqualTo(StoreKind.SYNCED);
    assertThat(config.redisUri()).isEqualTo("redis://127.0.0.1:6390");
    assertThat(config.syncInterval()).isEqualTo(Duration.ofMillis(20));
    DemoServerConfig everyRequest = parse("--store", "synced:redis://127.0.0.1:6390", "--sync-interval", "0");
    assertThat(everyRequest.syncInterval()).isZero();
    assertThat(everyRequest.storeKind()).isEqualTo(StoreKind.REDIS);
    assertThat(everyRequest.redisUri()).isEqualTo("redis://127.0.0.1:6390");
    assertThat(parse("--store", "redis://127.0.0.1:6390").storeKind()).isEqualTo(StoreKind.REDIS);
    assertThat(parse().storeKind()).isEqualTo(StoreKind.MEMORY);
    assertThat(parse().usesRedis()).isFalse();
    assertThat(parse().syncInterval()).isEqualTo(Duration.ofMillis(200));
    assertBadFlag("store: must be 'memory', 'redis://HOST:PORT' or 'synced:redis://HOST:PORT', was 'synced:redis://x'",
        "--store", "synced:redis://x");
    assertBadFlag("sync-interval: '-1s' is not a duration", "--sync-interval", "-1s");
    assertBadFlag("syncInterval: must be 0 (synchronous: the shared store) to 10 s", "--sync-interval", "200s");
    assertBadFlag("sync-interval: 'often' is not a duration", "--sync-interval", "often");
    assertBadFlag("algorithm: sliding-log is not supported with a synced store", "--store",
        "synced:redis://127.0.0.1:6390", "--algorithm", "sliding-log");
    // Interval 0 is the shared store, which runs the sliding log.
    assertThat(parse("--store", "synced:redis://127.0.0.1:6390", "--sync-interval", "0", "--algorithm",
        "sliding-log").algorithm()).isEqualTo(Algorithm.SLIDING_LOG);
  }

  @Test
  void budgetsAreRepeatableAndRefusedWithTheirReason() {
    DemoServerConfig config = parse("--limit", "5000", "--window", "1h", "--budget", "/api/search=search:30/1m",
        "--budget", "/api/graphql=graphql:5000/PT1H", "--budget", "/api/fast=fast:6/500ms");
    assertThat(config.budgets().keySet()).containsExactly("/api/search", "/api/graphql", "/api/fast");
    assertThat(config.budgetOf("/api/search/issues")).isEqualTo(new Budget("search", 30, Duration.ofMinutes(1)));
    assertThat(config.budgetOf("/api/graphql").window()).isEqualTo(Duration.ofHours(1));
    assertThat(config.budgetOf("/api/fast").window()).isEqualTo(Duration.ofMillis(500));
    assertThat(config.budgetOf("/api/items")).isNull();
    assertThat(parse().budgets()).isEmpty();
    assertThat(config.unnamedBudgets()).isFalse();
    DemoServerConfig unnamed = parse("--budget", "/api/search=search:30/1m", "--unnamed-budgets");
    assertThat(unnamed.unnamedBudgets()).isTrue();
    assertThat(unnamed.toString()).contains("unnamed-budgets=true");
    assertBadFlag("budget: expected PREFIX=NAME:LIMIT/WINDOW, such as /api/search=search:30/1m, was 'search:30/1m'",
        "--budget", "search:30/1m");
    assertBadFlag("budget: expected PREFIX=NAME:LIMIT/WINDOW", "--budget", "/api/search=search");
    assertBadFlag("budget: expected PREFIX=NAME:LIMIT/WINDOW", "--budget", "/api/search=search:30");
    assertBadFlag("budget: '/api/search=search:lots/1m' has no whole number for its limit ('lots')",
        "--budget", "/api/search=search:lots/1m");
    assertBadFlag("budget: 'soon' is not a duration", "--budget", "/api/search=search:30/soon");
    assertBadFlag("budget: path prefix must start with '/', was 'api/search'", "--budget", "api/search=search:30/1m");
    assertBadFlag("budget: the limit of search must be at least 1, was 0", "--budget", "/api/search=search:0/1m");
    assertBadFlag("budget: the window of search must be 1 ms to 366 days, was PT0S", "--budget",
        "/api/search=search:30/0s");
    assertBadFlag("budget: the name 'search' is given twice, to /api/search and to /api/find",
        "--budget", "/api/search=search:30/1m", "--budget", "/api/find=search:30/1m");
    assertBadFlag("budget: the prefix /api/search is given twice",
        "--budget", "/api/search=search:30/1m", "--budget", "/api/search=find:30/1m");
    assertBadFlag("budget: 'core' names the main budget", "--budget", "/api/core=core:30/1m");
    assertBadFlag("budget: the name of /api/search must be 1 to 64 letters", "--budget", "/api/search=:30/1m");
    assertBadFlag("routeCost: /api/search/big costs 40 but budget search (/api/search) holds at most 30",
        "--budget", "/api/search=search:30/1m", "--cost", "/api/search/big=40");
    String help = new DemoServerCommand().commandLine().getUsageMessage();
    assertThat(help).contains("--budget=PREFIX=NAME:LIMIT/WINDOW", "x-ratelimit-resource", "--unnamed-budgets");
  }

  private static void assertBadFlag(String reason, String... args) {
    Run run = Run.of(args);
    assertThat(run.exit()).as("%s", run).isEqualTo(2);
    assertThat(run.err()).startsWith(reason).contains("Usage: polite-demo-server");
    assertThat(run.out()).isEmpty();
  }

  @Test
  void aBusyPortIsOneLineAndExitOne() throws IOException {
    try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
      int port = taken.getLocalPort();
      Run run = Run.of("--port", Integer.toString(port));
      assertThat(run.exit()).isEqualTo(1);
      assertThat(run.err()).isEqualTo("polite-demo-server: port " + port + " is in use (try --port 0)"
          + System.lineSeparator());
      assertThat(run.out()).isEmpty();
    }
  }

  @Test
  void helpAndVersionGoToStdoutAndExitZero() {
    Run help = Run.of("--help");
    assertThat(help.exit()).isZero();
    assertThat(help.out()).startsWith("Usage: polite-demo-server").contains("--max-keys");
    assertThat(help.err()).isEmpty();
    assertThat(Run.of("--version").out()).startsWith("polite-demo-server 0.1.0");
  }

  @Test
  void durations() {
    assertThat(DurationText.parse("window", "500ms")).isEqualTo(Duration.ofMillis(500));
    assertThat(DurationText.parse("window", "1.5s")).isEqualTo(Duration.ofMillis(1500));
    assertThat(DurationText.parse("window", "10")).isEqualTo(Duration.ofSeconds(10));
    assertThat(DurationText.parse("window", "PT1H")).isEqualTo(Duration.ofHours(1));
  }
}
