package dev.polite.demo.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.polite.demo.Algorithm;
import dev.polite.demo.DemoServer;
import dev.polite.demo.DemoServerConfig;
import dev.polite.demo.WhenDown;
import java.net.Socket;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.exceptions.JedisConnectionException;

/**
 * The Redis store against a real redis-server on an ephemeral loopback port, including an
 * outage in the middle of a run. The store's clock is a fake one the test moves, so when it
 * probes a Redis that is down is decided by the test, not by how fast the machine is; Redis
 * itself runs on its own clock.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RedisStoreTest {
  private static final long PROBE = RedisStore.PROBE_INTERVAL_NANOS;
  private final AtomicLong now = new AtomicLong(1_000_000_000_000L);
  private RedisProcess redis;
  private final List<AutoCloseable> closing = new ArrayList<>();

  @BeforeAll
  void startRedis() throws Exception {
    redis = RedisProcess.start();
  }

  @AfterAll
  void stopRedis() throws Exception {
    for (AutoCloseable c : closing) {
      c.close();
    }
    if (redis != null) {
      redis.close();
    }
  }

  @BeforeEach
  void flush() {
    try (Jedis jedis = new Jedis("127.0.0.1", redis.port())) {
      jedis.flushAll();
      jedis.scriptFlush();
    }
  }

  /**
   * A store with a timeout generous enough that a busy CI machine does not mistake a slow answer
   * for an outage; the test of decisions while Redis is down uses the real default.
   */
  private RedisStore store(Algorithm algorithm, long limit, Duration window, WhenDown whenDown, int nodes) {
    return store(algorithm, limit, window, whenDown, nodes, Duration.ofMillis(250));
  }

  private RedisStore store(Algorithm algorithm, long limit, Duration window, WhenDown whenDown, int nodes,
      Duration timeout) {
    DemoServerConfig config = DemoServerConfig.builder().algorithm(algorithm).limit(limit).window(window)
        .store(redis.uri()).whenDown(whenDown).nodes(nodes).redisTimeout(timeout).build();
    RedisStore store = RedisStore.open(config, Policy.of(config), now::get);
    closing.add(store);
    return store;
  }

  @Test
  void everySupportedAlgorithmAdmitsTheLimitThenRejectsWithARetry() {
    for (Algorithm algorithm : Algorithm.onRedis()) {
      RedisStore store = store(algorithm, 3, Duration.ofSeconds(30), WhenDown.CLOSED, 1);
      String key = "ip:203.0.113." + algorithm.ordinal();
      for (int i = 0; i < 3; i++) {
        Decision decision = store.acquire(key, 1);
        assertThat(decision.allowed()).as("%s request %d", algorithm, i).isTrue();
        assertThat(decision.remaining()).as("%s remaining", algorithm).isEqualTo(2 - i);
      }
      Decision rejected = store.acquire(key, 1);
      assertThat(rejected.allowed()).as(algorithm.cliName()).isFalse();
      // A sliding counter full early in one window may need part of the next as well: at most
      // (1 + 1/limit) windows, depending on where Redis's clock falls in the window.
      assertThat(rejected.retryAfterNanos()).as(algorithm.cliName()).isPositive()
          .isLessThanOrEqualTo(Duration.ofSeconds(40).toNanos());
      assertThat(rejected.nextUnitNanos()).as(algorithm.cliName()).isPositive();
      assertThat(store.isDown()).isFalse();
    }
  }

  @Test
  void theBucketScriptsGiveBackWhatWasReservedUpToTheCapacity() {
    for (Algorithm algorithm : List.of(Algorithm.TOKEN_BUCKET, Algorithm.GCRA)) {
      RedisStore store = store(algorithm, 10_000, Duration.ofMinutes(1), WhenDown.CLOSED, 1);
      String key = "key:refund-" + algorithm.cliName();
      // Redis's own clock runs on between the calls: a unit comes back every 6 ms, so the bounds
      // leave room for a loaded machine's half second between two calls (83 units)
      assertThat(store.reserve(key, 4_000).remaining()).as(algorithm.cliName()).isBetween(6_000L, 6_010L);
      Decision refused = store.reserve(key, 7_000);
      assertThat(refused.allowed()).isFalse();
      assertThat(refused.retryAfterNanos()).isBetween(Duration.ofMillis(5_500).toNanos(),
          Duration.ofMillis(6_000).toNanos());
      Decision refund = store.acquire(key, -2_400);
      assertThat(refund.refunded()).as(algorithm.cliName()).isEqualTo(2_400);
      assertThat(refund.remaining()).as(algorithm.cliName()).isBetween(8_400L, 8_500L);
      assertThat(store.reserve(key, 7_000).allowed()).as(algorithm.cliName()).isTrue();
      Decision tooMuch = store.acquire(key, -9_000);
      assertThat(tooMuch.remaining()).as("capped").isEqualTo(10_000);
      assertThat(tooMuch.refunded()).as("what was reserved and not given back, less what Redis's clock refilled")
          .isBetween(8_000L, 8_600L);
      assertThat(store.acquire(key, -1).refunded()).as("settled").isZero();

      String plain = "key:plain-" + algorithm.cliName();
      assertThat(store.acquire(plain, 5_000).allowed()).isTrue();
      assertThat(store.acquire(plain, -5_000).refunded()).as("a plain charge is spent for good").isZero();
      assertThat(store.acquire(plain, 1).remaining()).isBetween(4_999L, 5_100L);
    }
  }

  @Test
  void keysAreHashTaggedAndExpire() {
    RedisStore bucket = store(Algorithm.TOKEN_BUCKET, 5, Duration.ofSeconds(10), WhenDown.OPEN, 1);
    RedisStore log = store(Algorithm.SLIDING_LOG, 5, Duration.ofSeconds(10), WhenDown.OPEN, 1);
    bucket.acquire("ip:198.51.100.9", 1);
    log.acquire("ip:198.51.100.9", 2);
    try (Jedis jedis = new Jedis("127.0.0.1", redis.port())) {
      List<String> keys = new ArrayList<>(jedis.keys("*"));
      assertThat(keys).containsExactlyInAnyOrder(
          "rl:{ip:198.51.100.9}:tb", "rl:{ip:198.51.100.9}:sl", "rl:{ip:198.51.100.9}:sl:seq");
      for (String key : keys) {
        assertThat(jedis.pttl(key)).as(key).isPositive();
      }
      assertThat(jedis.zcard("rl:{ip:198.51.100.9}:sl")).isEqualTo(2); // a cost of 2 is two entries
    }
  }

  @Test
  void theLimitHoldsAcrossNodesSharingOneRedis() {
    RedisStore nodeA = store(Algorithm.GCRA, 10, Duration.ofSeconds(60), WhenDown.CLOSED, 2);
    RedisStore nodeB = store(Algorithm.GCRA, 10, Duration.ofSeconds(60), WhenDown.CLOSED, 2);
    int admitted = 0;
    for (int i = 0; i < 20; i++) {
      admitted += (i % 2 == 0 ? nodeA : nodeB).acquire("key:fleet", 1).allowed() ? 1 : 0;
    }
    assertThat(admitted).isEqualTo(10);
  }

  @Test
  void survivesAScriptCacheFlush() {
    RedisStore store = store(Algorithm.FIXED_WINDOW, 5, Duration.ofSeconds(60), WhenDown.CLOSED, 1);
    assertThat(store.acquire("ip:192.0.2.1", 1).allowed()).isTrue();
    try (Jedis jedis = new Jedis("127.0.0.1", redis.port())) {
      jedis.scriptFlush(); // the next EVALSHA meets NOSCRIPT and falls back to EVAL
    }
    Decision decision = store.acquire("ip:192.0.2.1", 1);
    assertThat(decision.allowed()).isTrue();
    assertThat(decision.remaining()).isEqualTo(3);
    assertThat(store.isDown()).isFalse();
  }

  @Test
  void redisStopsMidRunAndComesBack() throws Exception {
    RedisStore open = store(Algorithm.TOKEN_BUCKET, 4, Duration.ofSeconds(60), WhenDown.OPEN, 2);
    RedisStore closed = store(Algorithm.TOKEN_BUCKET, 4, Duration.ofSeconds(60), WhenDown.CLOSED, 2);
    RedisStore local = store(Algorithm.TOKEN_BUCKET, 4, Duration.ofSeconds(60), WhenDown.LOCAL, 2);
    for (RedisStore store : List.of(open, closed, local)) {
      for (int i = 0; i < 4; i++) {
        assertThat(store.acquire("ip:192.0.2." + i, 1).allowed()).isTrue();
      }
    }
    redis.stop();
    try {
      int openAdmitted = 0;
      int closedAdmitted = 0;
      int localAdmitted = 0;
      for (int i = 0; i < 12; i++) {
        openAdmitted += open.acquire("ip:192.0.2.100", 1).allowed() ? 1 : 0;
        closedAdmitted += closed.acquire("ip:192.0.2.100", 1).allowed() ? 1 : 0;
        localAdmitted += local.acquire("ip:192.0.2.100", 1).allowed() ? 1 : 0;
      }
      assertThat(openAdmitted).isEqualTo(12); // open: everything through
      assertThat(closedAdmitted).isZero(); // closed: nothing
      assertThat(localAdmitted).isEqualTo(2); // local: this node's share, 4 / 2 nodes
      for (RedisStore store : List.of(open, closed, local)) {
        assertThat(store.isDown()).isTrue();
        assertThat(store.outages().outagesLogged()).isEqualTo(1); // once, not once per request
        assertThat(store.outages().recoveriesLogged()).isZero();
      }
    } finally {
      redis.startAgain();
    }
    // Redis is back (empty: no persistence), but no store asks it before its next probe time.
    for (RedisStore store : List.of(open, closed, local)) {
      store.acquire("ip:192.0.2.200", 1);
      assertThat(store.isDown()).isTrue();
    }
    now.addAndGet(PROBE);
    for (RedisStore store : List.of(open, closed, local)) {
      Decision decision = store.acquire("ip:192.0.2.200", 1);
      assertThat(store.isDown()).isFalse();
      assertThat(decision.allowed()).isTrue();
      assertThat(store.outages().outagesLogged()).isEqualTo(1);
      assertThat(store.outages().recoveriesLogged()).isEqualTo(1);
    }
  }

  @Test
  void probesWhenDueOnItsClockAndAtOnceWhenThatClockStepsBack() throws Exception {
    RedisStore store = store(Algorithm.TOKEN_BUCKET, 4, Duration.ofSeconds(60), WhenDown.CLOSED, 1);
    redis.stop();
    try {
      assertThat(store.acquire("ip:192.0.2.9", 1).allowed()).isFalse();
      assertThat(store.isDown()).isTrue();
    } finally {
      redis.startAgain();
    }
    now.addAndGet(PROBE - 1);
    store.acquire("ip:192.0.2.9", 1);
    assertThat(store.isDown()).as("one nanosecond before the probe time").isTrue();
    now.addAndGet(-Duration.ofHours(1).toNanos()); // the wall clock is set back an hour
    assertThat(store.acquire("ip:192.0.2.9", 1).allowed()).isTrue();
    assertThat(store.isDown()).as("not an hour later: at once").isFalse();
  }

  /**
   * Each decision answers within 50 ms while Redis is hung (SIGSTOP: only timeouts help) or
   * stopped (connections refused). Asserted with margin for a loaded CI machine: 99% of the
   * decisions within 50 ms, and the slowest within 150 ms; a client that retried, or kept Jedis's
   * default 2 s timeout, would take seconds.
   */
  @Test
  void everyDecisionAnswersWithin50msWhileRedisIsDown() throws Exception {
    RedisStore store = store(Algorithm.TOKEN_BUCKET, 1000, Duration.ofSeconds(1), WhenDown.LOCAL, 4,
        DemoServerConfig.builder().build().redisTimeout());
    for (int i = 0; i < 200; i++) {
      store.acquire("ip:192.0.2.7", 1); // warm up while Redis is up
    }

    redis.freeze();
    long[] hung;
    try {
      hung = timings(store, 300);
    } finally {
      redis.thaw();
    }
    redis.stop();
    long[] dead;
    try {
      dead = timings(store, 300);
    } finally {
      redis.startAgain();
    }
    String measured = String.format("decisions while Redis hung: p99 %.1f ms, slowest %.1f ms; "
        + "while stopped: p99 %.1f ms, slowest %.1f ms",
        hung[hung.length * 99 / 100] / 1e6, hung[hung.length - 1] / 1e6,
        dead[dead.length * 99 / 100] / 1e6, dead[dead.length - 1] / 1e6);
    for (long[] timings : List.of(hung, dead)) {
      assertThat(timings[timings.length * 99 / 100]).as(measured).isLessThan(Duration.ofMillis(50).toNanos());
      assertThat(timings[timings.length - 1]).as(measured).isLessThan(Duration.ofMillis(150).toNanos());
    }
  }

  /**
   * The sorted durations of {@code n} decisions, 3 ms apart on the store's clock so one in about
   * 67 is a probe of Redis. The durations are real time: they are what a client waits.
   */
  private long[] timings(RedisStore store, int n) {
    long[] timings = new long[n];
    for (int i = 0; i < n; i++) {
      now.addAndGet(3_000_000);
      long start = System.nanoTime();
      store.acquire("ip:192.0.2.7", 1);
      timings[i] = System.nanoTime() - start;
    }
    assertThat(store.isDown()).isTrue();
    Arrays.sort(timings);
    return timings;
  }

  /**
   * A route's own budget keeps its state apart in the Redis the main budget shares: its keys are
   * qualified by its name, so neither spends the other, and two nodes share each budget.
   */
  @Test
  void overHttpEachBudgetHasItsOwnStateInOneRedis() throws Exception {
    HttpClient http = HttpClient.newHttpClient();
    DemoServerConfig.Builder node = DemoServer.builder().limit(2).window(Duration.ofSeconds(60))
        .budget("/api/search", "search", 1, Duration.ofSeconds(60)).store(redis.uri()).whenDown(WhenDown.CLOSED);
    try (DemoServer a = node.start(); DemoServer b = node.start()) {
      List<Integer> statuses = new ArrayList<>();
      for (String call : List.of("a/api/search", "b/api/search", "a/api/items", "b/api/items", "a/api/items")) {
        DemoServer server = call.startsWith("a") ? a : b;
        HttpRequest request = HttpRequest.newBuilder(server.url().resolve(call.substring(1))).build();
        statuses.add(http.send(request, HttpResponse.BodyHandlers.ofString()).statusCode());
      }
      assertThat(statuses).as("search 1 for the fleet, core 2 for the fleet").containsExactly(200, 429, 200, 200, 429);
      try (Jedis jedis = new Jedis("127.0.0.1", redis.port())) {
        assertThat(jedis.keys("*")).anyMatch(key -> key.startsWith("rl:{search|ip:"))
            .anyMatch(key -> key.startsWith("rl:{ip:"));
      }
    }
  }

  @Test
  void overHttpTheRedisStoreLimitsAndFailsClosedWith429() throws Exception {
    HttpClient http = HttpClient.newHttpClient();
    try (DemoServer server = DemoServer.builder().limit(2).window(Duration.ofSeconds(60))
        .store(redis.uri()).whenDown(WhenDown.CLOSED).start()) {
      HttpRequest request = HttpRequest.newBuilder(server.url().resolve("/api/r")).build();
      List<Integer> statuses = new ArrayList<>();
      for (int i = 0; i < 3; i++) {
        statuses.add(http.send(request, HttpResponse.BodyHandlers.ofString()).statusCode());
      }
      assertThat(statuses).containsExactly(200, 200, 429);
      redis.stop();
      try {
        HttpResponse<String> down = http.send(request, HttpResponse.BodyHandlers.ofString());
        assertThat(down.statusCode()).isEqualTo(429); // a rate limit answer, never 503
        assertThat(down.headers().firstValue("Retry-After")).hasValue("1");
      } finally {
        redis.startAgain();
      }
    }
  }

  /**
   * A flood is not an outage. 200 connections at once, each with one request, against 10 a minute
   * and {@code --when-down open}, with 16 I/O threads (a 32-core machine's default), so 128 task
   * threads decide in Redis at once, while Redis is slow for 500 ms (a script holds it; slower
   * than that is its timeout's business, 1 s here). The pool held 64 connections and waited 5 ms
   * for one, and a full pool counted as Redis being down: the store failed open and admitted
   * nearly everything. At most 10 are admitted; the rest are refused (or, were the pool full,
   * answered 503). The timeout is generous so that only the pool, not a slow shared machine, is in
   * play.
   */
  /**
   * A full pool is not an outage: with every pooled connection held, a decision waits its turn
   * for one timeout and then is not made (a 503 upstream), the store stays up, and the next
   * decision, once a connection is free, is Redis's. It used to mark Redis down for every key.
   */
  @Test
  void aFullPoolIsNotAnOutage() {
    DemoServerConfig config = DemoServerConfig.builder().limit(5).window(Duration.ofMinutes(1))
        .store(redis.uri()).whenDown(WhenDown.OPEN).redisTimeout(Duration.ofMillis(100)).build();
    RedisStore store = RedisStore.open(config, Policy.of(config), now::get, 1);
    closing.add(store);
    try (Jedis held = store.pool().getResource()) {
      held.ping();
      assertThatThrownBy(() -> store.acquire("ip:192.0.2.50", 1)).isInstanceOf(StoreBusyException.class)
          .hasMessageContaining("busy");
      assertThat(store.isDown()).as("a full pool").isFalse();
      assertThat(store.outages().outagesLogged()).isZero();
    }
    Decision decision = store.acquire("ip:192.0.2.50", 1);
    assertThat(decision.allowed()).isTrue();
    assertThat(decision.remaining()).as("decided in Redis, not failed open").isEqualTo(4);
  }

  /** Holds Redis for 500 ms of its own clock: every other command waits until it ends. */
  private static final String BUSY_FOR_500_MS = "local function now() local t = redis.call('TIME') "
      + "return tonumber(t[1]) * 1000000 + tonumber(t[2]) end "
      + "local start = now() while now() - start < 500000 do end return 1";

  /** Returns once a PING goes unanswered for 50 ms: the busy script is running. */
  private void awaitBusy() throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
    while (System.nanoTime() < deadline) {
      try (Jedis probe = new Jedis("127.0.0.1", redis.port(), 50)) {
        probe.ping();
      } catch (JedisConnectionException timedOut) {
        return;
      }
      Thread.sleep(5);
    }
    throw new AssertionError("the busy script never started");
  }

  @Test
  void aFloodOfConcurrentRequestsNeverSwitchesTheStoreToFailOpen() throws Exception {
    try (DemoServer server = DemoServer.builder().limit(10).window(Duration.ofMinutes(1)).store(redis.uri())
        .whenDown(WhenDown.OPEN).redisTimeout(Duration.ofSeconds(1)).ioThreads(16).start()) {
      int connections = 200;
      ExecutorService clients = Executors.newFixedThreadPool(connections);
      CountDownLatch go = new CountDownLatch(1);
      List<Future<String>> answers = new ArrayList<>();
      for (int i = 0; i < connections; i++) {
        answers.add(clients.submit(() -> {
          try (Socket socket = new Socket("127.0.0.1", server.port())) {
            socket.setSoTimeout(10_000);
            go.await();
            socket.getOutputStream().write("GET /api/flood HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
                .getBytes(StandardCharsets.ISO_8859_1));
            return new String(socket.getInputStream().readNBytes(12), StandardCharsets.ISO_8859_1).substring(9);
          }
        }));
      }
      CompletableFuture<Object> slow = CompletableFuture.supplyAsync(() -> {
        try (Jedis jedis = new Jedis("127.0.0.1", redis.port())) {
          return jedis.eval(BUSY_FOR_500_MS);
        }
      });
      awaitBusy(); // Redis answers nothing until the script ends
      go.countDown();
      Map<String, Integer> statuses = new TreeMap<>();
      for (Future<String> answer : answers) {
        statuses.merge(answer.get(30, TimeUnit.SECONDS), 1, Integer::sum);
      }
      clients.shutdown();
      slow.get(10, TimeUnit.SECONDS);
      assertThat(statuses.getOrDefault("200", 0)).as("admitted of 200 at once: " + statuses).isLessThanOrEqualTo(10);
      assertThat(statuses.keySet()).as("every answer a 200, a 429 or a 503").isSubsetOf("200", "429", "503");
      assertThat(server.stats().admitted()).isLessThanOrEqualTo(10);
    }
  }
}
