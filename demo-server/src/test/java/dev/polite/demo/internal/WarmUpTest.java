package dev.polite.demo.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.polite.demo.Algorithm;
import dev.polite.demo.DemoServer;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The rehearsal a process's first server runs before it binds (see {@link WarmUp}) leaves nothing
 * behind: no count, no limiter key, no quota spent, with the algorithm (and so the store) the
 * server is configured with. How much faster it makes a first burst is a figure on a real machine,
 * printed by {@code HealthAfterBurst}, not asserted here.
 */
class WarmUpTest {
  @Test
  void theRehearsalSpendsNothingOfTheServersOwnState() throws Exception {
    for (Algorithm algorithm : Algorithm.values()) {
      WarmUp.again();
      try (DemoServer server = DemoServer.builder().algorithm(algorithm).limit(1).window(Duration.ofHours(1)).start()) {
        assertThat(server.stats().admitted() + server.stats().rejected()).as(algorithm.cliName()).isZero();
        assertThat(server.stats().keys()).as(algorithm.cliName()).isEmpty();
        HttpResponse<String> first = HttpClient.newHttpClient().send(
            HttpRequest.newBuilder(server.url().resolve("/api/admitted")).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(first.statusCode()).as("%s: the one request an hour is still there", algorithm.cliName()).isEqualTo(200);
      }
    }
  }
}
