package dev.polite.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.polite.RateController;
import dev.polite.RateLimitedException;
import dev.polite.demo.internal.RedisProcess;
import dev.polite.okhttp.PoliteInterceptor;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A pause longer than the max wait is re-verified by one probe for the whole fleet, as an
 * instance alone re-verifies its own: on a real Redis, with real instances and real time (the
 * script decides on Redis's clock), calls fired by a scheduler at set moments.
 */
class FleetPauseTest {
  private static final Duration MAX_WAIT = Duration.ofSeconds(1);
  private static final long APART_MS = 1_300; // more than the max wait: each call may probe

  private RedisProcess redis;
  private MockWebServer server;
  private final List<RedisSharedState> states = new ArrayList<>();
  private final ScheduledExecutorService clock = Executors.newScheduledThreadPool(2);

  @BeforeEach
  void start() throws Exception {
    redis = RedisProcess.start();
    server = new MockWebServer();
    server.start();
  }

  @AfterEach
  void stop() throws Exception {
    clock.shutdownNow();
    states.forEach(RedisSharedState::close);
    server.close();
    redis.close();
  }

  /**
   * An instance of the fleet: its own Redis client, and a timeout a loaded machine meets. No rate
   * controller: the pace it would discover from the refusal (half a call a second) would make the
   * probe wait for its token, and what is tested here is the pause.
   */
  private OkHttpClient instance() {
    RedisSharedState state = RedisSharedState.builder(redis.uri()).prefix("pause-test:")
        .timeout(Duration.ofSeconds(2)).build();
    states.add(state);
    return new OkHttpClient.Builder().addInterceptor(PoliteInterceptor.builder().maxWait(MAX_WAIT)
        .rateController(RateController.none()).sharedState(state).build()).build();
  }

  private Request request() {
    return new Request.Builder().url(server.url("/api")).build();
  }

  /** The call's answer code, or the simple name of what it threw. */
  private String outcome(OkHttpClient client) {
    try (Response response = client.newCall(request()).execute()) {
      return Integer.toString(response.code());
    } catch (IOException e) {
      return e.getClass().getSimpleName();
    }
  }

  /** What {@code client}'s call answers when fired {@code afterMs} from now. */
  private ScheduledFuture<String> at(long afterMs, OkHttpClient client) {
    return clock.schedule(() -> outcome(client), afterMs, TimeUnit.MILLISECONDS);
  }

  private static MockResponse refusedForAnHour() {
    return new MockResponse.Builder().code(429).addHeader("Retry-After", "3600").build();
  }

  /** Waits until Redis published a pause or its end on the fleet's channel. */
  private CountDownLatch published() throws Exception {
    CountDownLatch heard = new CountDownLatch(1);
    io.lettuce.core.RedisClient listener = io.lettuce.core.RedisClient.create(redis.uri());
    var pubSub = listener.connectPubSub();
    pubSub.addListener(new io.lettuce.core.pubsub.RedisPubSubAdapter<>() {
      @Override
      public void message(String channel, String message) {
        heard.countDown();
      }
    });
    pubSub.sync().subscribe("pause-test:pauses");
    clock.schedule((Runnable) listener::shutdown, 30, TimeUnit.SECONDS);
    return heard;
  }

  @Test
  void anInstanceInAFleetReVerifiesALongPauseAsItWouldAlone() throws Exception {
    server.enqueue(refusedForAnHour());
    for (int i = 0; i < 4; i++) {
      server.enqueue(new MockResponse.Builder().code(200).build());
    }
    OkHttpClient alone = instance();
    List<ScheduledFuture<String>> calls = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      calls.add(at(i * APART_MS, alone));
    }
    List<String> outcomes = new ArrayList<>();
    for (ScheduledFuture<String> call : calls) {
      outcomes.add(call.get(20, TimeUnit.SECONDS));
    }
    assertThat(outcomes).as("a probe after the max wait found the hour's pause over")
        .containsExactly("429", "200", "200", "200");

    assertThat(outcome(instance())).as("a newcomer inherits no pause the probe ended")
        .isEqualTo("200");
    assertThat(server.getRequestCount()).isEqualTo(5);
  }

  @Test
  void twoInstancesThatMayBothReVerifyTheFleetsPauseSendOneProbe() throws Exception {
    server.enqueue(refusedForAnHour());
    server.enqueue(refusedForAnHour()); // the probe: still refused, the pause renewed
    server.enqueue(new MockResponse.Builder().code(200).build()); // a second probe, if one went
    OkHttpClient a = instance();
    OkHttpClient b = instance();
    CountDownLatch paused = published();

    assertThat(outcome(a)).isEqualTo("429");
    assertThat(paused.await(10, TimeUnit.SECONDS)).as("the pause reached Redis").isTrue();
    assertThat(outcome(b)).as("b holds back for the fleet's pause")
        .isEqualTo(RateLimitedException.class.getSimpleName());

    // Past the max wait for both: each would re-verify the pause if it were alone.
    ScheduledFuture<String> fromA = at(APART_MS, a);
    ScheduledFuture<String> fromB = at(APART_MS, b);
    List<String> both = List.of(fromA.get(20, TimeUnit.SECONDS), fromB.get(20, TimeUnit.SECONDS));

    assertThat(server.getRequestCount()).as("the refusal, then one probe for the fleet")
        .isEqualTo(2);
    assertThat(both).containsExactlyInAnyOrder("429", RateLimitedException.class.getSimpleName());
  }

  @Test
  void aKeyFoundToRefuseEverythingFailsTheWholeFleetsCallsAtOnce() throws Exception {
    server.setDispatcher(new mockwebserver3.Dispatcher() {
      @Override
      public MockResponse dispatch(mockwebserver3.RecordedRequest request) {
        return new MockResponse.Builder().code(429).addHeader("Retry-After", "0").build();
      }
    });
    OkHttpClient a = instance();
    OkHttpClient b = instance();
    CountDownLatch paused = published();
    // a's calls, one after another, are each refused round after round (Retry-After: 0 names no
    // time: each retry goes after its own backoff) until a has seen three rounds over 2 s; its
    // calls then fail at once.
    List<String> fromA = new ArrayList<>();
    long giveUpAt = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
    while (!fromA.contains(RateLimitedException.class.getSimpleName())) {
      assertThat(System.nanoTime()).as("a never knew: " + fromA).isLessThan(giveUpAt);
      fromA.add(outcome(a));
    }
    assertThat(paused.await(10, TimeUnit.SECONDS)).as("the hold reached Redis").isTrue();
    int sent = server.getRequestCount();

    assertThat(outcome(b)).as("b fails at once too: the fleet holds the key past any call's max wait")
        .isEqualTo(RateLimitedException.class.getSimpleName());
    assertThat(server.getRequestCount()).as("b sent nothing").isEqualTo(sent);
  }

  @Test
  void aPauseOfLongMaxValueFromACustomDialectIsCutToAYearAndNeverWraps() {
    RedisSharedState state = RedisSharedState.builder(redis.uri()).prefix("pause-test:").build();
    states.add(state);
    long now = System.nanoTime();
    dev.polite.SharedKey key = state.join("k", System::nanoTime, () -> {});
    key.paused(Long.MAX_VALUE, true, now);
    long year = FleetPause.MAX_MICROS * 1000;
    assertThat(key.pauseLeft(now)).as("not wrapped into the past; the fleet's answer may come in")
        .isBetween(year, year + TimeUnit.SECONDS.toNanos(5));
    key.leave();
  }
}
