package dev.polite.okhttp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.failsafe.RetryPolicy;
import dev.polite.CallContext;
import dev.polite.GiveUpReason;
import dev.polite.PoliteListener;
import dev.polite.RateLimitKey;
import dev.polite.RateLimitSignals;
import dev.polite.RateLimitedException;
import dev.polite.ResponseView;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import mockwebserver3.MockResponse;
import mockwebserver3.SocketEffect;
import okhttp3.MediaType;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.RequestBody;
import okhttp3.Response;
import org.junit.jupiter.api.Test;

/** Retries, pauses and giving up, each with the request count and the waits the fake clock saw. */
class RetryTest extends HarnessTest {
  private final List<String> events = new CopyOnWriteArrayList<>();
  private final PoliteListener recorder = new PoliteListener() {
    @Override
    public void retryScheduled(CallContext call, int attempt, Duration delay) {
      events.add("retry " + attempt);
    }

    @Override
    public void gaveUp(CallContext call, GiveUpReason reason, Duration requestedDelay) {
      events.add("gave up " + reason + " " + requestedDelay.toSeconds() + "s");
    }

    @Override
    public void rateLimited(CallContext call, RateLimitSignals signals) {
      events.add("rate limited");
    }

    @Override
    public void paused(String key, Duration pause) {
      events.add("paused " + pause.toSeconds() + "s");
    }
  };

  private static MockResponse status(int code, String... headers) {
    MockResponse.Builder b = new MockResponse.Builder().code(code).body("body " + code);
    for (int i = 0; i < headers.length; i += 2) {
      b.addHeader(headers[i], headers[i + 1]);
    }
    return b.build();
  }

  @Test
  void aScripted429SequenceIsRetriedNoSoonerThanRetryAfter() throws Exception {
    h.server.enqueue(status(429, "Retry-After", "2"));
    h.server.enqueue(status(429, "Retry-After", "1"));
    h.server.enqueue(status(200));
    OkHttpClient client = h.client(h.polite().addListener(recorder).rateController(Harness.NO_DISCOVERY));

    try (Response r = client.newCall(h.get("/a")).execute()) {
      assertThat(r.code()).isEqualTo(200);
      assertThat(r.body().string()).isEqualTo("body 200");
    }

    assertThat(h.server.getRequestCount()).isEqualTo(3);
    assertThat(h.sends.get(0)).isZero();
    // Retry-After exactly: the key is paused that long, and its pause spaces the calls.
    assertThat(h.sends.get(1)).isEqualTo(2.0);
    assertThat(h.sends.get(2) - h.sends.get(1)).isEqualTo(1.0);
    assertThat(events).containsSubsequence("rate limited", "retry 1", "rate limited", "retry 2");
  }

  @Test
  void withoutRetryAfterItBacksOffExponentiallyWithFullJitter() throws Exception {
    for (int i = 0; i < 3; i++) {
      h.server.enqueue(status(503));
    }
    h.server.enqueue(status(200));
    OkHttpClient client = h.client(h.polite());

    try (Response r = client.newCall(h.get("/a")).execute()) {
      assertThat(r.code()).isEqualTo(200);
    }

    assertThat(h.server.getRequestCount()).isEqualTo(4);
    assertThat(h.sends.get(1) - h.sends.get(0)).isBetween(0.0, 0.5);
    assertThat(h.sends.get(2) - h.sends.get(1)).isBetween(0.0, 1.0);
    assertThat(h.sends.get(3) - h.sends.get(2)).isBetween(0.0, 2.0);
  }

  @Test
  void remainingZeroPausesTheOtherCallsToTheKey() throws Exception {
    h.server.enqueue(status(200, "RateLimit", "\"default\";r=0;t=5"));
    h.server.enqueue(status(200));
    OkHttpClient client = h.client(h.polite().addListener(recorder));

    try (Response r = client.newCall(h.get("/a")).execute()) {
      assertThat(r.code()).isEqualTo(200);
    }
    try (Response r = client.newCall(h.get("/b")).execute()) {
      assertThat(r.code()).isEqualTo(200);
    }

    assertThat(h.server.getRequestCount()).isEqualTo(2);
    assertThat(h.sends.get(1)).isEqualTo(5.0);
    assertThat(events).contains("paused 5s");
  }

  @Test
  void one429PausesTheWholeKeyNotOnlyItsCall() throws Exception {
    h.server.enqueue(status(429, "Retry-After", "3"));
    h.server.enqueue(status(200));
    OkHttpClient client = h.client(h.polite().maxAttempts(1).maxRateLimitRetries(0));

    try (Response r = client.newCall(h.get("/a")).execute()) {
      assertThat(r.code()).isEqualTo(429);
    }
    try (Response r = client.newCall(h.get("/b")).execute()) {
      assertThat(r.code()).isEqualTo(200);
    }

    assertThat(h.sends).containsExactly(0.0, 3.0);
  }

  @Test
  void aPauseOnOneKeyLeavesOtherKeysAlone() throws Exception {
    h.server.enqueue(status(429, "Retry-After", "30"));
    h.server.enqueue(status(200));
    OkHttpClient client = h.client(h.polite().maxAttempts(1).maxRateLimitRetries(0).key(RateLimitKey.route()));

    try (Response r = client.newCall(h.get("/a")).execute()) {
      assertThat(r.code()).isEqualTo(429);
    }
    try (Response r = client.newCall(h.get("/b")).execute()) {
      assertThat(r.code()).isEqualTo(200);
    }

    assertThat(h.sends).containsExactly(0.0, 0.0);
  }

  @Test
  void postWith502IsNotRetriedButPostWith429Is() throws Exception {
    h.server.enqueue(status(502));
    h.server.enqueue(status(429, "Retry-After", "1"));
    h.server.enqueue(status(201));
    OkHttpClient client = h.client(h.polite());

    try (Response r = client.newCall(post("/orders", null)).execute()) {
      assertThat(r.code()).isEqualTo(502);
      assertThat(r.body().string()).isEqualTo("body 502");
    }
    assertThat(h.server.getRequestCount()).isEqualTo(1);

    try (Response r = client.newCall(post("/orders", null)).execute()) {
      assertThat(r.code()).isEqualTo(201);
    }
    assertThat(h.server.getRequestCount()).isEqualTo(3);
  }

  @Test
  void postWithAnIdempotencyKeyAndGetAreRetriedOn502And504() throws Exception {
    h.server.enqueue(status(502));
    h.server.enqueue(status(200));
    h.server.enqueue(status(504));
    h.server.enqueue(status(200));
    OkHttpClient client = h.client(h.polite());

    try (Response r = client.newCall(post("/orders", "abc-123")).execute()) {
      assertThat(r.code()).isEqualTo(200);
    }
    try (Response r = client.newCall(h.get("/orders")).execute()) {
      assertThat(r.code()).isEqualTo(200);
    }
    assertThat(h.server.getRequestCount()).isEqualTo(4);
  }

  @Test
  void ioErrorsAreRetriedOnlyWhenTheRequestMayBeRepeated() throws Exception {
    h.server.enqueue(new MockResponse.Builder().onResponseStart(SocketEffect.ShutdownConnection.INSTANCE).build());
    h.server.enqueue(status(200));
    OkHttpClient client = h.client(h.polite());

    try (Response r = client.newCall(h.get("/a")).execute()) {
      assertThat(r.code()).isEqualTo(200);
    }
    assertThat(h.server.getRequestCount()).isEqualTo(2);
  }

  @Test
  void aRetryAfterOfADayComesBackAtOnce() throws Exception {
    h.server.enqueue(status(429, "Retry-After", "86400", "X-RateLimit-Remaining", "0"));
    OkHttpClient client = h.client(h.polite().addListener(recorder).rateController(Harness.NO_DISCOVERY));

    try (Response r = client.newCall(h.get("/a")).execute()) {
      assertThat(r.code()).isEqualTo(429);
      assertThat(r.header("Retry-After")).isEqualTo("86400");
      assertThat(r.body().string()).isEqualTo("body 429");
    }

    assertThat(h.server.getRequestCount()).isEqualTo(1);
    assertThat(h.clock.totalSleptNanos()).isZero();
    assertThat(events).contains("gave up WAIT_TOO_LONG 86400s");

    // The refusal reports its budget spent, so the day is believed at once (a key that shows no
    // limit doubts it until the calls after it confirm it: UnusableHintsTest).
    // A pause of a day is longer than any call may wait (60 s): no call can wait it out, so the
    // next one is told at once, with the server's delay, and sends nothing. It is not trusted for
    // the day either: after the max wait, one call goes as the probe that re-verifies it; the
    // server has recovered, so the pause ends and the call after it goes at once.
    assertThatThrownBy(() -> client.newCall(h.get("/b")).execute())
        .isInstanceOfSatisfying(RateLimitedException.class,
            e -> assertThat(e.requestedDelay()).isEqualTo(Duration.ofDays(1)));
    assertThat(h.clock.totalSleptNanos()).isZero();
    assertThat(h.server.getRequestCount()).isEqualTo(1);

    h.clock.advance(Duration.ofSeconds(60));
    h.server.enqueue(status(200));
    h.server.enqueue(status(200));
    try (Response r = client.newCall(h.get("/b")).execute()) {
      assertThat(r.code()).isEqualTo(200);
    }
    assertThat(h.sends.get(1)).isEqualTo(60.0);
    try (Response r = client.newCall(h.get("/c")).execute()) {
      assertThat(r.code()).isEqualTo(200);
    }
    assertThat(h.sends.get(2)).isEqualTo(60.0);
    assertThat(h.server.getRequestCount()).isEqualTo(3);
    assertThat(h.clock.totalSleptNanos()).as("no call waited for the probe").isZero();
  }

  @Test
  void aProbeRefusedAgainRenewsTheLongPauseForAnotherMaxWait() throws Exception {
    h.server.enqueue(status(429, "Retry-After", "86400", "X-RateLimit-Remaining", "0"));
    h.server.enqueue(status(429, "Retry-After", "86400", "X-RateLimit-Remaining", "0"));
    h.server.enqueue(status(200));
    OkHttpClient client = h.client(h.polite().maxWait(Duration.ofSeconds(10))
        .rateController(Harness.NO_DISCOVERY));

    client.newCall(h.get("/a")).execute().close();           // sent at 0, refused for a day
    assertThatThrownBy(() -> client.newCall(h.get("/early")).execute()) // before the probe's time: told at once
        .isInstanceOf(RateLimitedException.class);
    h.clock.advance(Duration.ofSeconds(10));
    client.newCall(h.get("/b")).execute().close();           // the probe at 10, refused again
    h.clock.advance(Duration.ofSeconds(9));
    assertThatThrownBy(() -> client.newCall(h.get("/early")).execute())
        .isInstanceOf(RateLimitedException.class);
    h.clock.advance(Duration.ofSeconds(1));
    try (Response r = client.newCall(h.get("/c")).execute()) { // the next probe at 20
      assertThat(r.code()).isEqualTo(200);
    }
    assertThat(h.sends).containsExactly(0.0, 10.0, 20.0);
  }

  @Test
  void givingUpCanThrowWithTheServersDelay() throws Exception {
    h.server.enqueue(status(429, "Retry-After", "86400"));
    OkHttpClient client = h.client(h.polite().throwWhenRateLimited(true));

    assertThatThrownBy(() -> client.newCall(h.get("/a")).execute())
        .isInstanceOfSatisfying(RateLimitedException.class, e -> {
          assertThat(e.requestedDelay()).isEqualTo(Duration.ofDays(1));
          assertThat(e.signals().isRejection()).isTrue();
          assertThat(e.key()).startsWith("http://");
        });
    assertThat(h.server.getRequestCount()).isEqualTo(1);
  }

  @Test
  void theCallTimeoutBoundsTheWaitToo() throws Exception {
    h.server.enqueue(status(429, "Retry-After", "5"));
    OkHttpClient client = h.client(h.polite()).newBuilder().callTimeout(2, TimeUnit.SECONDS).build();

    try (Response r = client.newCall(h.get("/a")).execute()) {
      assertThat(r.code()).isEqualTo(429);
    }
    assertThat(h.server.getRequestCount()).isEqualTo(1);
    assertThat(h.clock.totalSleptNanos()).isZero();
  }

  @Test
  void attemptsRunOutAndTheLastAnswerComesBackUntouched() throws Exception {
    for (int i = 0; i < 4; i++) {
      h.server.enqueue(status(429, "Retry-After", "1", "X-Attempt", String.valueOf(i)));
    }
    OkHttpClient client = h.client(h.polite().maxRateLimitRetries(3).addListener(recorder));

    try (Response r = client.newCall(h.get("/a")).execute()) {
      assertThat(r.code()).isEqualTo(429);
      assertThat(r.header("X-Attempt")).isEqualTo("3");
      assertThat(r.body().string()).isEqualTo("body 429");
    }
    assertThat(h.server.getRequestCount()).isEqualTo(4);
    assertThat(events).contains("gave up ATTEMPTS_EXHAUSTED 1s");
  }

  @Test
  void refusalsDrawNothingFromTheRetryBudget() throws Exception {
    // Twelve calls, each refused once with a wait that fits: the budget (10, stops at 5) would
    // have stopped retrying after five failures; a limiting server is no failing one.
    for (int i = 0; i < 12; i++) {
      h.server.enqueue(status(429, "Retry-After", "1"));
      h.server.enqueue(status(200));
    }
    OkHttpClient client = h.client(h.polite().rateController(Harness.NO_DISCOVERY).addListener(recorder));

    for (int call = 0; call < 12; call++) {
      try (Response r = client.newCall(h.get("/a")).execute()) {
        assertThat(r.code()).isEqualTo(200);
      }
    }
    assertThat(h.server.getRequestCount()).isEqualTo(24);
    assertThat(events).noneMatch(e -> e.startsWith("gave up"));
  }

  @Test
  void garbageOnASuccessNeverStopsTheKey() throws Exception {
    // The report of 2026-11-30: one 200 with an impossible remaining and reset paused the host
    // for a year. Each of these is now read as absent, and the next call goes at once.
    String[][] garbage = {
      {"X-RateLimit-Remaining", "-3", "X-RateLimit-Reset", "99999999999999999999"},
      {"X-RateLimit-Remaining", "0", "X-RateLimit-Reset", "9223372036854775807"},
      {"X-RateLimit-Remaining", "0", "X-RateLimit-Reset", "4102444800"},
    };
    for (String[] headers : garbage) {
      h.server.enqueue(status(200, headers));
      h.server.enqueue(status(200));
    }
    OkHttpClient client = h.client(h.polite());

    for (int call = 0; call < 6; call++) {
      try (Response r = client.newCall(h.get("/a")).execute()) {
        assertThat(r.code()).isEqualTo(200);
      }
    }
    assertThat(h.sends).containsOnly(0.0);
  }

  @Test
  void theRetryBudgetStopsARetryStorm() throws Exception {
    for (int i = 0; i < 20; i++) {
      h.server.enqueue(status(503));
    }
    OkHttpClient client = h.client(h.polite().addListener(recorder));

    for (int call = 0; call < 3; call++) {
      try (Response r = client.newCall(h.get("/a")).execute()) {
        assertThat(r.code()).isEqualTo(503);
      }
    }
    // First call: 4 attempts (budget 10 -> 6). Then each failure leaves <= 5: no more retries.
    assertThat(h.server.getRequestCount()).isEqualTo(6);
    assertThat(events).contains("gave up BUDGET_EXHAUSTED 0s");
  }

  @Test
  void theServerCanSayNotToRetry() throws Exception {
    h.server.enqueue(status(503, "Stripe-Should-Retry", "false"));
    OkHttpClient client = h.client(h.polite().addListener(recorder));

    try (Response r = client.newCall(h.get("/a")).execute()) {
      assertThat(r.code()).isEqualTo(503);
    }
    assertThat(h.server.getRequestCount()).isEqualTo(1);
    assertThat(events).contains("gave up SERVER_SAID_NO 0s");
  }

  @Test
  void aListenerThatThrowsNeverFailsACall() throws Exception {
    h.server.enqueue(status(429, "Retry-After", "1"));
    h.server.enqueue(status(200));
    PoliteListener broken = new PoliteListener() {
      @Override
      public void retryScheduled(CallContext call, int attempt, Duration delay) {
        throw new IllegalStateException("listener bug");
      }

      @Override
      public void rateLimited(CallContext call, RateLimitSignals signals) {
        throw new IllegalStateException("listener bug");
      }
    };
    OkHttpClient client = h.client(h.polite().addListener(broken));

    try (Response r = client.newCall(h.get("/a")).execute()) {
      assertThat(r.code()).isEqualTo(200);
    }
  }

  @Test
  void asANetworkInterceptorItRefusesClearly() throws Exception {
    h.server.enqueue(status(200));
    OkHttpClient client = new OkHttpClient.Builder()
        .protocols(java.util.List.of(okhttp3.Protocol.H2_PRIOR_KNOWLEDGE))
        .addNetworkInterceptor(h.polite().build()).build();

    assertThatThrownBy(() -> client.newCall(h.get("/a")).execute())
        .isInstanceOf(java.io.IOException.class).hasMessageContaining("addInterceptor");
  }

  @Test
  void aFailsafePolicyShapesWhichFailuresAreRetriedHowOftenAndAfterHowLong() throws Exception {
    h.server.enqueue(status(500));
    h.server.enqueue(status(500));
    h.server.enqueue(status(200));
    OkHttpClient client = h.client(h.polite().addListener(recorder).failureRetries(
        RetryPolicy.<ResponseView>builder()
            .handleResultIf(r -> r.status() == 500)
            .withMaxAttempts(3)
            .withDelay(Duration.ofSeconds(2))
            .build()));

    try (Response r = client.newCall(h.get("/a")).execute()) {
      assertThat(r.code()).isEqualTo(200);
    }
    assertThat(h.server.getRequestCount()).as("polite's own rules never retry a 500").isEqualTo(3);
    assertThat(h.sends.get(1) - h.sends.get(0)).as("the policy's delay").isEqualTo(2.0);
    assertThat(h.sends.get(2) - h.sends.get(1)).isEqualTo(2.0);
    assertThat(events).containsExactly("retry 1", "retry 2");
  }

  @Test
  void aFailsafePolicyRunsOutLikePolitesOwn() throws Exception {
    for (int i = 0; i < 3; i++) {
      h.server.enqueue(status(500, "X-Attempt", String.valueOf(i)));
    }
    OkHttpClient client = h.client(h.polite().addListener(recorder).failureRetries(
        RetryPolicy.<ResponseView>builder().handleResultIf(r -> r.status() == 500).withMaxRetries(1).build()));

    try (Response r = client.newCall(h.get("/a")).execute()) {
      assertThat(r.code()).isEqualTo(500);
      assertThat(r.header("X-Attempt")).isEqualTo("1");
    }
    assertThat(h.server.getRequestCount()).isEqualTo(2);
    assertThat(events).containsExactly("retry 1", "gave up ATTEMPTS_EXHAUSTED 0s");
  }

  @Test
  void aFailsafePolicyCannotMakePoliteRepeatAnUnsafeRequestOrRetrySoonerThanAsked() throws Exception {
    h.server.enqueue(status(502));
    h.server.enqueue(status(503, "Retry-After", "3"));
    h.server.enqueue(status(201));
    OkHttpClient client = h.client(h.polite().failureRetries(
        RetryPolicy.<ResponseView>builder().handleResultIf(r -> r.status() >= 500).withMaxAttempts(5).build()));

    try (Response r = client.newCall(post("/orders", null)).execute()) {
      assertThat(r.code()).as("a POST that may have done the work").isEqualTo(502);
    }
    try (Response r = client.newCall(post("/orders", null)).execute()) {
      assertThat(r.code()).as("503: the server did no work").isEqualTo(201);
    }
    assertThat(h.server.getRequestCount()).isEqualTo(3);
    assertThat(h.sends.get(2) - h.sends.get(1)).as("the server's delay, not the policy's 0").isBetween(3.0, 3.6);
  }

  private Request post(String path, String idempotencyKey) {
    Request.Builder b = new Request.Builder().url(h.server.url(path))
        .post(RequestBody.create("{}", MediaType.get("application/json")));
    if (idempotencyKey != null) {
      b.header("Idempotency-Key", idempotencyKey);
    }
    return b.build();
  }
}
