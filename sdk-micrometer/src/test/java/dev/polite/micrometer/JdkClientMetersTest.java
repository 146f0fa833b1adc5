package dev.polite.micrometer;

import static org.assertj.core.api.Assertions.assertThat;

import dev.polite.RateController;
import dev.polite.Scheduler;
import dev.polite.jdk.PoliteHttpClient;
import dev.polite.testing.FakeClock;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse.BodyHandlers;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The meters hear polite on the JDK's client as on OkHttp: the same events, the same meters, by
 * the same key, for {@code send} and {@code sendAsync}.
 */
class JdkClientMetersTest {
  private final MockWebServer server = new MockWebServer();
  private final FakeClock clock = new FakeClock();
  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
  private final PoliteMetrics metrics = PoliteMetrics.create();

  JdkClientMetersTest() throws java.io.IOException {
    server.start();
    metrics.bindTo(registry);
  }

  @AfterEach
  void close() {
    server.close();
  }

  private String key() {
    return "http://" + server.getHostName() + ":" + server.getPort();
  }

  private double count(String name) {
    return registry.get(name).tag("key", key()).counter().count();
  }

  @Test
  void aRefusalRetriedOnTheJdkClientCountsARejectionARetryAndTwoAttempts() throws Exception {
    for (int call = 0; call < 2; call++) {
      server.enqueue(new MockResponse.Builder().code(429).addHeader("Retry-After", "1").build());
      server.enqueue(new MockResponse.Builder().code(200).build());
    }
    HttpClient client = PoliteHttpClient.builder(HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1).build())
        .clock(clock, clock).wallClock(clock).rateController(RateController.none())
        .addListener(metrics).build();
    HttpRequest request = HttpRequest.newBuilder(server.url("/a").uri()).build();

    assertThat(client.send(request, BodyHandlers.discarding()).statusCode()).isEqualTo(200);
    assertThat(count("polite.calls.rejected")).isEqualTo(1);
    assertThat(count("polite.calls.retries")).isEqualTo(1);
    assertThat(registry.get("polite.calls.wait").tag("key", key()).timer().count())
        .as("two attempts sent").isEqualTo(2);

    // sendAsync's waits are tasks: here each runs at once, on its own thread, the fake clock moved
    // to its time first.
    ExecutorService tasks = Executors.newSingleThreadExecutor();
    try {
      Scheduler atOnce = (deadline, task) -> {
        tasks.execute(() -> {
          clock.advance(Duration.ofNanos(Math.max(0, deadline - clock.read())));
          task.run();
        });
        return () -> {};
      };
      HttpClient async = PoliteHttpClient.builder(HttpClient.newBuilder()
              .version(HttpClient.Version.HTTP_1_1).build())
          .clock(clock, clock).wallClock(clock).rateController(RateController.none())
          .scheduler(atOnce).addListener(metrics).build();
      assertThat(async.sendAsync(request, BodyHandlers.discarding()).get(10, TimeUnit.SECONDS)
          .statusCode()).isEqualTo(200);
    } finally {
      tasks.shutdownNow();
    }
    assertThat(count("polite.calls.rejected")).isEqualTo(2);
    assertThat(count("polite.calls.retries")).isEqualTo(2);
  }
}
