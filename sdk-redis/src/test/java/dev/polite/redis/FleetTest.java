package dev.polite.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.polite.RateLimitedException;
import dev.polite.demo.DemoServer;
import dev.polite.demo.HeaderStyle;
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
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Instances sharing one key's budget through a real Redis, against the real demo server (10 a
 * second, burst 10): real threads and time, since what is shared is a schedule on Redis's clock.
 */
class FleetTest {
  private static final Duration RUN = Duration.ofSeconds(3);

  private RedisProcess redis;
  private final List<RedisSharedState> states = new ArrayList<>();

  @BeforeEach
  void start() throws Exception {
    redis = RedisProcess.start();
  }

  @AfterEach
  void stop() {
    states.forEach(RedisSharedState::close);
    redis.close();
  }

  private RedisSharedState state() {
    return opened(RedisSharedState.builder(redis.uri()).prefix("fleet-test:"));
  }

  private RedisSharedState state(Duration timeout) {
    return opened(RedisSharedState.builder(redis.uri()).prefix("fleet-test:").timeout(timeout));
  }

  private RedisSharedState opened(RedisSharedState.Builder builder) {
    RedisSharedState state = builder.build();
    synchronized (states) {
      states.add(state);
    }
    return state;
  }

  private static DemoServer server(HeaderStyle headers) {
    return DemoServer.builder().limit(10).window(Duration.ofSeconds(1)).headers(headers).start();
  }

  @Test
  void fourInstancesSpendOneBudgetWithoutARefusal() throws Exception {
    try (DemoServer server = server(HeaderStyle.IETF)) {
      List<RedisSharedState> four = List.of(state(), state(), state(), state());
      long setUp = four.stream().mapToLong(RedisSharedState::roundTrips).sum(); // connect, warm up
      java.util.Iterator<RedisSharedState> next = four.iterator();
      FleetRun run = FleetRun.run(server.url(), 4, 3, RUN, next::next);
      long admitted = server.stats().admitted();
      assertThat(run.failures).isEmpty();
      assertThat(server.stats().rejected()).as("refused by the server").isLessThanOrEqualTo(1);
      // 10 at once, then 10 a second: about 40 in 3 s, less a cold start's first round trips (a
      // loaded machine may take a second for them). The bench measures throughput; this, progress.
      assertThat(admitted).isGreaterThanOrEqualTo(15);
      long trips = four.stream().mapToLong(RedisSharedState::roundTrips).sum() - setUp;
      // A batch per round trip, even in a run this short and cold: fewer round trips than calls.
      assertThat((double) trips / run.ok.get()).as("round trips per call").isLessThan(1.0);
      assertRedisNeverHeard("127.0.0.1:" + server.port()); // the key (host and port): only its digest
    }
  }

  /** Nothing in Redis, neither a name nor a value, holds {@code secret}. */
  private void assertRedisNeverHeard(String secret) {
    io.lettuce.core.RedisClient client = io.lettuce.core.RedisClient.create(redis.uri());
    try (var connection = client.connect()) {
      var redisKeys = connection.sync().keys("*");
      assertThat(redisKeys).isNotEmpty().allSatisfy(name -> {
        assertThat(name).startsWith("fleet-test:{").doesNotContain(secret);
        String dump = connection.sync().type(name).equals("hash")
            ? connection.sync().hgetall(name).toString()
            : connection.sync().zrange(name, 0, -1).toString();
        assertThat(dump).doesNotContain(secret);
        assertThat(connection.sync().pttl(name)).as("expires when idle").isPositive();
      });
    } finally {
      client.shutdown();
    }
  }

  @Test
  void withoutHeadersOneRefusalPausesTheFleet() throws Exception {
    try (DemoServer server = server(HeaderStyle.NONE)) {
      FleetRun shared = FleetRun.run(server.url(), 4, 3, RUN, this::state);
      assertThat(shared.failures).isEmpty();
      long refusedShared = server.stats().rejected();
      server.resetStats();
      FleetRun alone = FleetRun.run(server.url(), 4, 3, RUN, dev.polite.SharedState::none);
      assertThat(alone.failures).isEmpty();
      long refusedAlone = server.stats().rejected();
      assertThat(refusedShared).as("refused sharing (alone: %d)", refusedAlone).isLessThan(refusedAlone);
    }
  }

  @ParameterizedTest(name = "{0} instances")
  @ValueSource(ints = {8, 16})
  void withoutHeadersTheFleetDiscoversThePaceAsOneInstanceWould(int instances) throws Exception {
    // 8 instances of 2 callers on 10 a second, burst 10, all starting at once: each sending its
    // first calls on its own, the fleet met the limit with a call or more per instance before any
    // refusal was heard (8 first calls and their successors against a burst of 10), and the pace
    // summed from the few instances that met a refusal fell short of the fleet's. One instance
    // discovers while the others hold theirs: the fleet meets what one instance of 2 callers
    // meets, and the pace it found is the fleet's.
    // 16 instances of 2 callers on 10 a second failed calls on their max wait before: leases of
    // 3 units for 2 callers outran the callers, and a pause put some calls at the queue's end twice.
    // A timeout no loaded machine misses: an instance pacing alone would discover on its own.
    try (DemoServer spent = server(HeaderStyle.NONE); DemoServer fresh = server(HeaderStyle.NONE)) {
      FleetRun one = FleetRun.run(spent.url(), 1, 2, RUN, dev.polite.SharedState::none);
      long refusedOne = spent.stats().rejected();
      FleetRun fleet = FleetRun.run(fresh.url(), instances, 2, RUN, () -> state(Duration.ofSeconds(1)));
      assertThat(one.failures).isEmpty();
      assertThat(fleet.failures).isEmpty();
      long refused = fresh.stats().rejected();
      System.out.printf("without headers, 3 s on 10/s: one instance refused %d, %d ok; %d sharing refused %d, %d ok%n",
          refusedOne, one.ok.get(), instances, refused, fleet.ok.get());
      assertThat(refused).as("refused, %d instances sharing (one alone: %d)", instances, refusedOne)
          .isLessThanOrEqualTo(Math.max(3, refusedOne + 1));
      assertThat(fleet.ok.get()).as("the fleet still sends at the limit").isGreaterThanOrEqualTo(20);

      // The neighbour: a fleet that starts on a limit just spent (by the one instance, here). Its
      // discoverer reads a few milliseconds of a drained server, a pace of 2 a second, not 10.
      // Believed as a knee, the fleet crept up from it at a hundredth a second, and its 32 calls
      // waited for the pace past their max wait.
      spent.resetStats();
      FleetRun late = FleetRun.run(spent.url(), instances, 2, RUN, () -> state(Duration.ofSeconds(1)));
      System.out.printf("  the same fleet on the spent limit: refused %d, %d ok%n", spent.stats().rejected(),
          late.ok.get());
      assertThat(late.failures).isEmpty();
      assertThat(late.ok.get()).as("on a spent limit too").isGreaterThanOrEqualTo(20);
    }
  }

  @Test
  void oneRefusalPausesEveryInstanceBeforeItSends() throws Exception {
    try (MockWebServer server = new MockWebServer()) {
      server.enqueue(new MockResponse.Builder().code(429).addHeader("Retry-After", "30").build());
      server.start();
      Request request = new Request.Builder().url(server.url("/api")).build();
      CountDownLatch published = new CountDownLatch(1);
      io.lettuce.core.RedisClient listener = io.lettuce.core.RedisClient.create(redis.uri());
      try (var pauses = listener.connectPubSub()) {
        pauses.addListener(new io.lettuce.core.pubsub.RedisPubSubAdapter<>() {
          @Override
          public void message(String channel, String message) {
            published.countDown();
          }
        });
        pauses.sync().subscribe("fleet-test:pauses");
        OkHttpClient first = client(PoliteInterceptor.builder().maxWait(Duration.ofSeconds(1)));
        try (Response refused = first.newCall(request).execute()) {
          assertThat(refused.code()).isEqualTo(429); // 30 s is more than it may wait: given back
        }
        // The first instance tells the fleet in the background; on a loaded machine that may
        // take a retry. The second starts once the fleet has it.
        assertThat(published.await(10, TimeUnit.SECONDS)).as("the pause reached Redis").isTrue();
      } finally {
        listener.shutdown();
      }
      server.enqueue(new MockResponse.Builder().code(200).build()); // if the second did send
      // What is tested is the pause reaching the second instance, not the timeout: a loaded
      // machine may take more than 20 ms to answer, and then the second would rightly go alone.
      RedisSharedState patient = RedisSharedState.builder(redis.uri()).prefix("fleet-test:")
          .timeout(Duration.ofSeconds(2)).build();
      states.add(patient);
      OkHttpClient second = new OkHttpClient.Builder().addInterceptor(PoliteInterceptor.builder()
          .throwWhenRateLimited(true).sharedState(patient).build()).build();
      okhttp3.Call call = second.newCall(request);
      call.timeout().timeout(5, TimeUnit.SECONDS); // far less than the 30 s pause
      assertThatThrownBy(call::execute).isInstanceOf(RateLimitedException.class)
          .hasMessageContaining("paused");
      assertThat(server.getRequestCount()).as("the second instance never sent").isEqualTo(1);
    }
  }

  @Test
  void redisStoppedMidRunFailsNoCallAndTheFleetRejoinsWhenItIsBack() throws Exception {
    try (DemoServer server = server(HeaderStyle.IETF)) {
      RedisSharedState state = state();
      FleetRun run = runThrough(new Outage(redis::stop, redis::startAgain), server, state);
      assertThat(run.failures).as("no call fails because of Redis").isEmpty();
      assertThat(run.ok.get()).isGreaterThan(15);
      assertThat(server.stats().rejected()).isLessThanOrEqualTo(3);
      awaitRejoined(state, server);
    }
  }

  @Test
  void redisFrozenMidRunStallsNoCall() throws Exception {
    try (DemoServer server = server(HeaderStyle.IETF)) {
      RedisSharedState state = state();
      FleetRun run = runThrough(new Outage(redis::freeze, redis::thaw), server, state);
      assertThat(run.failures).isEmpty();
      // Frozen, every lease times out after 20 ms and the instance paces alone at its share:
      // calls keep going through the freeze (10 a second here), none waits on Redis.
      assertThat(run.ok.get()).isGreaterThan(25);
      // The two interceptors here share one state, as two clients of one process would: each is
      // a member of the fleet of its own, so each paces alone at half the pace. (Under one name
      // each paced alone at the whole pace, twice the server's, and the server refused 1 to 5
      // calls a run.) Rejoining, the fleet's bucket starts from empty, not with the burst the
      // alone calls spent. What is left is pacing without the server's count, during the freeze:
      // the tolerance of a fleet that cannot share it, max(3, 5 %) of about 50 calls.
      assertThat(server.stats().rejected()).isLessThanOrEqualTo(3);
      awaitRejoined(state, server);
    }
  }

  private OkHttpClient client(PoliteInterceptor.Builder polite) {
    return new OkHttpClient.Builder().addInterceptor(polite.sharedState(state()).build()).build();
  }

  /** Two instances of three callers on {@code state} for 4 s, through {@code outage}. */
  private static FleetRun runThrough(Outage outage, DemoServer server, RedisSharedState state)
      throws Exception {
    try (outage) {
      return FleetRun.run(server.url(), 2, 3, Duration.ofSeconds(4), () -> state);
    }
  }

  private static void awaitRejoined(RedisSharedState state, DemoServer server) throws IOException {
    awaitRejoined(state, server, Duration.ofSeconds(10));
  }

  /** Calls on, through the state, until it has heard every Redis node in time again (at most {@code most} of calls). */
  static void awaitRejoined(RedisSharedState state, DemoServer server, Duration most) throws IOException {
    OkHttpClient client = new OkHttpClient.Builder()
        .addInterceptor(PoliteInterceptor.builder().sharedState(state).build()).build();
    Request request = new Request.Builder().url(server.url().resolve("/api/rejoin").toString()).build();
    long deadline = System.nanoTime() + most.toNanos();
    while (state.isFallingBack() && System.nanoTime() < deadline) {
      client.newCall(request).execute().close(); // polite paces these: no spinning
    }
    assertThat(state.isFallingBack()).as("rejoined").isFalse();
  }

  /**
   * Redis goes away 1 s into a run and comes back 1.5 s later, on a scheduler of its own; closing
   * waits for both steps and rethrows what failed.
   */
  private static final class Outage implements AutoCloseable {
    private final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();
    private final ScheduledFuture<?> down;
    private final ScheduledFuture<?> back;

    Outage(Step away, Step again) {
      down = scheduler.schedule(() -> run(away), 1000, TimeUnit.MILLISECONDS);
      back = scheduler.schedule(() -> run(again), 2500, TimeUnit.MILLISECONDS);
    }

    private static Void run(Step step) throws Exception {
      step.run();
      return null;
    }

    @Override
    public void close() throws Exception {
      try {
        down.get(10, TimeUnit.SECONDS);
        back.get(10, TimeUnit.SECONDS);
      } finally {
        scheduler.shutdownNow();
      }
    }

    @FunctionalInterface
    interface Step {
      void run() throws Exception;
    }
  }
}
