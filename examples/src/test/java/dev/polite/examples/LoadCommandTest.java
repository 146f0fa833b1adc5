package dev.polite.examples;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.polite.demo.DemoServer;
import java.net.ServerSocket;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

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
  }

  @Test
  void pacedAtTheDefaultsIsNeverRefused() {
    Cli cli = Cli.run("load", "--url", url, "--requests", "8", "--client", "paced", "--rate", "4.5", "--burst", "5", "--json");

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
