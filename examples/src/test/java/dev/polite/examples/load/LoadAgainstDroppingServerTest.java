package dev.polite.examples.load;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.polite.demo.DemoServer;
import dev.polite.demo.StatsSnapshot;
import dev.polite.examples.Cli;
import mockwebserver3.MockWebServer;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code load} against a server that drops connections (issue 48, item 9): some requests it reads
 * and then closes the connection without an answer, some connections it closes as it accepts
 * them, between 200s and a 429. Each engine re-sends some of those by itself, below anything the
 * client sees: OkHttp's {@code retryOnConnectionFailure}, the JDK client's one re-send of a GET
 * whose pooled connection closed before any answer. {@code sent} must be every one the server
 * counted, and {@code retries} every attempt beyond each call's first: {@code sent - requests},
 * as no call here is dropped before it leaves. Before the fix OkHttp's re-sends were in neither
 * (the issue measured 35 sent where the server counted 43), and the JDK client's were in
 * {@code sent} but not in {@code retries}.
 */
class LoadAgainstDroppingServerTest {
  private static final int CALLS = 12;

  @ParameterizedTest(name = "{0} at concurrency {1}")
  @CsvSource({"naive, 1", "naive, 4", "polite, 1", "polite, 4", "retry-after, 4", "paced, 4", "failsafe, 4",
      "polite-adaptive, 4"})
  void okHttpClientsCountEveryAttemptTheServerCounted(String client, int concurrency) throws Exception {
    try (MockWebServer server = new MockWebServer()) {
      server.setDispatcher(DroppingDispatcher.withCloseAtStart());
      server.start();

      JsonNode json = load(server, client, concurrency, "--rate", "100", "--burst", "10");

      assertCountedAsTheServerDid(json, server);
      if (concurrency == 1) { // one pooled connection, so OkHttp re-sends what is dropped on it
        assertThat(server.getRequestCount()).as("OkHttp re-sent some: " + json).isGreaterThan(CALLS);
      }
    }
  }

  /**
   * The JDK client through its counting relay. Only connections closed after their request: a
   * connection the server closes as it accepts it is one the relay opened, and the server counts
   * a request on it that the relay may never have forwarded (it closes the client's connection
   * when the server closes its own, and forwards nothing on a closed one).
   */
  @ParameterizedTest(name = "polite-jdk at concurrency {0}{1}")
  @CsvSource(value = {"1, ''", "4, ''", "4, --async"}, emptyValue = "")
  void theJdkClientCountsEveryAttemptTheServerCounted(int concurrency, String async) throws Exception {
    try (MockWebServer server = new MockWebServer()) {
      server.setDispatcher(DroppingDispatcher.afterRequestOnly());
      server.start();

      JsonNode json = async.isEmpty() ? load(server, "polite-jdk", concurrency)
          : load(server, "polite-jdk", concurrency, async);

      assertCountedAsTheServerDid(json, server);
      assertThat(json.get("retries").asLong()).as("the JDK client or polite sent some again: " + json).isPositive();
    }
  }

  /**
   * End to end against the demo server dropping every fourth request it reads
   * ({@code --drop-every 4}): {@code sent} is every API request the server read, as its own stats
   * count them.
   */
  @ParameterizedTest(name = "{0} at concurrency {1} against the demo server")
  @CsvSource({"naive, 4", "polite, 4", "polite-jdk, 4"})
  void everyClientCountsWhatTheDemoServerRead(String client, int concurrency) {
    try (DemoServer server = DemoServer.builder().limit(1_000).dropEvery(4).start()) {
      JsonNode json = load(server.url() + "/api/items", client, concurrency);

      StatsSnapshot stats = server.stats();
      long read = stats.admitted() + stats.rejected() + stats.dropped();
      assertThat(stats.dropped()).as("some were dropped: " + json).isPositive();
      assertThat(json.get("sent").asLong()).as("every API request the server read: " + json).isEqualTo(read);
      assertThat(json.get("retries").asLong()).as(json.toString()).isEqualTo(read - CALLS);
    }
  }

  private static JsonNode load(MockWebServer server, String client, int concurrency, String... more) {
    return load(server.url("/api/items").toString(), client, concurrency, more);
  }

  private static JsonNode load(String url, String client, int concurrency, String... more) {
    String[] args = {"load", "--url", url, "--requests", Integer.toString(CALLS),
        "--concurrency", Integer.toString(concurrency), "--client", client, "--json"};
    String[] all = java.util.Arrays.copyOf(args, args.length + more.length);
    System.arraycopy(more, 0, all, args.length, more.length);
    Cli cli = Cli.run(all);
    assertThat(cli.exit).as(cli.toString()).isIn(0, 1); // 1: a call whose every attempt was dropped
    return cli.lastJson();
  }

  private static void assertCountedAsTheServerDid(JsonNode json, MockWebServer server) {
    String said = json.toString();
    assertThat(server.getRequestCount()).as("every call went out: " + said).isGreaterThanOrEqualTo(CALLS);
    assertThat(json.get("sent").asLong()).as("every request the server counted: " + said)
        .isEqualTo(server.getRequestCount());
    assertThat(json.get("retries").asLong()).as("every attempt beyond each call's first: " + said)
        .isEqualTo(json.get("sent").asLong() - CALLS);
    assertThat(json.get("rejected").asLong()).as("the one 429, unless it fell to a connection closed at its start: "
        + said).isBetween(0L, 1L);
  }
}
