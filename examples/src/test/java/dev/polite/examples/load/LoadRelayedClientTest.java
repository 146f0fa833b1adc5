package dev.polite.examples.load;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.polite.demo.DemoServer;
import dev.polite.examples.Cli;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code load} on the engines without OkHttp's interceptors ({@code polite-jdk}, Spring's
 * {@code polite-spring} and {@code polite-spring-hc5}, {@code polite-webclient} and HttpClient 5's
 * {@code polite-hc5}, blocking and {@code --async}): polite, told nothing, keeps {@code load --json}'s contract, counted where its
 * attempts happen: on the wire by a relay (sent, rejected, and each call's attempts, whose retries
 * are those beyond its first).
 */
class LoadRelayedClientTest {
  /** {@code load}'s arguments for {@code client} (a name, and {@code --async} where it is), then {@code more}. */
  private static String[] load(String client, String... more) {
    List<String> args = new ArrayList<>(List.of("load"));
    args.addAll(Arrays.asList(more));
    String[] named = client.split(" ");
    args.addAll(List.of("--client", named[0]));
    args.addAll(Arrays.asList(named).subList(1, named.length));
    return args.toArray(String[]::new);
  }

  @ParameterizedTest
  @ValueSource(strings = {"polite-jdk", "polite-jdk --async", "polite-spring", "polite-spring-hc5",
      "polite-webclient", "polite-webclient --async", "polite-hc5", "polite-hc5 --async"})
  void itKeepsTheJsonContractAgainstTheDemoServer(String client) {
    try (DemoServer server = DemoServer.builder().limit(5).window(Duration.ofSeconds(1)).burst(5).start()) {
      Cli cli = Cli.run(load(client, "--url", server.url() + "/api/items", "--requests", "12", "--concurrency", "4",
          "--json"));

      assertThat(cli.exit).as(cli.toString()).isZero();
      JsonNode json = cli.lastJson();
      assertThat(json.fieldNames()).toIterable()
          .startsWith("client", "requests", "succeeded", "failed", "rejected", "sent", "retries", "seconds",
              "threads_peak");
      assertThat(json.get("client").asText()).isEqualTo(client.split(" ")[0]);
      assertThat(json.get("requests").asInt()).isEqualTo(12);
      assertThat(json.get("succeeded").asInt()).isEqualTo(12);
      assertThat(json.get("failed").asInt()).isZero();
      assertThat(json.get("sent").asLong()).as("every request the server decided on")
          .isEqualTo(server.stats().admitted() + server.stats().rejected()).isGreaterThanOrEqualTo(12);
      assertThat(json.get("rejected").asLong()).as("the server's count").isEqualTo(server.stats().rejected());
      assertThat(json.get("retries").asLong()).as("a server that keeps its connections: no re-send of the engine's")
          .isEqualTo(json.get("sent").asLong() - 12);
      assertThat(json.get("seconds").asDouble()).isPositive();
    }
  }

  /** A refusal is counted on the wire, and polite's retry of it per call. */
  @ParameterizedTest
  @ValueSource(strings = {"polite-jdk", "polite-jdk --async", "polite-spring", "polite-spring-hc5",
      "polite-webclient", "polite-webclient --async", "polite-hc5", "polite-hc5 --async"})
  void aRefusalIsRejectedAndItsRetryARetry(String client) throws Exception {
    try (MockWebServer server = new MockWebServer()) {
      server.setDispatcher(new FirstThenRest(
          () -> new MockResponse.Builder().code(429).addHeader("Retry-After", "1").build(),
          () -> new MockResponse.Builder().code(200).body("{}").build()));
      server.start();

      Cli cli = Cli.run(load(client, "--url", server.url("/api/items").toString(), "--requests", "2", "--json"));

      assertThat(cli.exit).as(cli.toString()).isZero();
      JsonNode json = cli.lastJson();
      assertThat(json.get("succeeded").asInt()).isEqualTo(2);
      assertThat(json.get("rejected").asLong()).isEqualTo(1);
      assertThat(json.get("sent").asLong()).isEqualTo(3).isEqualTo(server.getRequestCount());
      assertThat(json.get("retries").asLong()).as("the refused call, sent again once").isEqualTo(1);
    }
  }

  /**
   * A cut connection ends a call in an exception: the run exits 1, and every request the server
   * read, the JDK client's own re-sends and polite's retries among them, is in {@code sent}.
   */
  @ParameterizedTest
  @ValueSource(strings = {"polite-jdk", "polite-jdk --async", "polite-spring", "polite-spring-hc5",
      "polite-webclient", "polite-webclient --async", "polite-hc5", "polite-hc5 --async"})
  void aFailedCallIsCountedEveryAttemptSentAndTheExitCodeIsOne(String client) throws Exception {
    try (MockWebServer cutting = new MockWebServer()) {
      cutting.setDispatcher(FirstThenRest.cutAfterFirst()); // answered, then every later call cut
      cutting.start();

      Cli cli = Cli.run(load(client, "--url", cutting.url("/api/x").toString(), "--requests", "3", "--json"));

      assertThat(cli.exit).as(cli.toString()).isEqualTo(1);
      JsonNode json = cli.lastJson();
      assertThat(json.get("succeeded").asInt()).isEqualTo(1);
      assertThat(json.get("failed").asInt()).isEqualTo(2);
      assertThat(json.get("sent").asLong()).as("every request the server read").isEqualTo(cutting.getRequestCount());
      assertThat(json.get("retries").asLong()).as("every attempt beyond each call's first, the engine's own too")
          .isEqualTo(json.get("sent").asLong() - 3);
      assertThat(json.get("rejected").asLong()).isZero();
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"polite-jdk", "polite-spring", "polite-spring-hc5", "polite-webclient", "polite-hc5"})
  void anHttpsUrlIsRefusedAtParseTime(String client) {
    Cli cli = Cli.run("load", "--url", "https://api.example.com/items", "--requests", "1", "--client", client);

    assertThat(cli.exit).isEqualTo(2);
    assertThat(cli.err).contains(client + " takes http URLs only");
  }

  @Test
  void restClientHasNoAsyncCall() {
    Cli cli = Cli.run("load", "--url", "http://127.0.0.1:9/items", "--requests", "1", "--client", "polite-spring",
        "--async");

    assertThat(cli.exit).isEqualTo(2);
    assertThat(cli.err).contains("polite-spring is Spring's RestClient");
  }

  @ParameterizedTest
  @ValueSource(strings = {"polite-jdk", "polite-jdk --async", "polite-spring", "polite-spring-hc5",
      "polite-webclient", "polite-webclient --async", "polite-hc5", "polite-hc5 --async"})
  void anUnreachableUrlIsOneLineAndANonZeroExit(String client) throws Exception {
    int port;
    try (ServerSocket socket = new ServerSocket(0)) {
      port = socket.getLocalPort();
    }

    Cli cli = Cli.run(load(client, "--url", "http://127.0.0.1:" + port + "/api", "--requests", "3"));

    assertThat(cli.exit).isEqualTo(1);
    assertThat(cli.err.strip()).startsWith("error: cannot reach http://127.0.0.1:" + port + "/api")
        .doesNotContain("\n");
    assertThat(cli.out).isEmpty();
  }
}
