package dev.polite.okhttp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.polite.CallContext;
import dev.polite.GiveUpReason;
import dev.polite.KeySnapshot;
import dev.polite.PoliteListener;
import dev.polite.RateLimitKey;
import dev.polite.RateLimitedException;
import dev.polite.RequestView;
import dev.polite.SharedState;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import mockwebserver3.MockResponse;
import okhttp3.Call;
import okhttp3.Callback;
import okhttp3.OkHttpClient;
import okhttp3.Response;
import org.junit.jupiter.api.Test;

/**
 * Observation mode: every call goes at once and comes back as the server sent it, while the key
 * learns as usual and the listener hears what enforcing would have done. "At once" is read off
 * the fake clock: nothing in polite sleeps, so it never moves, and every attempt reaches the
 * network at second 0.
 */
class ObserveOnlyTest extends HarnessTest {
  /** What the listener heard, one line per event. */
  private final List<String> heard = new CopyOnWriteArrayList<>();
  private final PoliteListener recorder = new PoliteListener() {
    @Override
    public void sending(CallContext call, Duration waited) {
      heard.add("sent after " + waited.toMillis());
    }

    @Override
    public void wouldWait(CallContext call, Duration wait) {
      heard.add("would wait " + wait.toMillis());
    }

    @Override
    public void wouldRetry(CallContext call, int attempt, Duration delay) {
      heard.add("would retry " + attempt + " after " + delay.toMillis());
    }

    @Override
    public void wouldGiveUp(CallContext call, GiveUpReason reason, Duration requested) {
      heard.add("would give up " + reason + " " + requested.toMillis());
    }

    @Override
    public void retryScheduled(CallContext call, int attempt, Duration delay) {
      heard.add("RETRIED"); // never, when observing
    }

    @Override
    public void gaveUp(CallContext call, GiveUpReason reason, Duration requested) {
      heard.add("GAVE UP"); // never, when observing
    }
  };

  private static MockResponse ietf(long remaining) {
    return new MockResponse.Builder().code(200)
        .addHeader("RateLimit-Policy", "\"default\";q=2;w=1")
        .addHeader("RateLimit", "\"default\";r=" + remaining + ";t=1")
        .build();
  }

  private PoliteInterceptor.Builder observing() {
    return h.polite().observeOnly(true).addListener(recorder);
  }

  @Test
  void callsOverTheAdvertisedPaceGoAtOnceAndHearHowLongTheyWouldHaveWaited() throws Exception {
    h.server.enqueue(ietf(1));
    h.server.enqueue(ietf(0));
    for (int i = 0; i < 4; i++) {
      h.server.enqueue(ietf(0));
    }
    PoliteInterceptor polite = observing().build();
    OkHttpClient client = h.client(polite);
    for (int i = 0; i < 6; i++) {
      try (Response r = client.newCall(h.get("/" + i)).execute()) {
        assertThat(r.code()).isEqualTo(200);
      }
    }
    assertThat(h.sends).hasSize(6).containsOnly(0.0);
    assertThat(h.clock.sleeps()).isEmpty();
    // 2 per second, and none left after the second call until the reset a second away: every
    // later call would have waited for it (the clock stands still, as no call waited).
    assertThat(heard).containsExactly(
        "would wait 0", "sent after 0",
        "would wait 0", "sent after 0",
        "would wait 1000", "sent after 0",
        "would wait 1000", "sent after 0",
        "would wait 1000", "sent after 0",
        "would wait 1000", "sent after 0");
    KeySnapshot key = polite.snapshot(RateLimitKey.host().keyOf(OkHttpRequestView.of(h.get("/")))).orElseThrow();
    assertThat(key.observing()).isTrue();
    assertThat(key.source()).isEqualTo(KeySnapshot.Source.ADVERTISED);
    assertThat(key.pace()).isEqualTo(2.0);
  }

  @Test
  void theWouldBeQueueGrowsAsAQueueWouldAndCallsItWouldRefuseTakeNoPlaceInIt() throws Exception {
    for (int i = 0; i < 7; i++) {
      h.server.enqueue(new MockResponse.Builder().code(200)
          .addHeader("RateLimit-Policy", "\"default\";q=2;w=1").build());
    }
    OkHttpClient client = h.client(observing().maxWait(Duration.ofSeconds(1)));
    for (int i = 0; i < 6; i++) {
      try (Response r = client.newCall(h.get("/" + i)).execute()) {
        assertThat(r.code()).isEqualTo(200);
      }
    }
    // 2 per second with a burst of 2, no count: the third and fourth would have queued for the
    // next tokens; the fifth's 1.5 s is past the max wait, so it and the sixth would have been
    // refused, and took no tokens: the queue is as long as an enforcing polite's would be.
    assertThat(heard).filteredOn(e -> !e.startsWith("sent")).containsExactly(
        "would wait 0", "would wait 0", "would wait 500", "would wait 1000",
        "would give up WAIT_TOO_LONG 1500", "would give up WAIT_TOO_LONG 1500");
    h.clock.advance(Duration.ofMillis(1500)); // the queue drains: the next would go at once
    heard.clear();
    try (Response r = client.newCall(h.get("/later")).execute()) {
      assertThat(r.code()).isEqualTo(200);
    }
    assertThat(heard).containsExactly("would wait 0", "sent after 0");
    assertThat(h.clock.sleeps()).isEmpty();
  }

  @Test
  void refusalsOfCallsEnforcingWouldHaveHeldTeachTheDiscoveredPaceNothing() throws Exception {
    observed = observing().build();
    OkHttpClient client = h.client(observed);
    String key = RateLimitKey.host().keyOf(OkHttpRequestView.of(h.get("/")));
    for (int i = 0; i < 4; i++) { // a second and a half apart: the server admits 2 in 3 s
      h.server.enqueue(new MockResponse.Builder().code(200).build());
      try (Response r = client.newCall(h.get("/ok")).execute()) {
        assertThat(r.code()).isEqualTo(200);
      }
      h.clock.advance(Duration.ofMillis(1_500));
    }
    h.server.enqueue(new MockResponse.Builder().code(429).build()); // refused on time: a cut
    client.newCall(h.get("/refused")).execute().close();
    double cut = polite(key).pace();
    assertThat(cut).isFinite();
    // Later, a flood the key would have held (its pace, its backoff), all refused: enforcing
    // would not have sent them, so what they meet says nothing about the pace it would find.
    for (int round = 0; round < 3; round++) {
      h.clock.advance(Duration.ofMillis(1_200));
      for (int i = 0; i < 10; i++) {
        h.server.enqueue(new MockResponse.Builder().code(429).build());
        client.newCall(h.get("/flood")).execute().close();
      }
    }
    assertThat(polite(key).pace()).isEqualTo(cut);
  }

  private PoliteInterceptor observed;

  private KeySnapshot polite(String key) {
    return observed.snapshot(key).orElseThrow();
  }

  @Test
  void aRefusalIsHandedBackUntouchedAndTheRetryItWouldHaveMadeIsHeard() throws Exception {
    h.server.enqueue(new MockResponse.Builder().code(429).addHeader("Retry-After", "7")
        .body("slow down").build());
    h.server.enqueue(new MockResponse.Builder().code(200).build());
    OkHttpClient client = h.client(observing().throwWhenRateLimited(true));
    try (Response r = client.newCall(h.get("/a")).execute()) {
      assertThat(r.code()).isEqualTo(429);
      assertThat(r.header("Retry-After")).isEqualTo("7");
      assertThat(r.body().string()).isEqualTo("slow down");
    }
    assertThat(h.server.getRequestCount()).isEqualTo(1); // not retried
    // The next call goes at once, though the key would have held it for the pause.
    try (Response r = client.newCall(h.get("/b")).execute()) {
      assertThat(r.code()).isEqualTo(200);
    }
    assertThat(h.sends).containsExactly(0.0, 0.0);
    assertThat(heard).containsExactly(
        "would wait 0", "sent after 0", "would retry 1 after 7000",
        "would wait 7000", "sent after 0");
  }

  @Test
  void aPauseLongerThanACallMayWaitWouldRefuseTheCallsButTheyAreSentAndAnswered() throws Exception {
    h.server.enqueue(new MockResponse.Builder().code(429).addHeader("Retry-After", "3600").build());
    for (int i = 0; i < 3; i++) {
      h.server.enqueue(new MockResponse.Builder().code(200).build());
    }
    OkHttpClient client = h.client(observing().maxWait(Duration.ofSeconds(10)));
    for (int i = 0; i < 4; i++) {
      try (Response r = client.newCall(h.get("/" + i)).execute()) {
        assertThat(r.code()).isEqualTo(i == 0 ? 429 : 200);
      }
    }
    assertThat(h.server.getRequestCount()).isEqualTo(4);
    assertThat(h.sends).containsOnly(0.0);
    assertThat(heard).containsExactly(
        "would wait 0", "sent after 0", "would give up WAIT_TOO_LONG 3600000",
        "would give up WAIT_TOO_LONG 3600000", "sent after 0",
        "would give up WAIT_TOO_LONG 3600000", "sent after 0",
        "would give up WAIT_TOO_LONG 3600000", "sent after 0");
  }

  @Test
  void aFailureIsThrownAsItCameAndAServerErrorReturnedWithoutARetry() throws Exception {
    h.server.enqueue(new MockResponse.Builder().code(503).build());
    OkHttpClient client = h.client(observing());
    try (Response r = client.newCall(h.get("/a")).execute()) {
      assertThat(r.code()).isEqualTo(503);
    }
    h.server.close(); // the next call cannot connect
    assertThatThrownBy(() -> client.newCall(h.get("/b")).execute()).isInstanceOf(IOException.class)
        .isNotInstanceOf(RateLimitedException.class);
    assertThat(h.sends).containsOnly(0.0);
    assertThat(heard).filteredOn(e -> e.startsWith("would retry")).hasSize(2);
    assertThat(heard).doesNotContain("RETRIED", "GAVE UP");
  }

  @Test
  void enqueuedCallsThroughTheFactoryGoAtOnceToo() throws Exception {
    for (int i = 0; i < 11; i++) {
      h.server.enqueue(ietf(0));
    }
    OkHttpClient client = h.client(observing());
    Call.Factory calls = PoliteCallFactory.create(client);
    try (Response first = calls.newCall(h.get("/first")).execute()) { // the key learns its pace
      assertThat(first.code()).isEqualTo(200);
    }
    heard.clear();
    CountDownLatch answered = new CountDownLatch(10);
    List<Integer> codes = new CopyOnWriteArrayList<>();
    for (int i = 0; i < 10; i++) {
      calls.newCall(h.get("/" + i)).enqueue(new Callback() {
        @Override
        public void onResponse(Call call, Response response) {
          codes.add(response.code());
          response.close();
          answered.countDown();
        }

        @Override
        public void onFailure(Call call, IOException e) {
          answered.countDown();
        }
      });
    }
    assertThat(answered.await(10, TimeUnit.SECONDS)).isTrue();
    assertThat(codes).hasSize(10).containsOnly(200);
    assertThat(h.sends).hasSize(11).containsOnly(0.0);
    List<String> waits = new ArrayList<>(heard);
    waits.removeIf(e -> !e.startsWith("would wait"));
    assertThat(waits).hasSize(10).anyMatch(e -> !e.equals("would wait 0"));
  }

  @Test
  void aFleetIsNotObserved() {
    SharedState fleet = (key, ticker, news) -> {
      throw new AssertionError("never joined");
    };
    assertThatThrownBy(() -> PoliteInterceptor.builder().observeOnly(true).sharedState(fleet).build())
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("observeOnly");
  }
}
