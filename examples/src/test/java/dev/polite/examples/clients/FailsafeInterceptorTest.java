package dev.polite.examples.clients;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import mockwebserver3.SocketEffect;
import okhttp3.MediaType;
import okhttp3.OkHttpClient;
import okhttp3.Protocol;
import okhttp3.Request;
import okhttp3.RequestBody;
import okhttp3.Response;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The "Failsafe by hand" peer against MockWebServer, in real time (Failsafe sleeps for real):
 * short delays only, each test well under two seconds.
 */
class FailsafeInterceptorTest {
  private final MockWebServer server = new MockWebServer();
  private final AttemptCounter counter = new AttemptCounter(System.nanoTime());

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

  private OkHttpClient client(FailsafeInterceptor failsafe) {
    return counter.addTo(new OkHttpClient.Builder()
        .protocols(List.of(Protocol.H2_PRIOR_KNOWLEDGE))
        .readTimeout(Duration.ofSeconds(5))
        .retryOnConnectionFailure(false) // OkHttp's own silent retry would hide Failsafe's rules
        .addInterceptor(failsafe))
        .build();
  }

  private static MockResponse status(int code, String... headers) {
    MockResponse.Builder response = new MockResponse.Builder().code(code).body("{}");
    for (int i = 0; i < headers.length; i += 2) {
      response.addHeader(headers[i], headers[i + 1]);
    }
    return response.build();
  }

  @Test
  void a429IsRetriedNoSoonerThanItsRetryAfterAndTheRetryIsCountedForItsCall() throws Exception {
    server.enqueue(status(429, "Retry-After", "1"));
    server.enqueue(status(200));
    CallAttempts attempts = new CallAttempts();
    Request request = CallAttempts.tag(new Request.Builder().url(server.url("/api/x")).build(), attempts);

    long start = System.nanoTime();
    try (Response response = client(FailsafeInterceptor.perSecond(100)).newCall(request).execute()) {
      long elapsed = System.nanoTime() - start;
      assertThat(response.code()).isEqualTo(200);
      assertThat(response.body().string()).isEqualTo("{}"); // the answer it returns is open
      assertThat(Duration.ofNanos(elapsed)).isBetween(Duration.ofSeconds(1), Duration.ofMillis(1900));
    }
    RecordedRequest first = server.takeRequest(1, TimeUnit.SECONDS);
    RecordedRequest second = server.takeRequest(1, TimeUnit.SECONDS);
    assertThat(first).isNotNull();
    assertThat(second).isNotNull();
    assertThat(attempts.attempts()).isEqualTo(2);
    assertThat(attempts.retries()).isEqualTo(1);
    assertThat(counter.rejected()).isEqualTo(1);
  }

  @Test
  void anHttpDateIsMeasuredAgainstTheAnswersDateNotOurClock() throws Exception {
    // The server's clock is a day behind ours: against our clock the date is long past (retry at
    // once), against its Date it says one second.
    server.enqueue(status(429, "Date", "Wed, 21 Oct 2015 07:28:00 GMT", "Retry-After", "Wed, 21 Oct 2015 07:28:01 GMT"));
    server.enqueue(status(200));

    assertThat(timeToAnOk()).isBetween(Duration.ofSeconds(1), Duration.ofMillis(1900));
  }

  @Test
  void a503WithoutRetryAfterBacksOffWithJitter() throws Exception {
    server.enqueue(status(503));
    server.enqueue(status(200));

    // 0.5 s of backoff, jittered by 25 % either way
    assertThat(timeToAnOk()).isBetween(Duration.ofMillis(375), Duration.ofMillis(1000));
  }

  /** How long one GET through a fresh client took to come back 200. */
  private Duration timeToAnOk() throws IOException {
    long start = System.nanoTime();
    try (Response response = client(FailsafeInterceptor.perSecond(100))
        .newCall(new Request.Builder().url(server.url("/api/x")).build()).execute()) {
      assertThat(response.code()).isEqualTo(200);
    }
    return Duration.ofNanos(System.nanoTime() - start);
  }

  @Test
  void anIoErrorIsRetriedForAGetButNotForAPost() throws Exception {
    MockResponse broken = new MockResponse.Builder().onResponseStart(new SocketEffect.CloseStream()).build();
    server.enqueue(broken);
    server.enqueue(status(200));
    OkHttpClient client = client(FailsafeInterceptor.perSecond(100));
    try (Response response = client.newCall(new Request.Builder().url(server.url("/api/x")).build()).execute()) {
      assertThat(response.code()).isEqualTo(200);
    }

    server.enqueue(broken);
    server.enqueue(status(200));
    Request post = new Request.Builder().url(server.url("/api/x"))
        .post(RequestBody.create("{}", MediaType.get("application/json"))).build();
    assertThatThrownBy(() -> client.newCall(post).execute().close()).isInstanceOf(IOException.class);
    assertThat(counter.sent()).as("GET: broken, then answered; POST: broken, not retried").isEqualTo(3);
  }

  @Test
  void theRateLimiterSpacesCallsEvenlyAtTheGuessedRate() throws Exception {
    OkHttpClient client = client(FailsafeInterceptor.perSecond(20)); // one every 50 ms, no burst
    long start = System.nanoTime();
    for (int i = 0; i < 5; i++) {
      server.enqueue(status(200));
      try (Response response = client.newCall(new Request.Builder().url(server.url("/api/x")).build()).execute()) {
        assertThat(response.code()).isEqualTo(200);
      }
    }
    assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(Duration.ofMillis(195));
    assertThat(counter.sent()).isEqualTo(5);
  }

  @Test
  void aFractionalRateBecomesWholeExecutionsPerPeriod() {
    assertThatThrownBy(() -> FailsafeInterceptor.perSecond(0)).hasMessageStartingWith("rate:");
    assertThatThrownBy(() -> new FailsafeInterceptor(0, Duration.ofSeconds(1))).hasMessageStartingWith("maxExecutions:");
    assertThat(FailsafeInterceptor.perSecond(4.5)).isNotNull();
    assertThat(FailsafeInterceptor.perSecond(0.1)).isNotNull();
  }

  /** The attempts are written in two places, so that the interceptor need not name ClientKind above it. */
  @Test
  void itMakesAsManyAttemptsAsTheOtherRetryingPeers() {
    assertThat(FailsafeInterceptor.MAX_ATTEMPTS).isEqualTo(ClientKind.PEER_ATTEMPTS);
  }
}
