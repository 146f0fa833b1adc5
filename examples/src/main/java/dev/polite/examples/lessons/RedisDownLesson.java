package dev.polite.examples.lessons;

import dev.polite.demo.Algorithm;
import dev.polite.demo.DemoServer;
import dev.polite.demo.DemoServerConfig;
import dev.polite.demo.WhenDown;
import dev.polite.demo.internal.Decision;
import dev.polite.demo.internal.Policy;
import dev.polite.demo.internal.RedisStore;
import dev.polite.examples.LocalRedis;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import redis.clients.jedis.JedisPooled;
import redis.clients.jedis.exceptions.JedisException;

/**
 * {@code lessons redis-down}: the limiter's store stops answering. First, how long one decision
 * takes to fail open: a fail-open limiter on a Jedis client built with the library's defaults
 * ({@code new JedisPooled(host, port)}), against the demo server's {@link RedisStore} with its
 * 20 ms timeouts and no retries, for a Redis that is not running (the port refuses) and one that
 * hangs (a real redis-server frozen with SIGSTOP: connections open, nothing answers). Then twelve
 * quick requests from one key to a demo server whose Redis is not running, in each
 * {@link WhenDown} mode (limit 10 per 5 s shared by 2 nodes, so a local share of 5, as the
 * reference's run), and how often the outage was logged.
 *
 * <p>Usage: {@code java -jar polite-examples.jar lessons redis-down [--json]}
 */
@Command(name = "redis-down",
    description = {"The limiter's Redis down: the time one decision takes to fail open with Jedis's default client and "
        + "with the demo server's store (20 ms timeouts, no retries), Redis not running and Redis frozen; then 12 quick "
        + "requests from one key with --when-down open, closed and local, and how often the outage was logged. "
        + "Starts redis-server from the PATH (to freeze it).",
        "With --json: one object per measured thing, the reference's figure in 'reference'."},
    usageHelpAutoWidth = true)
final class RedisDownLesson implements Callable<Integer> {
  private static final Duration OUR_TIMEOUT = Duration.ofMillis(20);
  /** The reference's "12 quick requests" line, per mode. */
  private static final Map<WhenDown, Integer> REFERENCE_ALLOWED = Map.of(
      WhenDown.OPEN, 12, WhenDown.CLOSED, 0, WhenDown.LOCAL, 5);
  /** What the outage's one log line says (the demo server's RedisStore). */
  private static final String OUTAGE_LINE = "unavailable, failing";

  @Mixin
  LessonOptions options;

  @Override
  public Integer call() throws Exception {
    LessonOutput out = options.output();
    String script = script();
    int deadPort = LocalRedis.freePort();
    // Throwaway first calls, so neither client's measured decision pays for loading classes.
    failOpenWithJedisDefaults(deadPort, script);
    failOpenWithOurStore(deadPort);

    out.text("redis-down: one decision, failing open (fresh client each; the reference: redis-py 8.1 defaults, "
        + "then retries off)");
    measure(out, "not running (the port refuses)", "Jedis defaults", failOpenWithJedisDefaults(deadPort, script), 4.55);
    measure(out, "not running (the port refuses)", "ours: 20 ms, no retries", failOpenWithOurStore(deadPort), 0.00);
    try (LocalRedis redis = LocalRedis.start()) {
      redis.freeze();
      measure(out, "frozen (SIGSTOP: connects, never answers)", "Jedis defaults",
          failOpenWithJedisDefaults(redis.port(), script), null);
      measure(out, "frozen (SIGSTOP: connects, never answers)", "ours: 20 ms, no retries",
          failOpenWithOurStore(redis.port()), null);
    }

    out.text("Redis not running, 12 quick requests from one key (limit 10 per 5 s over 2 nodes: a local share of 5):");
    OkHttpClient http = new OkHttpClient.Builder().retryOnConnectionFailure(false).build();
    try {
      for (WhenDown mode : List.of(WhenDown.OPEN, WhenDown.CLOSED, WhenDown.LOCAL)) {
        twelveQuickRequests(out, http, deadPort, mode);
      }
    } finally {
      http.dispatcher().executorService().shutdown();
      http.connectionPool().evictAll();
    }
    return 0;
  }

  private static void measure(LessonOutput out, String redis, String client, Duration took,
      @Nullable Double referenceSeconds) {
    double seconds = took.toNanos() / 1e9;
    String line = String.format(Locale.ROOT, "  Redis %-42s %-24s allowed=true after %6.3f s", redis + ",", client + ":", seconds);
    if (referenceSeconds != null) {
      line = String.format(Locale.ROOT, "%-96s reference: %.2f s", line, referenceSeconds);
    } else {
      line = String.format(Locale.ROOT, "%-96s reference: -", line);
    }
    out.row(line, LessonOutput.fields("lesson", "redis-down", "measure", "fail open", "redis", redis,
        "client", client, "allowed", true, "seconds", Math.round(seconds * 1000) / 1000.0,
        "reference", referenceSeconds));
  }

  /**
   * One decision of a fail-open limiter whose client is Jedis with the library's defaults (2 s
   * connect and read timeouts, a pool that waits for a connection without bound): the time from
   * asking to allowing.
   */
  private static Duration failOpenWithJedisDefaults(int port, String script) {
    long start = System.nanoTime();
    try (JedisPooled jedis = new JedisPooled("127.0.0.1", port)) {
      jedis.eval(script, List.of("rl:{ip:203.0.113.7}:tb"), List.of("10", "5000000", "10", "1"));
      throw new IllegalStateException("Redis answered on port " + port + ": this lesson needs it down");
    } catch (JedisException down) {
      return Duration.ofNanos(System.nanoTime() - start); // fail open: allowed, now
    }
  }

  /** One decision of the demo server's Redis store, failing open: the time it took. */
  private static Duration failOpenWithOurStore(int port) {
    DemoServerConfig config = DemoServer.builder().algorithm(Algorithm.TOKEN_BUCKET).limit(10)
        .window(Duration.ofSeconds(5)).store("redis://127.0.0.1:" + port).whenDown(WhenDown.OPEN)
        .redisTimeout(OUR_TIMEOUT).build();
    PrintStream err = System.err;
    System.setErr(new PrintStream(OutputStream.nullOutputStream(), true, StandardCharsets.UTF_8)); // its one WARN: shown below
    try (RedisStore store = RedisStore.open(config, Policy.of(config), System::nanoTime)) {
      long start = System.nanoTime();
      Decision decision = store.acquire("ip:203.0.113.7", 1);
      Duration took = Duration.ofNanos(System.nanoTime() - start);
      if (!decision.allowed()) {
        throw new IllegalStateException("the store failing open refused: " + decision);
      }
      return took;
    } finally {
      System.setErr(err);
    }
  }

  /**
   * Twelve GETs from one client, one after another, to a demo server whose Redis is not running;
   * the server's stderr is copied while they run, to count its outage log lines.
   */
  private static void twelveQuickRequests(LessonOutput out, OkHttpClient http, int deadPort, WhenDown mode)
      throws IOException {
    ByteArrayOutputStream logged = new ByteArrayOutputStream();
    PrintStream err = System.err;
    System.setErr(new PrintStream(new Tee(err, logged), true, StandardCharsets.UTF_8));
    int allowed = 0;
    try (DemoServer server = DemoServer.builder().algorithm(Algorithm.TOKEN_BUCKET).limit(10)
        .window(Duration.ofSeconds(5)).store("redis://127.0.0.1:" + deadPort).whenDown(mode).nodes(2)
        .redisTimeout(OUR_TIMEOUT).start()) {
      for (int i = 0; i < 12; i++) {
        try (Response response = http.newCall(new Request.Builder().url(server.url() + "/api/items").build()).execute()) {
          allowed += response.code() == 200 ? 1 : 0;
        }
      }
    } finally {
      System.setErr(err);
    }
    long outageLines = logged.toString(StandardCharsets.UTF_8).lines().filter(line -> line.contains(OUTAGE_LINE)).count();
    int reference = REFERENCE_ALLOWED.get(mode);
    out.row(String.format(Locale.ROOT, "  when_down=%-7s %2d allowed   (outage logged %d time%s)%37s reference: %2d allowed",
            mode.cliName(), allowed, outageLines, outageLines == 1 ? "" : "s", "", reference),
        LessonOutput.fields("lesson", "redis-down", "measure", "12 quick requests", "when_down", mode.cliName(),
            "allowed", allowed, "of", 12, "outage_logged", outageLines, "reference", reference));
  }

  /** The demo server's token-bucket script, as its Redis store sends it. */
  private static String script() throws IOException {
    return resource("common.lua") + "\n" + resource("token-bucket.lua");
  }

  private static String resource(String name) throws IOException {
    try (InputStream in = RedisStore.class.getResourceAsStream("redis/" + name)) {
      if (in == null) {
        throw new IllegalStateException("missing the demo server's script redis/" + name);
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  /** Writes to the real stderr and keeps a copy, so the reader still sees the server's log line. */
  private static final class Tee extends OutputStream {
    private final OutputStream first;
    private final OutputStream second;

    Tee(OutputStream first, OutputStream second) {
      this.first = first;
      this.second = second;
    }

    @Override
    public void write(int b) throws IOException {
      first.write(b);
      second.write(b);
    }

    @Override
    public void write(byte[] bytes, int offset, int length) throws IOException {
      first.write(bytes, offset, length);
      second.write(bytes, offset, length);
    }

    @Override
    public void flush() throws IOException {
      first.flush();
      second.flush();
    }
  }
}
