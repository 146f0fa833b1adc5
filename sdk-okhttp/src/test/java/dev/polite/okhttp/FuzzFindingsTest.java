package dev.polite.okhttp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.polite.RateLimitedException;
import dev.polite.Sleeper;
import dev.polite.Ticker;
import dev.polite.WallClock;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import okhttp3.Interceptor;
import okhttp3.MediaType;
import okhttp3.OkHttpClient;
import okhttp3.Protocol;
import okhttp3.Request;
import okhttp3.Response;
import okhttp3.ResponseBody;
import org.assertj.core.api.SoftAssertions;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/**
 * What {@link InterceptorFuzzTest} found outside the header parser, each as the smallest test that
 * shows it; both failed before their fixes (KeyStates sorts a copy of each key's last use; the
 * interceptor closes an answer it could not learn from and gives its place back).
 */
class FuzzFindingsTest {

  /**
   * Finding 1. Past {@code maxKeys}, {@code KeyStates.evictIdle} sorts the idle keys by
   * {@code KeyState::lastUsed}, a field every call's step rewrites, while calls to those keys go
   * on. With 32 or more idle keys TimSort merges, sees two orders of one list, and throws
   * {@code IllegalArgumentException: Comparison method violates its general contract!} out of
   * {@code KeyStates.get}: from {@code PoliteInterceptor.ownerOf} (learning an answer that names a
   * budget) or from a call's first lookup. Not an {@link IOException}, so it crashes an OkHttp
   * async callback. The fuzz met it at 4 and 64 callers with maxKeys 48 and 256.
   *
   * <p>Here: 64 keys at the bound, three threads calling them on a clock that moves at every
   * reading, and one thread calling new keys, so that every new key sorts the 64. It throws within
   * a few thousand new keys; the test gives it 200,000.
   */
  @Test
  void evictionSortsKeysWhoseLastUseChangesUnderIt() throws Exception {
    AtomicLong ticks = new AtomicLong(1_000_000_000_000L);
    Ticker ticker = ticks::incrementAndGet; // every reading later than the last: lastUsed moves
    Sleeper sleeper = (deadline, stop) -> ticks.accumulateAndGet(deadline, Math::max);
    PoliteInterceptor polite = PoliteInterceptor.builder().clock(ticker, sleeper).wallClock(() -> 0L)
        .maxKeys(64).cautiousStart(false).build();
    OkHttpClient client = new OkHttpClient.Builder().addInterceptor(polite).addInterceptor(ok()).build();
    for (int i = 0; i < 64; i++) {
      call(client, "https://old" + i + ".test/");
    }
    ConcurrentLinkedQueue<Throwable> escaped = new ConcurrentLinkedQueue<>();
    AtomicBoolean stop = new AtomicBoolean();
    ExecutorService pool = Executors.newFixedThreadPool(4);
    List<Future<?>> running = new ArrayList<>();
    for (int t = 0; t < 3; t++) {
      int seed = t;
      running.add(pool.submit(() -> {
        Random r = new Random(seed);
        while (!stop.get()) {
          escaped.addAll(call(client, "https://old" + r.nextInt(64) + ".test/"));
        }
      }));
    }
    running.add(pool.submit(() -> {
      for (int i = 0; i < 200_000 && escaped.isEmpty(); i++) {
        escaped.addAll(call(client, "https://new" + i + ".test/"));
      }
      stop.set(true);
    }));
    try {
      for (Future<?> f : running) {
        f.get(120, TimeUnit.SECONDS);
      }
    } finally {
      stop.set(true);
      pool.shutdownNow();
    }
    assertThat(escaped).as("exceptions other than IOException that left the interceptor; the first: %s",
        escaped.isEmpty() ? "none" : stackOf(escaped.peek())).isEmpty();
  }

  /**
   * Finding 1, what follows. When anything throws between {@code chain.proceed} and the key's
   * learning the answer (in the fuzz, finding 1's sort, reached through
   * {@code PoliteInterceptor.ownerOf}), the answer is neither returned nor closed, and the
   * attempt's place on the wire is never given back: a key starting cautiously (one call in flight
   * until its first answer) keeps its gate shut for good, and every later call to it waits out its
   * max wait and fails with {@link RateLimitedException}. In the fuzz: a key reading
   * {@code onTheWire=1} with no call running, an open answer, and the exception.
   *
   * <p>Here the throw is the wall clock's, read just after {@code proceed} to measure the answer's
   * dates: deterministic, and the same place in the request path. The interceptor's promise is
   * that only {@link IOException}s leave it and that every answer it does not return is closed; a
   * {@code try}/{@code finally} around learning would also hand the permit back.
   */
  @Test
  void aThrowWhileLearningLeavesTheAnswerOpenAndTheGateShut() throws Exception {
    AtomicLong now = new AtomicLong(1_000_000_000_000L);
    // Each reading 50 ms on: a call waiting at a shut gate for a signal sees its max wait pass.
    Ticker ticker = () -> now.addAndGet(50_000_000L);
    Sleeper sleeper = (deadline, stop) -> now.accumulateAndGet(deadline, Math::max);
    AtomicBoolean clockBreaks = new AtomicBoolean(true);
    WallClock wall = () -> {
      if (clockBreaks.getAndSet(false)) {
        throw new IllegalStateException("one bad reading");
      }
      return 1_767_225_600_000L;
    };
    List<TrackedBody> bodies = new ArrayList<>();
    PoliteInterceptor polite = PoliteInterceptor.builder().clock(ticker, sleeper).wallClock(wall)
        .maxWait(Duration.ofSeconds(2)).build();
    OkHttpClient client = new OkHttpClient.Builder().addInterceptor(polite).addInterceptor(chain -> {
      TrackedBody body = new TrackedBody();
      bodies.add(body);
      return new Response.Builder().request(chain.request()).protocol(Protocol.HTTP_1_1).code(200)
          .message("OK").body(body).build();
    }).build();
    Request request = new Request.Builder().url("https://api.test/").build();

    Throwable first = null;
    try {
      client.newCall(request).execute().close();
    } catch (Throwable t) {
      first = t;
    }
    SoftAssertions soft = new SoftAssertions();
    soft.assertThat(first).as("what the first call threw").isInstanceOf(IOException.class);
    soft.assertThat(bodies.get(0).closed).as("the first answer, not returned, is closed").isTrue();
    soft.assertThat(polite.snapshot("https://api.test:443").orElseThrow().inFlight())
        .as("calls in flight after the first call ended").isZero();
    int second;
    try (Response r = client.newCall(request).execute()) {
      second = r.code();
    } catch (IOException e) {
      second = -1; // RateLimitedException: it waited its max wait at the shut gate
    }
    soft.assertThat(second).as("the second call's answer (-1: it failed)").isEqualTo(200);
    soft.assertAll();
  }

  private static String stackOf(Throwable t) {
    java.io.StringWriter w = new java.io.StringWriter();
    t.printStackTrace(new java.io.PrintWriter(w));
    return w.toString().lines().limit(12).collect(java.util.stream.Collectors.joining("\n"));
  }

  private static Interceptor ok() {
    return chain -> new Response.Builder().request(chain.request()).protocol(Protocol.HTTP_1_1).code(200)
        .message("OK").body(ResponseBody.create("ok", MediaType.get("text/plain"))).build();
  }

  /** Runs one call; what it threw that is not an IOException, if anything. */
  private static List<Throwable> call(OkHttpClient client, String url) {
    try (Response r = client.newCall(new Request.Builder().url(url).build()).execute()) {
      return List.of();
    } catch (IOException expected) {
      return List.of();
    } catch (Throwable t) {
      return List.of(t);
    }
  }

  /** An empty body that remembers being closed. */
  private static final class TrackedBody extends ResponseBody {
    volatile boolean closed;

    @Override
    public @Nullable MediaType contentType() {
      return null;
    }

    @Override
    public long contentLength() {
      return 0;
    }

    @Override
    public okio.BufferedSource source() {
      return new okio.Buffer();
    }

    @Override
    public void close() {
      closed = true;
    }
  }
}
