package dev.polite.okhttp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.polite.HeaderLines;
import dev.polite.PoliteListener;
import dev.polite.RateLimitDialect;
import dev.polite.RateLimitSignals;
import dev.polite.testing.FakeClock;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import mockwebserver3.MockResponse;
import okhttp3.OkHttpClient;
import okhttp3.Response;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The interceptor learns from every dialect family: an answer that says the quota is spent (or
 * asks for a delay) pauses the key for exactly that long, and an advertised quota and window
 * become the key's pace.
 */
class DialectLearningTest extends HarnessTest {
  /** The fake wall clock's start, 2026-01-01T00:00:00Z, in epoch seconds and as an HTTP date. */
  private static final long E = FakeClock.EPOCH_MILLIS / 1000;
  private static final String DATE = "Thu, 01 Jan 2026 00:00:00 GMT";

  static Stream<Arguments> families() {
    return Stream.of(
        family("IETF draft-11", 200, 7, 100 / 60.0,
            "RateLimit-Policy", "\"default\";q=100;w=60", "RateLimit", "\"default\";r=0;t=7"),
        family("IETF draft-11, two lines", 429, 42, Double.NaN,
            "RateLimit", "\"100-in-1min\"; r=0; t=42", "RateLimit", "\"1000-in-1hr\"; r=10; t=900"),
        family("IETF draft-07", 200, 5, 10,
            "RateLimit", "limit=100, remaining=0, reset=5", "RateLimit-Policy", "100;w=10"),
        family("IETF draft-03", 200, 3, 10,
            "RateLimit-Limit", "10, 10;w=1", "RateLimit-Remaining", "0", "RateLimit-Reset", "3"),
        family("Envoy draft-03", 200, 30, 10 / 60.0,
            "x-ratelimit-limit", "10, 10;w=60", "x-ratelimit-remaining", "0", "x-ratelimit-reset", "30"),
        family("GitHub 403", 403, 30, Double.NaN,
            "x-ratelimit-limit", "5000", "x-ratelimit-remaining", "0", "x-ratelimit-used", "5000",
            "x-ratelimit-reset", String.valueOf(E + 30), "x-ratelimit-resource", "core"),
        family("X / Twitter", 429, 12, Double.NaN,
            "x-rate-limit-limit", "900", "x-rate-limit-remaining", "0", "x-rate-limit-reset", String.valueOf(E + 12)),
        family("Discord", 429, 1.5, Double.NaN,
            "X-RateLimit-Limit", "5", "X-RateLimit-Remaining", "0", "X-RateLimit-Reset", (E + 1) + ".5",
            "X-RateLimit-Reset-After", "1.5", "X-RateLimit-Bucket", "abcd1234"),
        family("Reddit", 200, 42, Double.NaN,
            "X-Ratelimit-Used", "600", "X-Ratelimit-Remaining", "0.0", "X-Ratelimit-Reset", "42"),
        family("GitLab (a per-minute quota)", 429, 20, 10,
            "RateLimit-Limit", "600", "RateLimit-Remaining", "0", "RateLimit-Reset", String.valueOf(E + 20),
            "RateLimit-Observed", "600"),
        family("OpenAI", 429, 45, Double.NaN,
            "x-ratelimit-limit-requests", "60", "x-ratelimit-remaining-requests", "0",
            "x-ratelimit-reset-requests", "45s", "x-ratelimit-limit-tokens", "150000",
            "x-ratelimit-remaining-tokens", "149000", "x-ratelimit-reset-tokens", "6m0s"),
        family("Anthropic", 429, 9, Double.NaN,
            "anthropic-ratelimit-requests-limit", "50", "anthropic-ratelimit-requests-remaining", "0",
            "anthropic-ratelimit-requests-reset", "2026-01-01T00:00:09Z"),
        family("Shopify", 429, 2, Double.NaN,
            "X-Shopify-Shop-Api-Call-Limit", "40/40", "Retry-After", "2.0"),
        family("Azure", 429, 1.5, Double.NaN, "retry-after-ms", "1500", "Retry-After", "2"),
        family("Retry-After as an HTTP date", 503, 4, Double.NaN,
            "Retry-After", "Thu, 01 Jan 2026 00:00:04 GMT"),
        family("Atlassian", 429, 5, Double.NaN,
            "Retry-After", "5", "X-RateLimit-Reset", "2026-01-01T00:01Z", "X-RateLimit-Limit", "100",
            "X-RateLimit-Remaining", "0"));
  }

  private static Arguments family(String name, int status, double pause, double rate, String... headers) {
    return Arguments.of(name, status, pause, rate, headers);
  }

  @org.junit.jupiter.api.Test
  void aDiscordBodyGivesThePreciseDelayWhenAskedToLook() throws Exception {
    h.server.enqueue(new MockResponse.Builder().code(429).addHeader("Retry-After", "3")
        .addHeader("Content-Type", "application/json")
        .body("{\"message\": \"You are being rate limited.\", \"retry_after\": 2.25, \"global\": false}")
        .build());
    h.server.enqueue(new MockResponse.Builder().code(200).build());
    OkHttpClient client = h.client(h.polite().maxAttempts(1).maxRateLimitRetries(0).readRetryHintsFromBody(true)
        .rateController(Harness.NO_DISCOVERY));

    try (Response r = client.newCall(h.get("/a")).execute()) {
      assertThat(r.body().string()).contains("retry_after"); // still readable
    }
    client.newCall(h.get("/b")).execute().close();

    assertThat(h.sends.get(1)).isEqualTo(2.25);
  }

  @org.junit.jupiter.api.Test
  void aBodyTrickledAfterItsHeadersHoldsNoPermitAndItsPeekIsBounded() throws Exception {
    // Its hint comes last: 36 bytes at one per 100 ms, 3.6 s in all, past the peek's bound.
    h.server.enqueue(new MockResponse.Builder().code(429).addHeader("Retry-After", "1")
        .addHeader("Content-Type", "application/json")
        .body("{\"message\":\"slow\",\"retry_after\": 5}")
        .throttleBody(1, 100, java.util.concurrent.TimeUnit.MILLISECONDS)
        .build());
    h.server.enqueue(new MockResponse.Builder().code(200).build());
    java.util.concurrent.CountDownLatch headers = new java.util.concurrent.CountDownLatch(1);
    java.util.List<String> order = new java.util.concurrent.CopyOnWriteArrayList<>();
    OkHttpClient client = h.client(h.polite().maxAttempts(1).maxRateLimitRetries(0)
            .readRetryHintsFromBody(true).rateController(Harness.NO_DISCOVERY)).newBuilder()
        .addNetworkInterceptor(chain -> {
          Response r = chain.proceed(chain.request());
          headers.countDown();
          return r;
        }).build();

    Thread slow = new Thread(() -> {
      try (Response r = client.newCall(h.get("/slow")).execute()) {
        order.add("slow " + r.code());
      } catch (java.io.IOException e) {
        order.add("slow " + e);
      }
    });
    slow.start();
    assertThat(headers.await(5, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
    try (Response r = client.newCall(h.get("/next")).execute()) {
      order.add("next " + r.code());
    }
    slow.join(10_000);

    assertThat(order).as("the key learnt from the headers while the body was still coming: the "
        + "next call went, after the pause they named, before the slow one was returned")
        .containsExactly("next 200", "slow 429");
    assertThat(h.sends.get(1)).as("the body's hint came after the peek gave up").isEqualTo(1.0);
  }

  @org.junit.jupiter.api.Test
  void aUserDialectIsReadWithoutForking() throws Exception {
    RateLimitDialect acme = new RateLimitDialect() {
      @Override
      public String name() {
        return "acme";
      }

      @Override
      public boolean read(int status, HeaderLines headers, long responseEpochMillis,
          RateLimitSignals.Builder signals) {
        String wait = headers.first("Acme-Wait-Seconds");
        if (wait == null) {
          return false;
        }
        signals.retryAfter(java.time.Duration.ofSeconds(Long.parseLong(wait)));
        return true;
      }
    };
    h.server.enqueue(new MockResponse.Builder().code(429).addHeader("Acme-Wait-Seconds", "6").build());
    h.server.enqueue(new MockResponse.Builder().code(200).build());
    OkHttpClient client = h.client(h.polite().addDialect(acme).rateController(Harness.NO_DISCOVERY));

    try (Response r = client.newCall(h.get("/a")).execute()) {
      assertThat(r.code()).isEqualTo(200);
    }
    assertThat(h.sends.get(1)).isBetween(6.0, 7.5);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("families")
  void learnsThePauseAndThePace(String name, int status, double pause, double rate, String[] headers)
      throws Exception {
    MockResponse.Builder first = new MockResponse.Builder().code(status).addHeader("Date", DATE);
    for (int i = 0; i < headers.length; i += 2) {
      first.addHeader(headers[i], headers[i + 1]);
    }
    h.server.enqueue(first.build());
    h.server.enqueue(new MockResponse.Builder().code(200).build());
    AtomicReference<Double> learned = new AtomicReference<>(Double.NaN);
    PoliteListener listener = new PoliteListener() {
      @Override
      public void policyLearned(String key, double ratePerSecond, double burst, RateLimitSignals s) {
        if (s.advertisesRate()) {
          learned.set(ratePerSecond);
        }
      }
    };
    OkHttpClient client = h.client(h.polite().maxAttempts(1).maxRateLimitRetries(0).addListener(listener)
        .rateController(Harness.NO_DISCOVERY));

    try (Response r = client.newCall(h.get("/a")).execute()) {
      assertThat(r.code()).isEqualTo(status);
    }
    try (Response r = client.newCall(h.get("/b")).execute()) {
      assertThat(r.code()).isEqualTo(200);
    }

    assertThat(h.sends.get(1)).as("the next call waited for the reset").isBetween(pause, pause + 1.0);
    if (Double.isNaN(rate)) {
      assertThat(learned.get()).as("no pace advertised").isNaN();
    } else {
      assertThat(learned.get()).as("the advertised pace").isCloseTo(rate, within(1e-9));
    }
  }
}
