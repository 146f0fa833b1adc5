package dev.polite.examples.lessons;

import dev.polite.demo.Algorithm;
import dev.polite.demo.DemoServer;
import dev.polite.demo.KeyStats;
import dev.polite.demo.internal.MemoryStore;
import dev.polite.demo.internal.Policy;
import dev.polite.demo.internal.RateLimiter;
import dev.polite.examples.LocalRedis;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import redis.clients.jedis.Jedis;

/**
 * {@code lessons naive}: the reference's dictionary-of-counters limiter ({@link NaiveLimiter})
 * through the four situations every production system meets, each followed by the demo server's
 * answer to the same traffic:
 *
 * <ol>
 *   <li>the window boundary: the demo server's token bucket and sliding log classes on a virtual
 *       clock (the boundary is a matter of timestamps, so no waiting for 9.9 s);
 *   <li>four servers counting alone: four in-process demo servers sharing one real Redis;
 *   <li>behind a proxy: a demo server trusting the proxy (loopback) and keying on
 *       {@code X-Forwarded-For} read from the right, including a spoofed leftmost entry;
 *   <li>a shared store read then written: GET, check, SET on a real Redis with every read before
 *       any write, against a demo server on that Redis deciding with its Lua script.
 * </ol>
 *
 * <p>Usage: {@code java -jar polite-examples.jar lessons naive [--json]}
 */
@Command(name = "naive",
    description = {"The naive limiter (a HashMap of counters, 10 per 10 s) through the reference's four situations, "
        + "each followed by the demo server's answer: window boundary, four servers, behind a proxy, "
        + "a shared store read then written. Starts redis-server from the PATH.",
        "With --json: one object per measured thing (naive or demo server), the reference's figure in 'reference'."},
    usageHelpAutoWidth = true)
final class NaiveLesson implements Callable<Integer> {
  private static final int LIMIT = 10;
  private static final double WINDOW_SECONDS = 10;
  private static final long SECOND = 1_000_000_000L;
  /** The proxy every user comes through: the naive limiter's key, the demo server's trusted hop. */
  private static final String PROXY = "127.0.0.1";
  private static final Map<String, String> USERS = users();

  @Mixin
  LessonOptions options;

  /** The three users behind the proxy and the addresses the proxy sees them at, in order. */
  private static Map<String, String> users() {
    Map<String, String> users = new LinkedHashMap<>();
    users.put("asha", "203.0.113.1");
    users.put("ben", "203.0.113.2");
    users.put("chen", "203.0.113.3");
    return users;
  }

  @Override
  public Integer call() throws Exception {
    LessonOutput out = options.output();
    out.text("naive: a HashMap of counters keyed by client and window number, 10 per 10 s; "
        + "each situation, then the demo server's answer");
    OkHttpClient http = new OkHttpClient.Builder().retryOnConnectionFailure(false).build();
    try (LocalRedis redis = LocalRedis.start()) { // first: without redis-server, say so before any line
      windowBoundary(out);
      fourServers(out, http, redis);
      behindAProxy(out, http);
      sharedStore(out, http, redis);
    } finally {
      http.dispatcher().executorService().shutdown();
      http.connectionPool().evictAll();
    }
    return 0;
  }

  /** Ten requests at 9.9 s and ten at 10.0 s: two windows to the naive limiter. */
  private static void windowBoundary(LessonOutput out) {
    NaiveLimiter naive = new NaiveLimiter(LIMIT, WINDOW_SECONDS);
    int accepted = 0;
    for (int i = 0; i < 20; i++) {
      accepted += naive.allow("203.0.113.7", i < 10 ? 9.9 : 10.0) ? 1 : 0;
    }
    out.row(beside(String.format(Locale.ROOT, "1. window boundary: %d of 20 accepted within 0.1 s (limit is 10 per 10 s)",
            accepted), "20 of 20"),
        LessonOutput.fields("lesson", "naive", "situation", "window boundary", "limiter", "naive",
            "accepted", accepted, "of", 20, "reference", 20));
    Map<Algorithm, Integer> demo = new LinkedHashMap<>();
    for (Algorithm algorithm : List.of(Algorithm.TOKEN_BUCKET, Algorithm.SLIDING_LOG)) {
      RateLimiter limiter = MemoryStore.newLimiter(algorithm, new Policy(LIMIT, 10 * SECOND, LIMIT));
      int admitted = 0;
      for (int i = 0; i < 20; i++) {
        admitted += limiter.tryAcquire(i < 10 ? 9_900_000_000L : 10 * SECOND, 1).allowed() ? 1 : 0;
      }
      demo.put(algorithm, admitted);
      out.row(null, LessonOutput.fields("lesson", "naive", "situation", "window boundary",
          "limiter", "demo server " + algorithm.cliName(), "accepted", admitted, "of", 20, "reference", null));
    }
    out.text(String.format(Locale.ROOT, "   demo server:     token bucket %d of 20, sliding log %d of 20 "
        + "(its limiter classes, on a virtual clock)", demo.get(Algorithm.TOKEN_BUCKET), demo.get(Algorithm.SLIDING_LOG)));
  }

  /** Forty requests spread over four servers in one window. */
  private static void fourServers(LessonOutput out, OkHttpClient http, LocalRedis redis) throws IOException {
    List<NaiveLimiter> naive = List.of(new NaiveLimiter(LIMIT, WINDOW_SECONDS), new NaiveLimiter(LIMIT, WINDOW_SECONDS),
        new NaiveLimiter(LIMIT, WINDOW_SECONDS), new NaiveLimiter(LIMIT, WINDOW_SECONDS));
    int accepted = 0;
    for (int i = 0; i < 40; i++) {
      accepted += naive.get(i % 4).allow("203.0.113.7", 1.0) ? 1 : 0;
    }
    out.row(beside(String.format(Locale.ROOT, "2. four servers:    %d of 40 accepted in one window (each server counted alone)",
            accepted), "40 of 40"),
        LessonOutput.fields("lesson", "naive", "situation", "four servers", "limiter", "naive",
            "accepted", accepted, "of", 40, "reference", 40));
    List<DemoServer> servers = new ArrayList<>();
    try {
      for (int i = 0; i < 4; i++) {
        servers.add(sharedBucket(redis).start());
        warm(http, servers.get(i));
      }
      int admitted = 0;
      for (int i = 0; i < 40; i++) {
        admitted += get(http, servers.get(i % 4).url() + "/api/items", null) == 200 ? 1 : 0;
      }
      out.row(String.format(Locale.ROOT, "   demo server:     %d of 40 accepted by four demo servers sharing one Redis "
              + "(token bucket, Lua script)", admitted),
          LessonOutput.fields("lesson", "naive", "situation", "four servers", "limiter",
              "demo server token-bucket, four nodes on one Redis", "accepted", admitted, "of", 40, "reference", null));
    } finally {
      servers.forEach(DemoServer::close);
    }
  }

  /** Three users, five requests each, through one proxy; then a spoofer writing the leftmost entry. */
  private static void behindAProxy(LessonOutput out, OkHttpClient http) throws IOException {
    NaiveLimiter naive = new NaiveLimiter(LIMIT, WINDOW_SECONDS);
    Map<String, Integer> naiveAccepted = new LinkedHashMap<>();
    for (String user : USERS.keySet()) {
      int accepted = 0;
      for (int i = 0; i < 5; i++) {
        accepted += naive.allow(PROXY, 1.0) ? 1 : 0; // the socket's address: the proxy's, for everyone
      }
      naiveAccepted.put(user, accepted);
    }
    out.row(beside(String.format(Locale.ROOT, "3. behind a proxy:  accepted %s - three users share one counter",
            perUser(naiveAccepted)), "asha 5/5, ben 5/5, chen 0/5"),
        LessonOutput.fields("lesson", "naive", "situation", "behind a proxy", "limiter", "naive",
            "accepted", naiveAccepted, "of", 5, "reference", referenceProxy()));
    try (DemoServer server = DemoServer.builder().algorithm(Algorithm.TOKEN_BUCKET).limit(LIMIT)
        .window(Duration.ofSeconds(10)).trustedProxies(List.of(PROXY)).start()) {
      Map<String, Integer> demoAccepted = new LinkedHashMap<>();
      for (Map.Entry<String, String> user : USERS.entrySet()) {
        int accepted = 0;
        for (int i = 0; i < 5; i++) {
          // What the proxy sends on: the address it saw, appended to the header.
          accepted += get(http, server.url() + "/api/items", user.getValue()) == 200 ? 1 : 0;
        }
        demoAccepted.put(user.getKey(), accepted);
      }
      out.row(String.format(Locale.ROOT, "   demo server:     accepted %s - keyed by X-Forwarded-For from trusted "
              + "proxy %s, read from the right", perUser(demoAccepted), PROXY),
          LessonOutput.fields("lesson", "naive", "situation", "behind a proxy",
              "limiter", "demo server token-bucket, trusted proxy", "accepted", demoAccepted, "of", 5, "reference", null));
      // chen now writes a fresh leftmost entry on each of ten more requests, hoping for new keys.
      String chen = USERS.get("chen");
      int spoofAccepted = 0;
      for (int i = 1; i <= 10; i++) {
        spoofAccepted += get(http, server.url() + "/api/items", "198.18.0." + i + ", " + chen) == 200 ? 1 : 0;
      }
      KeyStats chenStats = server.stats().key("ip:" + chen);
      long spoofedKeys = server.stats().keys().keySet().stream().filter(key -> key.startsWith("ip:198.18.")).count();
      long chenAdmitted = chenStats == null ? 0 : chenStats.admitted();
      out.row(String.format(Locale.ROOT, "   demo server:     chen spoofs the leftmost entry on 10 more: %d accepted, "
              + "all counted as ip:%s (%d of 10 in its window), %d keys chosen by the spoofer",
              spoofAccepted, chen, chenAdmitted, spoofedKeys),
          LessonOutput.fields("lesson", "naive", "situation", "spoofed leftmost X-Forwarded-For",
              "limiter", "demo server token-bucket, trusted proxy", "accepted", spoofAccepted, "of", 10,
              "key", "ip:" + chen, "key_admitted", chenAdmitted, "spoofed_keys", spoofedKeys, "reference", null));
    }
  }

  /** Twenty requests GET a shared count, all before any SETs it: the reference's line 4. */
  private static void sharedStore(LessonOutput out, OkHttpClient http, LocalRedis redis) throws Exception {
    String key = "naive:{203.0.113.7}:count";
    int parties = 20;
    CyclicBarrier allHaveRead = new CyclicBarrier(parties);
    ExecutorService pool = Executors.newFixedThreadPool(parties);
    int accepted = 0;
    try {
      List<Future<Boolean>> results = new ArrayList<>();
      for (int i = 0; i < parties; i++) {
        results.add(pool.submit(() -> {
          try (Jedis jedis = new Jedis("127.0.0.1", redis.port())) {
            String stored = jedis.get(key);
            int count = stored == null ? 0 : Integer.parseInt(stored);
            // Every request's read lands before any write: what one round trip allows when
            // twenty arrive inside it. The barrier makes the worst case certain, not likely.
            allHaveRead.await();
            if (count >= LIMIT) {
              return false;
            }
            jedis.set(key, Integer.toString(count + 1));
            return true;
          }
        }));
      }
      for (Future<Boolean> result : results) {
        accepted += result.get() ? 1 : 0;
      }
    } finally {
      pool.shutdownNow();
    }
    String stored;
    try (Jedis jedis = new Jedis("127.0.0.1", redis.port())) {
      stored = jedis.get(key);
    }
    out.row(beside(String.format(Locale.ROOT, "4. shared store:    %d of 20 accepted, and the stored count says %s",
            accepted, stored), "20 of 20, and 1"),
        LessonOutput.fields("lesson", "naive", "situation", "shared store", "limiter", "naive GET, check, SET on Redis",
            "accepted", accepted, "of", 20, "stored", Integer.parseInt(stored), "reference", 20, "reference_stored", 1));
    try (Jedis jedis = new Jedis("127.0.0.1", redis.port())) {
      // Situation 2's servers spent this client's (ip:127.0.0.1) bucket in the same Redis: start afresh.
      jedis.flushAll();
    }
    try (DemoServer server = sharedBucket(redis).start()) {
      warm(http, server);
      ExecutorService clients = Executors.newFixedThreadPool(parties);
      int admitted = 0;
      try {
        CyclicBarrier go = new CyclicBarrier(parties);
        List<Future<Integer>> codes = new ArrayList<>();
        for (int i = 0; i < parties; i++) {
          codes.add(clients.submit(() -> {
            go.await();
            return get(http, server.url() + "/api/items", null);
          }));
        }
        for (Future<Integer> code : codes) {
          admitted += code.get() == 200 ? 1 : 0;
        }
      } finally {
        clients.shutdownNow();
      }
      String tokens;
      try (Jedis jedis = new Jedis("127.0.0.1", redis.port())) {
        tokens = jedis.hget("rl:{ip:127.0.0.1}:tb", "tokens");
      }
      double left = Double.parseDouble(tokens);
      out.row(String.format(Locale.ROOT, "   demo server:     %d of 20 accepted at once, and the stored bucket says "
              + "%.1f tokens left (one Lua script per decision)", admitted, left),
          LessonOutput.fields("lesson", "naive", "situation", "shared store", "limiter", "demo server token-bucket Lua script",
              "accepted", admitted, "of", 20, "stored_tokens", left, "reference", null));
    }
  }

  /**
   * A demo server deciding in {@code redis}: token bucket, 10 per 10 s. The Redis timeout is
   * generous here: a fresh JVM on a busy machine can take longer than the default 20 ms to open
   * its first connection, and a store that fails open would blur a lesson about sharing (the
   * {@code redis-down} lesson is the one about timeouts).
   */
  private static dev.polite.demo.DemoServerConfig.Builder sharedBucket(LocalRedis redis) {
    return DemoServer.builder().algorithm(Algorithm.TOKEN_BUCKET).limit(LIMIT).window(Duration.ofSeconds(10))
        .store(redis.uri()).redisTimeout(Duration.ofMillis(500));
  }

  /**
   * One request under a key of its own, so the server's Redis connection and script are ready
   * before the lesson's requests, which then measure the sharing and nothing of a cold start.
   */
  private static void warm(OkHttpClient http, DemoServer server) throws IOException {
    Request request = new Request.Builder().url(server.url() + "/api/warm-up").header("X-Api-Key", "warm-up").build();
    try (Response response = http.newCall(request).execute()) {
      if (response.code() != 200) {
        throw new IllegalStateException("the demo server's warm-up request was answered " + response.code());
      }
    }
  }

  /** The reference's line 3: asha 5/5, ben 5/5, chen 0/5. */
  private static Map<String, Integer> referenceProxy() {
    Map<String, Integer> reference = new LinkedHashMap<>();
    reference.put("asha", 5);
    reference.put("ben", 5);
    reference.put("chen", 0);
    return reference;
  }

  /** Our line, then the reference's figure in a column of its own. */
  private static String beside(String ours, String reference) {
    return String.format(Locale.ROOT, "%-87s reference: %s", ours, reference);
  }

  private static String perUser(Map<String, Integer> accepted) {
    List<String> parts = new ArrayList<>();
    accepted.forEach((user, count) -> parts.add(user + " " + count + "/5"));
    return String.join(", ", parts);
  }

  /** The status of one GET, the response closed; {@code forwardedFor} as the proxy would send it. */
  private static int get(OkHttpClient http, String url, @org.jspecify.annotations.Nullable String forwardedFor)
      throws IOException {
    Request.Builder request = new Request.Builder().url(url);
    if (forwardedFor != null) {
      request.header("X-Forwarded-For", forwardedFor);
    }
    try (Response response = http.newCall(request.build()).execute()) {
      return response.code();
    }
  }
}
