package dev.polite.demo.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.polite.demo.Algorithm;
import dev.polite.demo.DemoServer;
import dev.polite.demo.WhenDown;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import redis.clients.jedis.Jedis;

/**
 * The synced store against a real redis-server on an ephemeral loopback port. The nodes' clock
 * is a fake one the test moves, and the test calls each node's sync every S of that clock, so
 * the traffic, the sync phases and therefore the counts are the same on every run, however busy
 * the machine (the store sends its clock with each sync, so Redis's own clock plays no part).
 *
 * <p>The traffic is the reference's: 10 nodes enforcing 100 a second, a client sending 300 a
 * second round robin over all 10, each node syncing every S at its own phase. The bound checked
 * is {@code limit + client rate × S + one request per node}: on a fake clock a sync takes no
 * time, so the round trip's share of the slack is 0 here, and a node may admit one request it
 * decided just before its view caught up.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SyncedStoreTest {
  private static final long SECOND = 1_000_000_000L;
  private static final long START = 1_800_000_000L * SECOND; // on a window boundary
  private static final int NODES = 10;
  private static final int CLIENT_RATE = 300;
  private final AtomicLong now = new AtomicLong(START);
  private final List<AutoCloseable> closing = new ArrayList<>();
  private RedisProcess redis;

  @BeforeAll
  void startRedis() throws Exception {
    redis = RedisProcess.start();
  }

  @AfterAll
  void stopRedis() {
    if (redis != null) {
      redis.close();
    }
  }

  @BeforeEach
  void flush() {
    now.set(START);
    try (Jedis jedis = new Jedis("127.0.0.1", redis.port())) {
      jedis.flushAll();
      jedis.scriptFlush();
    }
  }

  @AfterEach
  void closeStores() throws Exception {
    for (AutoCloseable store : closing) {
      store.close();
    }
    closing.clear();
  }

  private SyncedStore node(Algorithm algorithm, long limit, Duration window, WhenDown whenDown, int nodes,
      Duration timeout) {
    SyncedStore store = new SyncedStore(URI.create(redis.uri()), algorithm,
        new Policy(limit, window.toNanos(), limit), whenDown, nodes, timeout, now::get, 1_000);
    closing.add(store);
    return store;
  }

  private List<SyncedStore> fleet(Algorithm algorithm) {
    List<SyncedStore> fleet = new ArrayList<>();
    for (int i = 0; i < NODES; i++) {
      fleet.add(node(algorithm, 100, Duration.ofSeconds(1), WhenDown.OPEN, NODES, Duration.ofMillis(250)));
    }
    return fleet;
  }

  /**
   * Sends {@code CLIENT_RATE} a second, evenly spaced, round robin over {@code fleet} for
   * {@code seconds}, each node syncing every {@code intervalNanos} at its own phase; returns the
   * admitted count of each second.
   */
  private long[] run(List<SyncedStore> fleet, long intervalNanos, int seconds) {
    long[] nextSync = new long[fleet.size()];
    for (int i = 0; i < fleet.size(); i++) {
      nextSync[i] = START + intervalNanos * (i + 1) / fleet.size();
    }
    long[] admitted = new long[seconds];
    long requests = (long) CLIENT_RATE * seconds;
    for (long i = 0; i < requests; i++) {
      long t = START + i * SECOND / CLIENT_RATE;
      for (int n = 0; n < fleet.size(); n++) {
        while (nextSync[n] <= t) {
          now.set(nextSync[n]);
          fleet.get(n).sync();
          nextSync[n] += intervalNanos;
        }
      }
      now.set(t);
      if (fleet.get((int) (i % fleet.size())).acquire("key:client", 1).allowed()) {
        admitted[(int) ((t - START) / SECOND)]++;
      }
    }
    return admitted;
  }

  @Test
  void aFixedWindowAdmitsTheLimitPlusAtMostTheClientRateTimesTheInterval() {
    for (long millis : List.of(20L, 100L, 200L, 500L)) {
      flush();
      long[] admitted = run(fleet(Algorithm.FIXED_WINDOW), millis * 1_000_000, 4);
      long bound = 100 + CLIENT_RATE * millis / 1000 + NODES;
      for (long second : admitted) {
        assertThat(second).as("S = %d ms, per second %s", millis, java.util.Arrays.toString(admitted))
            .isBetween(100L, bound);
      }
      closing.forEach(this::closeQuietly);
      closing.clear();
    }
  }

  @Test
  void aSlidingCounterStaysWithinTheSameBoundOnAverage() {
    long[] admitted = run(fleet(Algorithm.SLIDING_COUNTER), 200_000_000L, 4);
    long total = java.util.Arrays.stream(admitted).sum();
    assertThat(total).as(java.util.Arrays.toString(admitted)).isBetween(4 * 80L, 4 * (100L + 60 + NODES));
  }

  @Test
  void aTokenBucketPaysItsOvershootBack() {
    long[] admitted = run(fleet(Algorithm.TOKEN_BUCKET), 200_000_000L, 5);
    long total = java.util.Arrays.stream(admitted).sum();
    // A full bucket of 100, 100 a second for 5 s, and one interval's excess of the client.
    assertThat(total).as(java.util.Arrays.toString(admitted)).isBetween(500L, 100L + 500 + 60 + NODES);
    for (int second = 1; second < admitted.length; second++) {
      assertThat(admitted[second]).as("second %d of %s", second, java.util.Arrays.toString(admitted))
          .isLessThanOrEqualTo(100L + 60 + NODES);
    }
  }

  @Test
  void syncingPipelinesEveryActiveKeyAndKeepsTheSharedCount() {
    SyncedStore a = node(Algorithm.FIXED_WINDOW, 10, Duration.ofMinutes(1), WhenDown.OPEN, 2, Duration.ofMillis(250));
    SyncedStore b = node(Algorithm.FIXED_WINDOW, 10, Duration.ofMinutes(1), WhenDown.OPEN, 2, Duration.ofMillis(250));
    for (int i = 0; i < 6; i++) {
      assertThat(a.acquire("key:one", 1).allowed()).isTrue();
      a.acquire("key:two", 1);
    }
    a.sync();
    assertThat(b.acquire("key:one", 1).allowed()).as("b has not synced yet: blind").isTrue();
    b.sync();
    int admitted = 0;
    for (int i = 0; i < 10; i++) {
      admitted += b.acquire("key:one", 1).allowed() ? 1 : 0;
    }
    assertThat(admitted).as("b now sees a's 6 and its own 1").isEqualTo(3);
    b.sync();
    try (Jedis jedis = new Jedis("127.0.0.1", redis.port())) {
      String index = Long.toString(START / Duration.ofMinutes(1).toNanos());
      assertThat(jedis.hget("rl:{key:one}:sync:fw", index)).isEqualTo("10");
      assertThat(jedis.hget("rl:{key:two}:sync:fw", index)).isEqualTo("6");
      assertThat(jedis.pttl("rl:{key:one}:sync:fw")).isPositive();
    }
    assertThat(a.blocking()).as("decisions never wait on Redis").isFalse();
  }

  @Test
  void redisStoppedAndRestartedMidRun() throws Exception {
    SyncedStore local = node(Algorithm.FIXED_WINDOW, 10, Duration.ofMinutes(1), WhenDown.LOCAL, 2,
        Duration.ofMillis(250));
    SyncedStore closed = node(Algorithm.TOKEN_BUCKET, 10, Duration.ofMinutes(1), WhenDown.CLOSED, 2,
        Duration.ofMillis(250));
    SyncedStore open = node(Algorithm.TOKEN_BUCKET, 10, Duration.ofMinutes(1), WhenDown.OPEN, 2,
        Duration.ofMillis(250));
    for (SyncedStore store : List.of(local, closed, open)) {
      for (int i = 0; i < 3; i++) {
        assertThat(store.acquire("key:c", 1).allowed()).isTrue();
      }
      store.sync();
      assertThat(store.outages().isDown()).isFalse();
    }
    redis.stop();
    try {
      for (SyncedStore store : List.of(local, closed, open)) {
        store.acquire("key:c", 1);
        store.sync();
        store.sync();
        assertThat(store.outages().isDown()).isTrue();
        assertThat(store.outages().outagesLogged()).as("once, not once per sync").isEqualTo(1);
      }
      assertThat(admitted(local, 12)).as("this node's share: 10 / 2").isEqualTo(5);
      assertThat(admitted(closed, 12)).isZero();
      assertThat(admitted(open, 12)).isEqualTo(12);
    } finally {
      redis.startAgain();
    }
    for (SyncedStore store : List.of(local, closed, open)) {
      store.sync(); // nothing active while down: a PING finds Redis back
      assertThat(store.outages().isDown()).isFalse();
      assertThat(store.outages().recoveriesLogged()).isEqualTo(1);
      assertThat(store.acquire("key:c", 1).allowed()).as("deciding from its own view again").isTrue();
      store.sync(); // the restarted Redis has no script: loaded, then sent again
      assertThat(store.outages().isDown()).isFalse();
      assertThat(store.outages().outagesLogged()).isEqualTo(1);
    }
    try (Jedis jedis = new Jedis("127.0.0.1", redis.port())) {
      String index = Long.toString(START / Duration.ofMinutes(1).toNanos());
      assertThat(jedis.hget("rl:{key:c}:sync:fw", index)).as("the count since the restart").isEqualTo("1");
    }
  }

  /**
   * A frozen Redis (SIGSTOP: it accepts connections and never answers) costs a sync one timeout,
   * and a request nothing. Measured on the real clock, with margin for a loaded machine.
   */
  @Test
  void aFrozenRedisNeverHangsASyncOrARequest() throws Exception {
    SyncedStore store = node(Algorithm.FIXED_WINDOW, 10, Duration.ofMinutes(1), WhenDown.OPEN, 2,
        Duration.ofMillis(20));
    store.acquire("key:f", 1);
    store.sync();
    redis.freeze();
    try {
      store.acquire("key:f", 1);
      long start = System.nanoTime();
      store.sync();
      long syncMillis = (System.nanoTime() - start) / 1_000_000;
      assertThat(store.outages().isDown()).isTrue();
      assertThat(syncMillis).as("one sync against a frozen Redis").isLessThan(1_000);
      start = System.nanoTime();
      for (int i = 0; i < 100; i++) {
        assertThat(store.acquire("key:f", 1).allowed()).isTrue(); // open
      }
      assertThat((System.nanoTime() - start) / 1_000_000).as("100 decisions while frozen").isLessThan(500);
    } finally {
      redis.thaw();
    }
  }

  /** With the interval at 0 the server runs the shared store: exact, over HTTP, across three nodes. */
  @Test
  void anIntervalOfZeroIsTheSharedStoreAndExact() throws Exception {
    HttpClient http = HttpClient.newHttpClient();
    List<DemoServer> servers = new ArrayList<>();
    try {
      for (int i = 0; i < 3; i++) {
        servers.add(DemoServer.builder().algorithm(Algorithm.TOKEN_BUCKET).limit(10).window(Duration.ofHours(1))
            .store("synced:" + redis.uri()).syncInterval(Duration.ZERO).redisTimeout(Duration.ofMillis(250))
            .start());
      }
      int admitted = 0;
      for (int i = 0; i < 30; i++) {
        HttpRequest request = HttpRequest.newBuilder(servers.get(i % 3).url().resolve("/api/x")).build();
        admitted += http.send(request, HttpResponse.BodyHandlers.discarding()).statusCode() == 200 ? 1 : 0;
      }
      assertThat(admitted).isEqualTo(10);
      String stats = http.send(HttpRequest.newBuilder(servers.get(0).url().resolve("/stats")).build(),
          HttpResponse.BodyHandlers.ofString()).body();
      assertThat(stats).contains("\"store\":\"redis\"");
    } finally {
      servers.forEach(DemoServer::close);
    }
  }

  private static int admitted(SyncedStore store, int requests) {
    int admitted = 0;
    for (int i = 0; i < requests; i++) {
      admitted += store.acquire("key:down", 1).allowed() ? 1 : 0;
    }
    return admitted;
  }

  private void closeQuietly(AutoCloseable closeable) {
    try {
      closeable.close();
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }
}
