package dev.polite.examples.load;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.polite.demo.DemoServer;
import dev.polite.examples.Cli;
import java.net.ServerSocket;
import java.time.Duration;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import org.junit.jupiter.api.Test;

/**
 * {@code load --client polite-jdk}: polite on the JDK's {@code HttpClient}, told nothing, keeps
 * {@code load --json}'s contract, counted where its attempts happen: on the wire by a relay
 * (sent, rejected, and each call's attempts, whose retries are those beyond its first).
 */
class LoadPoliteJdkTest {
  @Test
  void itKeepsTheJsonContractAgainstTheDemoServer() {
    try (DemoServer server = DemoServer.builder().limit(5).window(Duration.ofSeconds(1)).burst(5).start()) {
      Cli cli = Cli.run("load", "--url", server.url() + "/api/items", "--requests", "12", "--concurrency", "4",
          "--client", "polite-jdk", "--json");

      assertThat(cli.exit).as(cli.toString()).isZero();
      JsonNode json = cli.lastJson();
      assertThat(json.fieldNames()).toIterable()
          .containsExactly("client", "requests", "succeeded", "failed", "rejected", "sent", "retries", "seconds",
              "threads_peak");
      assertThat(json.get("client").asText()).isEqualTo("polite-jdk");
      assertThat(json.get("requests").asInt()).isEqualTo(12);
      assertThat(json.get("succeeded").asInt()).isEqualTo(12);
      assertThat(json.get("failed").asInt()).isZero();
      assertThat(json.get("sent").asLong()).as("every request the server decided on")
          .isEqualTo(server.stats().admitted() + server.stats().rejected()).isGreaterThanOrEqualTo(12);
      assertThat(json.get("rejected").asLong()).as("the server's count").isEqualTo(server.stats().rejected());
      assertThat(json.get("retries").asLong()).as("a server that keeps its connections: no re-send of the JDK's")
          .isEqualTo(json.get("sent").asLong() - 12);
      assertThat(json.get("seconds").asDouble()).isPositive();
    }
  }

  /** A refusal is counted on the wire, and polite's retry of it per call. */
  @Test
  void aRefusalIsRejectedAndItsRetryARetry() throws Exception {
    try (MockWebServer server = new MockWebServer()) {
      server.setDispatcher(new FirstThenRest(
          () -> new MockResponse.Builder().code(429).addHeader("Retry-After", "1").build(),
          () -> new MockResponse.Builder().code(200).body("{}").build()));
      server.start();

      Cli cli = Cli.run("load", "--url", server.url("/api/items").toString(), "--requests", "2",
          "--client", "polite-jdk", "--json");

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
  @Test
  void aFailedCallIsCountedEveryAttemptSentAndTheExitCodeIsOne() throws Exception {
    try (MockWebServer cutting = new MockWebServer()) {
      cutting.setDispatcher(FirstThenRest.cutAfterFirst()); // answered, then every later call cut
      cutting.start();

      Cli cli = Cli.run("load", "--url", cutting.url("/api/x").toString(), "--requests", "3",
          "--client", "polite-jdk", "--json");

      assertThat(cli.exit).as(cli.toString()).isEqualTo(1);
      JsonNode json = cli.lastJson();
      assertThat(json.get("succeeded").asInt()).isEqualTo(1);
      assertThat(json.get("failed").asInt()).isEqualTo(2);
      assertThat(json.get("sent").asLong()).as("every request the server read").isEqualTo(cutting.getRequestCount());
      assertThat(json.get("retries").asLong()).as("every attempt beyond each call's first, the JDK's own too")
          .isEqualTo(json.get("sent").asLong() - 3);
      assertThat(json.get("rejected").asLong()).isZero();
    }
  }

  @Test
  void anHttpsUrlIsRefusedAtParseTime() {
    Cli cli = Cli.run("load", "--url", "https://api.example.com/items", "--requests", "1", "--client", "polite-jdk");

    assertThat(cli.exit).isEqualTo(2);
    assertThat(cli.err).contains("polite-jdk takes http URLs only");
  }

  @Test
  void anUnreachableUrlIsOneLineAndANonZeroExit() throws Exception {
    int port;
    try (ServerSocket socket = new ServerSocket(0)) {
      port = socket.getLocalPort();
    }

    Cli cli = Cli.run("load", "--url", "http://127.0.0.1:" + port + "/api", "--requests", "3", "--client",
        "polite-jdk");

    assertThat(cli.exit).isEqualTo(1);
    assertThat(cli.err.strip()).startsWith("error: cannot reach http://127.0.0.1:" + port + "/api")
        .doesNotContain("\n");
    assertThat(cli.out).isEmpty();
  }
}
