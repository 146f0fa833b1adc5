package dev.polite.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.polite.demo.DemoServer;
import dev.polite.demo.HeaderStyle;
import dev.polite.okhttp.PoliteCallFactory;
import dev.polite.okhttp.PoliteInterceptor;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import okhttp3.Call;
import okhttp3.Callback;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A fleet started together on a Redis that answers past the 20 ms default timeout (a proxy holds
 * every read 30 ms: 60 ms and more a round trip), blocking and async: the calls that may wait ten
 * timeouts (a starting key's, a deep schedule's lease) and those that may not (after the first
 * lease where the bucket held units, asks while alone) meet on real threads, and no call fails
 * or hangs whichever way each instance goes. Against the real demo server, 10 a second, burst 10,
 * with IETF headers.
 */
class SlowFleetTest {
  private static final int INSTANCES = 3;

  @RegisterExtension final RealRedis redis = new RealRedis();
  private final List<RedisSharedState> states = new ArrayList<>();

  @AfterEach
  void close() {
    states.forEach(RedisSharedState::close);
  }

  @Test
  void blockingCallsOfAFleetOnASlowRedisAllEnd() throws Exception {
    try (DelayingProxy proxy = slowProxy();
        DemoServer server = server()) {
      FleetRun run = FleetRun.run(server.url(), INSTANCES, 3, Duration.ofSeconds(3), () -> state(proxy));
      assertThat(run.failures).isEmpty();
      assertThat(run.ok.get()).as("10 at once, then 10 a second").isGreaterThanOrEqualTo(15);
      assertThat(server.stats().rejected()).as("refused by the server").isLessThanOrEqualTo(3);
    }
  }

  @Test
  void asyncCallsOfAFleetOnASlowRedisAllEnd() throws Exception {
    int perInstance = 10;
    AtomicInteger ok = new AtomicInteger();
    AtomicInteger rejected = new AtomicInteger();
    Queue<IOException> failures = new ConcurrentLinkedQueue<>();
    CountDownLatch ended = new CountDownLatch(INSTANCES * perInstance);
    List<OkHttpClient> clients = new ArrayList<>();
    try (DelayingProxy proxy = slowProxy();
        DemoServer server = server()) {
      Request request = new Request.Builder().url(server.url().resolve("/api/fleet").toString()).build();
      for (int i = 0; i < INSTANCES; i++) {
        OkHttpClient client = new OkHttpClient.Builder()
            .addInterceptor(PoliteInterceptor.builder().sharedState(state(proxy))
                .maxWait(Duration.ofSeconds(10)).build())
            .build();
        clients.add(client);
        Call.Factory calls = PoliteCallFactory.create(client);
        for (int c = 0; c < perInstance; c++) { // every call in flight at once, no thread waiting
          calls.newCall(request).enqueue(new Callback() {
            @Override
            public void onResponse(Call call, Response response) {
              try (response) {
                (response.code() == 429 ? rejected : ok).incrementAndGet();
              }
              ended.countDown();
            }

            @Override
            public void onFailure(Call call, IOException e) {
              failures.add(e);
              ended.countDown();
            }
          });
        }
      }
      assertThat(ended.await(60, TimeUnit.SECONDS)).as("every call ended").isTrue();
      assertThat(failures).isEmpty();
      assertThat(ok.get() + rejected.get()).isEqualTo(INSTANCES * perInstance);
      assertThat(server.stats().rejected()).as("refused by the server").isLessThanOrEqualTo(3);
    } finally {
      for (OkHttpClient client : clients) {
        client.dispatcher().executorService().shutdown();
        client.connectionPool().evictAll();
      }
    }
  }

  private DelayingProxy slowProxy() throws IOException {
    return new DelayingProxy(redis.process().port(), Duration.ofMillis(30));
  }

  /** An instance's state behind {@code proxy}, at the default 20 ms timeout. */
  private RedisSharedState state(DelayingProxy proxy) {
    RedisSharedState state = RedisSharedState.builder(proxy.uri()).prefix("slow-fleet:").build();
    synchronized (states) {
      states.add(state);
    }
    return state;
  }

  private static DemoServer server() {
    return DemoServer.builder().limit(10).window(Duration.ofSeconds(1)).headers(HeaderStyle.IETF)
        .start();
  }
}
