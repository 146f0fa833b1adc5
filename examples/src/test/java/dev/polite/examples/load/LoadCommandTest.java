package dev.polite.examples.load;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.polite.adaptive.Criticality;
import dev.polite.adaptive.ThrottledLocallyException;
import dev.polite.demo.DemoServer;
import dev.polite.examples.Cli;
import dev.polite.examples.clients.ClientKind;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import mockwebserver3.MockWebServer;
import okhttp3.HttpUrl;
import okhttp3.OkHttpClient;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** {@code load} end to end against a demo server: burst 5, 5 per second, IETF headers. */
class LoadCommandTest {
  private DemoServer server;
  private String url;

  @BeforeEach
  void start() {
    server = DemoServer.builder().limit(5).window(Duration.ofSeconds(1)).burst(5).start();
    url = server.url() + "/api/items";
  }

  @AfterEach
  void stop() {
    server.close();
  }

  @Test
  void politeGetsEverythingThroughWithoutBeingTold() {
    Cli cli = Cli.run("load", "--url", url, "--requests", "12", "--json");

    assertThat(cli.exit).as(cli.toString()).isZero();
    JsonNode json = cli.lastJson();
    assertThat(json.get("client").asText()).isEqualTo("polite");
    assertThat(json.get("requests").asInt()).isEqualTo(12);
    assertThat(json.get("succeeded").asInt()).isEqualTo(12);
    assertThat(json.get("rejected").asLong()).isLessThanOrEqualTo(1);
    assertThat(json.get("retries").asLong()).isEqualTo(json.get("sent").asLong() - 12);
    assertThat(server.stats().admitted()).isEqualTo(12);
    assertThat(server.stats().rejected()).as("the server's count agrees").isEqualTo(json.get("rejected").asLong());
  }

  @Test
  void politeStaysPoliteWithConcurrentCallers() {
    Cli cli = Cli.run("load", "--url", url, "--requests", "12", "--concurrency", "4", "--json");

    assertThat(cli.exit).as(cli.toString()).isZero();
    JsonNode json = cli.lastJson();
    assertThat(json.get("succeeded").asInt()).isEqualTo(12);
    assertThat(json.get("rejected").asLong()).isLessThanOrEqualTo(2);
  }

  @Test
  void naiveHammersAndCountsEveryAttempt() {
    Cli cli = Cli.run("load", "--url", url, "--requests", "8", "--client", "naive", "--json");

    assertThat(cli.exit).as(cli.toString()).isZero();
    JsonNode json = cli.lastJson();
    assertThat(json.get("client").asText()).isEqualTo("naive");
    assertThat(json.get("rejected").asLong()).isPositive();
    assertThat(json.get("sent").asLong()).isEqualTo(server.stats().admitted() + server.stats().rejected());
    assertThat(json.get("rejected").asLong()).isEqualTo(server.stats().rejected());
    assertThat(json.get("succeeded").asLong()).isEqualTo(server.stats().admitted());
    assertThat(json.get("retries").asLong()).as("nothing dropped, so every extra attempt is a retry")
        .isEqualTo(json.get("sent").asLong() - 8);
    assertThat(json.get("failed").asInt()).isZero();
    assertThat(json.fieldNames()).toIterable()
        .containsExactly("client", "requests", "succeeded", "failed", "rejected", "sent", "retries", "seconds",
            "threads_peak");
  }

  /**
   * Several URLs: call i goes to URL i mod n, so three core URLs and one search URL send 30 and 10
   * of 40 calls, and the breakdown says what each URL's calls came to. Against two budgets on one
   * host (core 40, search 4 a minute) a naive client spends search and is refused there only.
   */
  @Test
  void callsGoRoundRobinOverTheUrlsAndEachUrlIsBrokenDown() {
    try (DemoServer budgets = DemoServer.builder().limit(40).window(Duration.ofMinutes(1))
        .budget("/api/search", "search", 4, Duration.ofMinutes(1)).start()) {
      String core = budgets.url() + "/api/items";
      String search = budgets.url() + "/api/search";
      Cli cli = Cli.run("load", "--url", core, "--url", core, "--url", core, "--url", search, "--requests", "40",
          "--concurrency", "4", "--client", "naive", "--json");

      JsonNode json = cli.lastJson();
      assertThat(json.get("requests").asInt()).isEqualTo(40);
      assertThat(json.fieldNames()).toIterable().containsExactly("client", "requests", "succeeded", "failed",
          "rejected", "sent", "retries", "seconds", "threads_peak", "urls");
      JsonNode urls = json.get("urls");
      assertThat(urls).hasSize(2);
      assertThat(urls.get(0).fieldNames()).toIterable()
          .containsExactly("url", "calls", "ok", "failed", "refused", "seconds");
      assertThat(urls.get(0).get("url").asText()).isEqualTo(core);
      assertThat(urls.get(0).get("calls").asInt()).isEqualTo(30);
      assertThat(urls.get(0).get("ok").asInt()).isEqualTo(30);
      assertThat(urls.get(0).get("refused").asLong()).isZero();
      assertThat(urls.get(1).get("url").asText()).isEqualTo(search);
      assertThat(urls.get(1).get("calls").asInt()).isEqualTo(10);
      assertThat(urls.get(1).get("ok").asInt()).as("search's 4 a minute").isEqualTo(4);
      assertThat(urls.get(1).get("refused").asLong()).as("6 calls, 6 attempts each, all refused").isEqualTo(36);
      assertThat(urls.get(1).get("failed").asInt()).isZero();
      assertThat(json.get("rejected").asLong()).as("every refusal was search's").isEqualTo(36);
      assertThat(json.get("succeeded").asInt()).isEqualTo(34);
      for (JsonNode url : urls) {
        assertThat(url.get("seconds").asDouble()).isPositive().isLessThanOrEqualTo(json.get("seconds").asDouble());
      }
      assertThat(budgets.stats().budget("search")).isEqualTo(new dev.polite.demo.StatsSnapshot.BudgetCounts(4, 36));

      Cli text = Cli.run("load", "--url", core, "--url", search, "--requests", "4", "--client", "naive");
      assertThat(text.out).containsPattern("naive: 2/4 ok  12 rejected  14 requests sent  10 retries")
          .containsPattern("\\n  " + java.util.regex.Pattern.quote(core) + " +2 calls +2 ok +0 failed +0 refused +\\d+\\.\\d s")
          .containsPattern("\\n  " + java.util.regex.Pattern.quote(search) + "  +2 calls +0 ok +0 failed +12 refused +\\d+\\.\\d s");
    }
  }

  @Test
  void oneUrlGivenTwiceIsOneUrlWithNoBreakdown() {
    Cli cli = Cli.run("load", "--url", url, "--url", url, "--requests", "4", "--json");

    assertThat(cli.exit).as(cli.toString()).isZero();
    assertThat(cli.lastJson().has("urls")).isFalse();
    assertThat(cli.lastJson().get("succeeded").asInt()).isEqualTo(4);
  }

  /** On OkHttp through a PoliteCallFactory's enqueue, on the JDK's client through sendAsync. */
  @ParameterizedTest
  @ValueSource(strings = {"polite", "polite-jdk"})
  void asyncCallsWaitWithoutAThreadEach(String client) {
    try (DemoServer fast = DemoServer.builder().limit(50).window(Duration.ofSeconds(1)).burst(50).start()) {
      String api = fast.url() + "/api/items";
      Cli async = Cli.run("load", "--url", api, "--requests", "150", "--concurrency", "150", "--client", client,
          "--async", "--json");
      Cli blocking = Cli.run("load", "--url", api, "--requests", "150", "--concurrency", "150", "--client", client,
          "--json");

      assertThat(async.exit).as(async.toString()).isZero();
      assertThat(blocking.exit).as(blocking.toString()).isZero();
      JsonNode a = async.lastJson();
      JsonNode b = blocking.lastJson();
      assertThat(a.get("async").asBoolean()).isTrue();
      assertThat(a.get("succeeded").asInt()).isEqualTo(150);
      // As with blocking callers at this concurrency (politeStaysPoliteWithConcurrentCallers), a
      // refusal or two can meet a call that goes as its server-side token is being counted.
      assertThat(a.get("rejected").asLong()).isLessThanOrEqualTo(2);
      assertThat(b.get("succeeded").asInt()).isEqualTo(150);
      // 150 calls in flight: a thread each when they block, a handful when they are enqueued.
      assertThat(b.get("threads_peak").asInt()).isGreaterThanOrEqualTo(150);
      assertThat(a.get("threads_peak").asInt()).isLessThan(b.get("threads_peak").asInt() - 100);
    }
  }

  @Test
  void metricsPrintsPolitesMetersBeforeTheJson() {
    Cli cli = Cli.run("load", "--url", url, "--requests", "12", "--metrics", "--json");

    assertThat(cli.exit).as(cli.toString()).isZero();
    String key = url.substring(0, url.indexOf("/api/"));
    assertThat(cli.out).contains("polite.calls.wait(TIMER)[key='" + key + "']; count=12.0")
        .contains("polite.key.pace(GAUGE)[key='" + key + "']; value=5.0")
        .contains("polite.calls.rejected(COUNTER)[key='" + key + "']; count=");
    assertThat(cli.lastJson().get("succeeded").asInt()).isEqualTo(12);
  }

  @Test
  void asyncNeedsAPoliteClient() {
    Cli cli = Cli.run("load", "--url", url, "--requests", "1", "--client", "naive", "--async");
    assertThat(cli.exit).isEqualTo(2);
    assertThat(cli.err).contains("--async needs a client with polite in it");
  }

  @Test
  void failsafeByHandPacesAtTheGuessedRateAndIsNeverRefused() {
    Cli cli = Cli.run("load", "--url", url, "--requests", "8", "--concurrency", "2", "--client", "failsafe",
        "--rate", "4.5", "--json");

    assertThat(cli.exit).as(cli.toString()).isZero();
    JsonNode json = cli.lastJson();
    assertThat(json.get("client").asText()).isEqualTo("failsafe");
    assertThat(json.get("succeeded").asInt()).isEqualTo(8);
    assertThat(json.get("rejected").asLong()).isZero();
    assertThat(json.get("sent").asLong()).isEqualTo(8);
    assertThat(json.get("retries").asLong()).isZero();
  }

  /**
   * A throttle that drops every other call before it leaves used to make {@code retries}
   * ({@code sent - requests}) negative; counted per call, a dropped call adds no retry.
   */
  @Test
  void callsDroppedLocallyNeverMakeRetriesNegative() throws Exception {
    AtomicInteger calls = new AtomicInteger();
    OkHttpClient dropsEveryOther = new OkHttpClient.Builder().addInterceptor(chain -> {
      if (calls.incrementAndGet() % 2 == 0) {
        throw new ThrottledLocallyException("test", Criticality.CRITICAL, 0.5);
      }
      return chain.proceed(chain.request());
    }).build();

    RunResult result = new LoadRunner(dropsEveryOther, ClientKind.NAIVE, 4.5, 5)
        .run(HttpUrl.get(url), 10, 1, null);

    assertThat(result.dropped()).isEqualTo(5);
    assertThat(result.sent()).isEqualTo(5);
    assertThat(result.retries()).isZero();
    assertThat(result.failed()).isZero();
    assertThat(result.toJson(new ObjectMapper())).contains("\"retries\":0,").endsWith(",\"local_drops\":5}");
  }

  @Test
  void aFailedCallIsCountedAndTheExitCodeIsOne() throws Exception {
    try (MockWebServer broken = new MockWebServer()) {
      broken.setDispatcher(FirstThenRest.cutAfterFirst()); // answered, then every later call cut
      broken.start();

      Cli cli = Cli.run("load", "--url", broken.url("/api/x").toString(), "--requests", "3", "--client", "naive",
          "--json");

      assertThat(cli.exit).as(cli.toString()).isEqualTo(1);
      JsonNode json = cli.lastJson();
      assertThat(json.get("succeeded").asInt()).isEqualTo(1);
      assertThat(json.get("failed").asInt()).isEqualTo(2);
      assertThat(json.get("retries").asLong()).isNotNegative();

      Cli summary = Cli.run("load", "--url", broken.url("/api/x").toString(), "--requests", "2", "--client", "naive");
      assertThat(summary.exit).isEqualTo(1);
      assertThat(summary.out).contains("2 failed");
    }
  }

  @Test
  void pacedAtTheDefaultsIsNeverRefused() {
    Cli cli = Cli.run("load", "--url", url, "--requests", "8", "--client", "paced", "--json");

    assertThat(cli.exit).as(cli.toString()).isZero();
    JsonNode json = cli.lastJson();
    assertThat(json.get("succeeded").asInt()).isEqualTo(8);
    assertThat(json.get("rejected").asLong()).isZero();
    assertThat(json.get("sent").asLong()).isEqualTo(8);
  }

  @Test
  void withoutJsonItPrintsASummary() {
    Cli cli = Cli.run("load", "--url", url, "--requests", "3", "--client", "retry-after");

    assertThat(cli.exit).as(cli.toString()).isZero();
    assertThat(cli.out).startsWith("retry-after: 3/3 ok  0 rejected  3 requests sent  0 retries");
  }

  @Test
  void anUnreachableUrlIsOneLineAndANonZeroExit() throws Exception {
    int port;
    try (ServerSocket socket = new ServerSocket(0)) {
      port = socket.getLocalPort();
    }

    Cli cli = Cli.run("load", "--url", "http://127.0.0.1:" + port + "/api", "--requests", "3", "--client", "naive");

    assertThat(cli.exit).isEqualTo(1);
    assertThat(cli.err.lines().filter(line -> !line.isBlank())).singleElement().asString()
        .startsWith("error: cannot reach http://127.0.0.1:" + port + "/api");
    assertThat(cli.err).doesNotContain("\tat ", "Exception in thread");
    assertThat(cli.out).isEmpty();
  }

  @Test
  void politeAlsoReportsAnUnreachableUrlInOneLine() throws Exception {
    int port;
    try (ServerSocket socket = new ServerSocket(0)) {
      port = socket.getLocalPort();
    }

    Cli cli = Cli.run("load", "--url", "http://127.0.0.1:" + port + "/api", "--requests", "1");

    assertThat(cli.exit).isEqualTo(1);
    assertThat(cli.err.strip()).startsWith("error: cannot reach").doesNotContain("\n");
  }
}
