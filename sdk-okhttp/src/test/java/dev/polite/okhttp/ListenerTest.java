package dev.polite.okhttp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.polite.CallContext;
import dev.polite.KeySnapshot;
import dev.polite.PoliteListener;
import dev.polite.RateLimitKey;
import dev.polite.RateLimitSignals;
import dev.polite.RequestView;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Supplier;
import mockwebserver3.MockResponse;
import okhttp3.Call;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;
import org.junit.jupiter.api.Test;

/** What listeners hear and what a key's snapshot shows, through the real interceptor. */
class ListenerTest extends HarnessTest {
  private static MockResponse ietf(int code, long remaining, String... more) {
    MockResponse.Builder b = new MockResponse.Builder().code(code)
        .addHeader("RateLimit-Policy", "\"default\";q=10;w=1")
        .addHeader("RateLimit", "\"default\";r=" + remaining + ";t=1");
    for (int i = 0; i < more.length; i += 2) {
      b.addHeader(more[i], more[i + 1]);
    }
    return b.build();
  }

  @Test
  void everyListenerHearsEveryEventInOrderEvenAfterOneThrows() throws Exception {
    h.server.enqueue(new MockResponse.Builder().code(429).addHeader("Retry-After", "1").build());
    h.server.enqueue(new MockResponse.Builder().code(200).build());
    List<String> heard = new CopyOnWriteArrayList<>();
    PoliteListener broken = new PoliteListener() {
      @Override
      public void rateLimited(CallContext call, RateLimitSignals signals) {
        heard.add("broken heard it");
        throw new IllegalStateException("listener bug");
      }
    };
    PoliteListener second = new PoliteListener() {
      @Override
      public void rateLimited(CallContext call, RateLimitSignals signals) {
        heard.add("second heard it");
      }
    };
    OkHttpClient client = h.client(h.polite().addListener(broken).addListener(second));
    try (Response r = client.newCall(h.get("/a")).execute()) {
      assertThat(r.code()).isEqualTo(200);
    }
    assertThat(heard).containsExactly("broken heard it", "second heard it");
  }

  @Test
  void callEventsCarryTheApplicationsRequestAndEachAttemptsOwnWait() throws Exception {
    h.server.enqueue(new MockResponse.Builder().code(429).addHeader("Retry-After", "2").build());
    h.server.enqueue(new MockResponse.Builder().code(200).build());
    List<String> heard = new CopyOnWriteArrayList<>();
    List<Request> requests = new CopyOnWriteArrayList<>();
    OkHttpClient client = h.client(h.polite().addListener(new PoliteListener() {
      @Override
      public void sending(CallContext call, Duration waited) {
        heard.add("sending " + call.request().encodedPath() + " after " + waited.toMillis() + " ms");
        requests.add(call.request().unwrap(Request.class));
      }

      @Override
      public void rateLimited(CallContext call, RateLimitSignals signals) {
        heard.add("refused " + call.request().encodedPath());
      }

      @Override
      public void retryScheduled(CallContext call, int attempt, Duration delay) {
        heard.add("retry " + attempt + " of " + call.request().encodedPath());
      }
    }));
    Request request = h.get("/a");
    try (Response r = client.newCall(request).execute()) {
      assertThat(r.code()).isEqualTo(200);
    }
    // The retry's own wait is its pace and gate (none here), not the Retry-After it slept before.
    assertThat(heard).containsExactly("sending /a after 0 ms", "refused /a", "retry 1 of /a",
        "sending /a after 0 ms");
    assertThat(requests).containsOnly(request);
  }

  @Test
  void aKeysSnapshotShowsWhatItLearnedAndItsPause() throws Exception {
    h.server.enqueue(ietf(200, 9));
    h.server.enqueue(new MockResponse.Builder().code(429).addHeader("Retry-After", "30").build());
    PoliteInterceptor polite = h.polite().maxRateLimitRetries(0).build();
    OkHttpClient client = h.client(polite);
    String key = RateLimitKey.host().keyOf(OkHttpRequestView.of(h.get("/")));
    assertThat(polite.snapshot(key)).isEmpty();

    try (Response r = client.newCall(h.get("/a")).execute()) {
      assertThat(r.code()).isEqualTo(200);
    }
    KeySnapshot learned = polite.snapshot(key).orElseThrow();
    assertThat(learned.source()).isEqualTo(KeySnapshot.Source.ADVERTISED);
    assertThat(learned.pace()).isEqualTo(10.0);
    assertThat(learned.burst()).isEqualTo(10.0);
    assertThat(learned.tokens()).isEqualTo(9.0);
    assertThat(learned.policy()).isNotNull();
    assertThat(learned.policy().quota()).hasValue(10);
    assertThat(learned.pausedFor()).isZero();
    assertThat(learned.inFlight()).isZero();

    try (Response r = client.newCall(h.get("/b")).execute()) {
      assertThat(r.code()).isEqualTo(429);
    }
    assertThat(polite.snapshot(key).orElseThrow().pausedFor()).isEqualTo(Duration.ofSeconds(30));
    assertThat(polite.snapshots()).extracting(KeySnapshot::key).containsExactly(key);
  }

  @Test
  void aKeyNobodyPacesSaysSo() throws Exception {
    h.server.enqueue(new MockResponse.Builder().code(200).build());
    PoliteInterceptor polite = h.polite().build();
    try (Response r = h.client(polite).newCall(h.get("/a")).execute()) {
      assertThat(r.code()).isEqualTo(200);
    }
    KeySnapshot k = polite.snapshots().get(0);
    assertThat(k.source()).isEqualTo(KeySnapshot.Source.UNPACED);
    assertThat(k.pace()).isInfinite();
    assertThat(k.policy()).isNull();

    PoliteInterceptor started = h.polite().startingRate(2).build();
    h.server.enqueue(new MockResponse.Builder().code(200).build());
    try (Response r = h.client(started).newCall(h.get("/a")).execute()) {
      assertThat(r.code()).isEqualTo(200);
    }
    assertThat(started.snapshots().get(0).source()).isEqualTo(KeySnapshot.Source.STARTING);
  }

  @Test
  void listenersAreToldOfKeysAddedAndForgottenWithALiveSnapshot() throws Exception {
    Map<String, Supplier<KeySnapshot>> live = new ConcurrentHashMap<>();
    List<String> forgotten = new CopyOnWriteArrayList<>();
    PoliteInterceptor polite = h.polite().maxKeys(2).key(RateLimitKey.header("X-Tenant"))
        .addListener(new PoliteListener() {
          @Override
          public void keyAdded(String key, Supplier<KeySnapshot> state) {
            live.put(key, state);
          }

          @Override
          public void keyForgotten(String key) {
            forgotten.add(key);
            live.remove(key);
          }
        }).build();
    OkHttpClient client = h.client(polite);
    for (String tenant : List.of("a", "b", "c")) {
      h.server.enqueue(ietf(200, 4));
      try (Response r = client.newCall(h.get("/").newBuilder().header("X-Tenant", tenant).build())
          .execute()) {
        assertThat(r.code()).isEqualTo(200);
      }
      h.clock.advance(Duration.ofMillis(10));
    }
    assertThat(forgotten).hasSize(2); // past two keys, idle ones go down to nine tenths of two
    assertThat(live).hasSize(1);
    KeySnapshot now = live.values().iterator().next().get();
    assertThat(now.pace()).isEqualTo(10.0);
    assertThat(polite.snapshot(now.key())).contains(now);
  }
}
