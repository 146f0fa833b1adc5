package dev.polite.adaptive;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.polite.jdk.HintedRequest;
import dev.polite.jdk.PoliteHttpClient;
import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse.BodyHandlers;
import java.time.Duration;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.random.RandomGenerator;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The throttle on the JDK client, as on OkHttp: polite's load shedder, asked before a call waits
 * and told each call's end once, blocking ({@code send}) and asynchronously ({@code sendAsync}).
 */
class ThrottleOnTheJdkClientTest {
  private static final RandomGenerator NEVER = () -> -1L;
  private static final RandomGenerator ALWAYS = () -> 0L;

  private final MockWebServer server = new MockWebServer();
  private final FakeClock clock = new FakeClock();
  private final HttpClient jdk = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

  @BeforeEach
  void start() throws IOException {
    server.start();
  }

  @AfterEach
  void stop() {
    server.close();
  }

  private PoliteHttpClient.Builder polite(AdaptiveThrottle throttle) {
    return PoliteHttpClient.builder(jdk).clock(clock, clock).random(new Random(1))
        .loadShedder(throttle);
  }

  private HttpRequest get(Criticality criticality) {
    return HintedRequest.of(HttpRequest.newBuilder(server.url("/").uri())
        .timeout(Duration.ofSeconds(10)).build(), criticality);
  }

  private static MockResponse status(int code) {
    return new MockResponse.Builder().code(code).build();
  }

  private String key() {
    return "http://" + server.getHostName() + ":" + server.getPort();
  }

  @Test
  void aSendItDropsFailsAtOnceWithoutReachingTheServer() throws Exception {
    AdaptiveThrottle throttle = AdaptiveThrottle.builder().ticker(clock).random(ALWAYS).build();
    HttpClient client = polite(throttle).maxAttempts(1).build();
    server.enqueue(status(503));
    assertThat(client.send(get(Criticality.CRITICAL), BodyHandlers.discarding()).statusCode())
        .isEqualTo(503);

    assertThatThrownBy(() -> client.send(get(Criticality.CRITICAL), BodyHandlers.discarding()))
        .isInstanceOf(ThrottledLocallyException.class);
    assertThat(server.getRequestCount()).isEqualTo(1);
  }

  @Test
  void itCountsEachSendOnceByItsFinalAnswerAfterPolitesRetries() throws Exception {
    AdaptiveThrottle throttle = AdaptiveThrottle.builder().ticker(clock).random(NEVER).build();
    HttpClient client = polite(throttle).maxAttempts(3).build();
    server.enqueue(status(503));
    server.enqueue(status(503));
    server.enqueue(status(200));

    assertThat(client.send(get(Criticality.CRITICAL), BodyHandlers.discarding()).statusCode())
        .isEqualTo(200);

    AdaptiveThrottler t = throttle.throttler(key());
    assertThat(t.requests(clock.read())).isEqualTo(1);
    assertThat(t.accepts(clock.read())).isEqualTo(1);
    assertThat(server.getRequestCount()).as("polite's retries reached the server").isEqualTo(3);
  }

  @Test
  void aSendAsyncItDropsFailsItsFutureAndOneThatEndsIsCountedByItsAnswer() throws Exception {
    AdaptiveThrottle throttle = AdaptiveThrottle.builder().ticker(clock).random(ALWAYS).build();
    HttpClient client = polite(throttle).maxAttempts(1).build();
    server.enqueue(status(503));
    assertThat(client.sendAsync(get(Criticality.CRITICAL), BodyHandlers.discarding())
        .get(10, TimeUnit.SECONDS).statusCode()).isEqualTo(503);
    AdaptiveThrottler t = throttle.throttler(key());
    assertThat(t.requests(clock.read())).isEqualTo(1);
    assertThat(t.accepts(clock.read())).as("a 503 is no accept").isZero();

    CompletableFuture<?> dropped = client.sendAsync(get(Criticality.CRITICAL), BodyHandlers.discarding());
    assertThatThrownBy(() -> dropped.get(10, TimeUnit.SECONDS))
        .isInstanceOf(ExecutionException.class)
        .hasCauseInstanceOf(ThrottledLocallyException.class);
    assertThat(server.getRequestCount()).isEqualTo(1);
  }

  @Test
  void aCallItsCallerCancelsSaysNothingOfTheServer() throws Exception {
    AdaptiveThrottle throttle = AdaptiveThrottle.builder().ticker(clock).random(NEVER).build();
    HttpClient client = polite(throttle).build();
    server.enqueue(new MockResponse.Builder().code(200).headersDelay(5, TimeUnit.SECONDS).build());

    CompletableFuture<?> slow = client.sendAsync(get(Criticality.CRITICAL), BodyHandlers.discarding());
    assertThat(server.takeRequest(10, TimeUnit.SECONDS)).isNotNull();
    slow.cancel(true);

    AdaptiveThrottler t = throttle.throttler(key());
    assertThat(t.requests(clock.read())).isEqualTo(1);
    assertThat(t.accepts(clock.read())).as("cancelled: counted as no refusal").isEqualTo(1);
  }
}
