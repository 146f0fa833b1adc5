package dev.polite.adaptive;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.polite.HeaderLines;
import dev.polite.RateController;
import dev.polite.ResponseView;
import dev.polite.okhttp.PoliteInterceptor;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Random;
import java.util.random.RandomGenerator;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import okhttp3.OkHttpClient;
import okhttp3.Protocol;
import okhttp3.Request;
import okhttp3.Response;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The interceptor against MockWebServer (h2c), alone and composed with PoliteInterceptor. */
class AdaptiveThrottleTest {
  private static final RandomGenerator NEVER = () -> -1L;
  private static final RandomGenerator ALWAYS = () -> 0L;

  private final MockWebServer server = new MockWebServer();
  private final FakeClock clock = new FakeClock();

  @BeforeEach
  void start() throws IOException {
    // HTTP/1.1 on loopback costs ~40 ms a request here; h2c does not.
    server.setProtocols(List.of(Protocol.H2_PRIOR_KNOWLEDGE));
    server.start();
  }

  @AfterEach
  void stop() {
    server.close();
  }

  /** The throttle before a polite that neither retries nor paces: the throttle's own judgment. */
  private OkHttpClient client(AdaptiveThrottle throttle) {
    return client(throttle, PoliteInterceptor.builder().clock(clock, clock).random(new Random(1))
        .maxAttempts(1).maxRateLimitRetries(0).rateController(RateController.none()));
  }

  private OkHttpClient client(AdaptiveThrottle throttle, PoliteInterceptor.Builder polite) {
    return new OkHttpClient.Builder()
        .protocols(List.of(Protocol.H2_PRIOR_KNOWLEDGE))
        .readTimeout(Duration.ofSeconds(5))
        .addInterceptor(polite.loadShedder(throttle).build())
        .build();
  }

  private Request get(Criticality criticality) {
    return new Request.Builder().url(server.url("/")).tag(Criticality.class, criticality).build();
  }

  private static MockResponse status(int code) {
    return new MockResponse.Builder().code(code).build();
  }

  private int call(OkHttpClient client, Request request) throws IOException {
    try (Response r = client.newCall(request).execute()) {
      return r.code();
    }
  }

  @Test
  void aDroppedCallFailsAtOnceWithoutReachingTheServer() throws IOException {
    AdaptiveThrottle throttle = AdaptiveThrottle.builder().ticker(clock).random(ALWAYS).build();
    OkHttpClient client = client(throttle);
    server.enqueue(status(503));
    assertThat(call(client, get(Criticality.CRITICAL))).isEqualTo(503);

    assertThatThrownBy(() -> call(client, get(Criticality.CRITICAL)))
        .isInstanceOfSatisfying(ThrottledLocallyException.class, e -> {
          assertThat(e.key()).isEqualTo("http://" + server.getHostName() + ":" + server.getPort());
          assertThat(e.criticality()).isEqualTo(Criticality.CRITICAL);
          assertThat(e.probability()).isEqualTo(0.5); // (1 - 0) / (1 + 1)
          assertThat(e).hasMessageContaining("dropped locally").hasMessageContaining("not sent");
        });
    assertThat(server.getRequestCount()).isEqualTo(1);
  }

  @Test
  void sheddableCallsAreDroppedWhileCriticalOnesStillGo() throws IOException {
    AdaptiveThrottle throttle = AdaptiveThrottle.builder().ticker(clock).random(ALWAYS).build();
    OkHttpClient client = client(throttle);
    for (int i = 0; i < 10; i++) {
      server.enqueue(status(i < 8 ? 200 : 503));
      call(client, get(Criticality.CRITICAL_PLUS));
    }
    // 10 requests, 8 accepts: K 1.4 for CRITICAL_PLUS lets 11.2 through; K 1.1 for SHEDDABLE 8.8.
    assertThatThrownBy(() -> call(client, get(Criticality.SHEDDABLE)))
        .isInstanceOf(ThrottledLocallyException.class);
    server.enqueue(status(200));
    assertThat(call(client, get(Criticality.CRITICAL_PLUS))).isEqualTo(200);
    assertThat(server.getRequestCount()).isEqualTo(11);
  }

  /**
   * polite asks the throttle before anything else, and tells it each call's end after its own
   * retries, so it counts each call once, by its final answer.
   */
  @Test
  void itCountsEachCallOnceByItsFinalAnswerAfterPolitesRetries() throws IOException {
    AdaptiveThrottle throttle = AdaptiveThrottle.builder().ticker(clock).random(NEVER).build();
    OkHttpClient client = client(throttle, PoliteInterceptor.builder().clock(clock, clock)
        .random(new Random(1)).maxAttempts(3));
    String key = "http://" + server.getHostName() + ":" + server.getPort();

    server.enqueue(status(503));
    server.enqueue(status(503));
    server.enqueue(status(200));
    assertThat(call(client, get(Criticality.CRITICAL))).isEqualTo(200);
    AdaptiveThrottler t = throttle.throttler(key);
    assertThat(t.requests(clock.read())).isEqualTo(1);
    assertThat(t.accepts(clock.read())).isEqualTo(1);

    server.enqueue(status(503));
    server.enqueue(status(503));
    server.enqueue(status(503));
    assertThat(call(client, get(Criticality.CRITICAL))).isEqualTo(503);
    assertThat(t.requests(clock.read())).isEqualTo(2);
    assertThat(t.accepts(clock.read())).isEqualTo(1);
    assertThat(server.getRequestCount()).as("polite's retries reached the server").isEqualTo(6);
  }

  @Test
  void aDropIsNeitherPacedNorRetried() throws IOException {
    AdaptiveThrottle throttle = AdaptiveThrottle.builder().ticker(clock).random(ALWAYS).build();
    OkHttpClient client = client(throttle, PoliteInterceptor.builder().clock(clock, clock)
        .random(new Random(1)).maxAttempts(1).maxRateLimitRetries(0));
    server.enqueue(status(429));
    assertThat(call(client, get(Criticality.CRITICAL))).isEqualTo(429);
    long before = clock.read();
    assertThatThrownBy(() -> call(client, get(Criticality.CRITICAL)))
        .isInstanceOf(ThrottledLocallyException.class);
    assertThat(clock.read()).as("no wait on the fake clock").isEqualTo(before);
    assertThat(server.getRequestCount()).isEqualTo(1);
  }

  @Test
  void judgesOverloadAndRateLimitRefusals() {
    assertThat(overload(429)).isTrue();
    assertThat(overload(502)).isTrue();
    assertThat(overload(503)).isTrue();
    assertThat(overload(504)).isTrue();
    assertThat(overload(500)).as("the server did work").isFalse();
    assertThat(overload(404)).isFalse();
    assertThat(overload(200)).isFalse();
    assertThat(overload(403)).as("a plain forbidden").isFalse();
    assertThat(overload(403, "X-RateLimit-Remaining", "0")).isTrue();
    assertThat(overload(403, "x-ratelimit-remaining", "12")).isFalse();
    assertThat(overload(403, "RateLimit", "\"default\";r=0;t=30")).isTrue();
    assertThat(overload(403, "RateLimit", "\"default\";r=10;t=30")).isFalse();
  }

  @Test
  void buildersNameTheParameterTheyRefuse() {
    assertThatThrownBy(() -> AdaptiveThrottle.builder().multiplier(1))
        .hasMessageContaining("multiplier");
    assertThatThrownBy(() -> AdaptiveThrottle.builder().window(Duration.ZERO, 10))
        .hasMessageContaining("window");
    assertThatThrownBy(() -> AdaptiveThrottle.builder().window(Duration.ofSeconds(1), 0))
        .hasMessageContaining("buckets");
    assertThatThrownBy(() -> AdaptiveThrottle.builder().maxProbability(0))
        .hasMessageContaining("maxProbability");
    assertThatThrownBy(() -> AdaptiveThrottle.builder().padding(0.5))
        .hasMessageContaining("padding");
    assertThatThrownBy(() -> AdaptiveThrottle.builder().probeInterval(Duration.ofSeconds(-1)))
        .hasMessageContaining("probeInterval");
    assertThatThrownBy(() -> Cubic.builder().beta(1)).hasMessageContaining("beta");
    assertThatThrownBy(() -> Cubic.builder().scale(0)).hasMessageContaining("scale");
    assertThatThrownBy(() -> Cubic.builder().minRate(-1)).hasMessageContaining("minRate");
  }

  @Test
  void bookExactIsTheBooksForm() {
    AdaptiveThrottle book = AdaptiveThrottle.bookExact();
    assertThat(book.multiplier()).isEqualTo(2);
    assertThat(book.window()).isEqualTo(Duration.ofMinutes(2));
    assertThat(book.padding()).isEqualTo(1);
    assertThat(book.maxProbability()).isEqualTo(1);
    assertThat(book.countsLocalDrops()).isTrue();
    assertThat(book.probeInterval()).isZero();
  }

  private static boolean overload(int code, String... header) {
    return AdaptiveThrottle.overloadOrRateLimited(ResponseView.of(code, HeaderLines.of(header)));
  }
}
