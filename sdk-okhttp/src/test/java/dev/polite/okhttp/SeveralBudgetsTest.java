package dev.polite.okhttp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.polite.RateLimitedException;
import dev.polite.testing.FakeClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import mockwebserver3.Dispatcher;
import mockwebserver3.MockResponse;
import mockwebserver3.RecordedRequest;
import okhttp3.OkHttpClient;
import okhttp3.Response;
import org.junit.jupiter.api.Test;

/**
 * One host with two budgets, as api.github.com keeps them: {@code /search} counts against
 * {@code search} and the rest against {@code core}, each answer naming its budget in
 * {@code x-ratelimit-resource} (or, in IETF headers, its policy's name). What {@code /search}
 * teaches must never pace or pause {@code /repos}.
 */
class SeveralBudgetsTest extends HarnessTest {
  private static final String CORE = "/repos/octo/hello/issues";
  private static final String SEARCH = "/search/issues?q=bug";

  /** How the server tells its budgets apart in its answers. */
  enum Style {
    /** GitHub's {@code x-ratelimit-*}, naming the budget in {@code x-ratelimit-resource}; refusals are 403. */
    GITHUB,
    /** IETF's {@code RateLimit} and {@code RateLimit-Policy}, the policy named by its budget. */
    IETF,
    /** X's {@code x-rate-limit-*}, with each budget's own limit and no name; refusals are 429. */
    UNNAMED
  }

  /** Fixed windows on the fake clock, written apart from the SDK, in GitHub's, IETF's or X's words. */
  static final class TwoBudgets extends Dispatcher {
    private final FakeClock clock;
    private final Style style;
    final Window core;
    final Window search;
    /** The paths that spend {@link #search}; the rest spend {@link #core}. */
    volatile String searchPrefix = "/search";

    TwoBudgets(FakeClock clock, long coreLimit, Duration coreWindow, long searchLimit,
        Duration searchWindow, boolean ietf) {
      this(clock, coreLimit, coreWindow, searchLimit, searchWindow, ietf ? Style.IETF : Style.GITHUB);
    }

    TwoBudgets(FakeClock clock, long coreLimit, Duration coreWindow, long searchLimit,
        Duration searchWindow, Style style) {
      this.clock = clock;
      this.style = style;
      this.core = new Window("core", coreLimit, coreWindow.toNanos());
      this.search = new Window("search", searchLimit, searchWindow.toNanos());
    }

    @Override
    public synchronized MockResponse dispatch(RecordedRequest request) {
      Window w = request.getUrl().encodedPath().startsWith(searchPrefix) ? search : core;
      long now = clock.read();
      long start = now - Math.floorMod(now - FakeClock.START, w.nanos);
      if (start != w.start) {
        w.start = start;
        w.used = 0;
      }
      boolean ok = w.used < w.limit;
      if (ok) {
        w.used++;
        w.admitted.incrementAndGet();
      } else {
        w.refused.incrementAndGet();
      }
      long resetIn = (long) Math.ceil((start + w.nanos - now) / 1e9);
      MockResponse.Builder b = new MockResponse.Builder().code(ok ? 200 : style == Style.GITHUB ? 403 : 429)
          .body(ok ? "ok" : "rate limit exceeded");
      long remaining = w.limit - w.used;
      long resetEpoch = (clock.millis() + (start + w.nanos - now) / 1_000_000 + 999) / 1000;
      if (style == Style.IETF) {
        long window = w.nanos / 1_000_000_000L;
        b.addHeader("RateLimit-Policy", "\"" + w.name + "\";q=" + w.limit + ";w=" + window);
        b.addHeader("RateLimit", "\"" + w.name + "\";r=" + remaining + ";t=" + resetIn);
        if (!ok) {
          b.addHeader("Retry-After", resetIn);
        }
      } else if (style == Style.UNNAMED) {
        b.addHeader("x-rate-limit-limit", w.limit)
            .addHeader("x-rate-limit-remaining", remaining)
            .addHeader("x-rate-limit-reset", resetEpoch);
      } else {
        b.addHeader("x-ratelimit-limit", w.limit)
            .addHeader("x-ratelimit-remaining", remaining)
            .addHeader("x-ratelimit-used", w.used)
            .addHeader("x-ratelimit-reset", resetEpoch)
            .addHeader("x-ratelimit-resource", w.name);
      }
      return b.build();
    }
  }

  static final class Window {
    final String name;
    final long limit;
    final long nanos;
    long start = Long.MIN_VALUE;
    long used;
    final AtomicInteger admitted = new AtomicInteger();
    final AtomicInteger refused = new AtomicInteger();

    Window(String name, long limit, long nanos) {
      this.name = name;
      this.limit = limit;
      this.nanos = nanos;
    }
  }

  private PoliteInterceptor polite(Duration maxWait) {
    return h.polite().maxWait(maxWait).throwWhenRateLimited(true).build();
  }

  @Test
  void aSpentSearchBudgetNeitherPausesNorPacesCore() throws Exception {
    TwoBudgets server = new TwoBudgets(h.clock, 5000, Duration.ofHours(1), 3, Duration.ofMinutes(1), false);
    h.server.setDispatcher(server);
    PoliteInterceptor polite = polite(Duration.ofSeconds(5));
    OkHttpClient client = h.client(polite);

    assertThat(code(client, CORE)).isEqualTo(200);
    for (int i = 0; i < 3; i++) {
      assertThat(code(client, SEARCH)).isEqualTo(200);
    }
    // Search is spent for the rest of its minute: its next call fails at once, core's go on.
    assertThatThrownBy(() -> code(client, SEARCH)).isInstanceOf(RateLimitedException.class);
    double before = h.clock.elapsedSeconds();
    for (int i = 0; i < 20; i++) {
      assertThat(code(client, CORE + "/" + i)).isEqualTo(200);
    }

    assertThat(h.clock.elapsedSeconds() - before).as("core waited for search").isLessThan(0.01);
    assertThat(server.core.refused.get()).isZero();
    assertThat(server.search.refused.get()).isLessThanOrEqualTo(1);
    // The key's own budget is the first it heard of (core); search is a budget of its own.
    String key = "http://" + h.server.getHostName() + ":" + h.server.getPort();
    assertThat(polite.snapshot(key + " [search]")).hasValueSatisfying(s -> {
      assertThat(s.pace()).isCloseTo(3 / 60.0, org.assertj.core.data.Percentage.withPercentage(3)); // the reset is in whole seconds
      assertThat(s.pausedFor()).isPositive();
    });
    assertThat(polite.snapshot(key)).hasValueSatisfying(s -> {
      assertThat(s.pace()).isCloseTo(5000 / 3600.0, org.assertj.core.data.Percentage.withPercentage(3));
      assertThat(s.pausedFor()).isZero();
    });
  }

  @Test
  void aSpentBudgetHoldsBackNoRouteThatMaySpendAnother() throws Exception {
    // Search is the key's own budget (heard first) and spent; core's routes, never seen, go
    // through the key's new routes one at a time and are remembered as core's.
    TwoBudgets server = new TwoBudgets(h.clock, 5000, Duration.ofHours(1), 2, Duration.ofMinutes(1), false);
    h.server.setDispatcher(server);
    OkHttpClient client = h.client(polite(Duration.ofSeconds(5)));

    assertThat(code(client, SEARCH)).isEqualTo(200);
    assertThat(code(client, "/users/u")).isEqualTo(200); // a second budget: the key splits
    assertThat(code(client, SEARCH)).isEqualTo(200); // search's last: spent
    for (int i = 0; i < 10; i++) {
      assertThat(code(client, "/repos/r" + i)).isEqualTo(200);
    }
    assertThatThrownBy(() -> code(client, SEARCH)).isInstanceOf(RateLimitedException.class);

    assertThat(server.core.refused.get()).isZero();
    assertThat(server.search.refused.get()).isZero();
    assertThat(h.clock.elapsedSeconds()).isLessThan(0.01);
  }

  @Test
  void untilASecondBudgetIsHeardOfTheKeyIsOneBudget() throws Exception {
    // Nothing yet says the host keeps another budget: a spent quota pauses every route, as a
    // key always did (a route never heard of most likely spends the one budget known).
    TwoBudgets server = new TwoBudgets(h.clock, 5000, Duration.ofHours(1), 1, Duration.ofMinutes(1), false);
    h.server.setDispatcher(server);
    OkHttpClient client = h.client(polite(Duration.ofSeconds(5)));

    assertThat(code(client, SEARCH)).isEqualTo(200);
    assertThatThrownBy(() -> code(client, CORE)).isInstanceOf(RateLimitedException.class);
    assertThat(h.server.getRequestCount()).isEqualTo(1);
  }

  @Test
  void coreFirstThenSearch() throws Exception {
    // The key's own budget is the first it hears of: here core, and search splits off.
    TwoBudgets server = new TwoBudgets(h.clock, 5000, Duration.ofHours(1), 2, Duration.ofMinutes(1), false);
    h.server.setDispatcher(server);
    OkHttpClient client = h.client(polite(Duration.ofSeconds(5)));

    assertThat(code(client, CORE)).isEqualTo(200);
    assertThat(code(client, SEARCH)).isEqualTo(200);
    assertThat(code(client, SEARCH)).isEqualTo(200);
    assertThatThrownBy(() -> code(client, "/search/code?q=x")).isInstanceOf(RateLimitedException.class);
    for (int i = 0; i < 10; i++) {
      assertThat(code(client, "/users/u" + i)).isEqualTo(200);
    }

    // The third search call, on a route not yet seen, went by its family: it was never sent.
    assertThat(server.search.refused.get()).isZero();
    assertThat(server.core.refused.get()).isZero();
    assertThat(h.clock.elapsedSeconds()).isLessThan(0.01);
  }

  @Test
  void ietfPolicyNamesAreBudgetsToo() throws Exception {
    TwoBudgets server = new TwoBudgets(h.clock, 100, Duration.ofSeconds(10), 2, Duration.ofSeconds(10), true);
    h.server.setDispatcher(server);
    OkHttpClient client = h.client(polite(Duration.ofSeconds(30)));

    for (int i = 0; i < 4; i++) {
      assertThat(code(client, SEARCH)).isEqualTo(200); // two now, two after the window's reset
      assertThat(code(client, CORE)).isEqualTo(200);
    }

    assertThat(server.search.refused.get()).isLessThanOrEqualTo(1);
    assertThat(server.core.refused.get()).isZero();
    assertThat(server.core.admitted.get()).isEqualTo(4);
  }

  @Test
  void manyThreadsOnTwoBudgetsFailNothingAndCoreNeverWaitsForSearch() throws Exception {
    TwoBudgets server = new TwoBudgets(h.clock, 5000, Duration.ofHours(1), 6, Duration.ofSeconds(10), false);
    h.server.setDispatcher(server);
    OkHttpClient client = h.client(polite(Duration.ofSeconds(60)));
    List<Double> coreDone = new CopyOnWriteArrayList<>();

    ExecutorService pool = Executors.newFixedThreadPool(8);
    try {
      List<Future<Integer>> results = new ArrayList<>();
      for (int i = 0; i < 52; i++) {
        String path = i % 4 == 3 ? SEARCH + i : CORE + "/" + i;
        results.add(pool.submit(() -> {
          int code = code(client, path);
          if (!path.startsWith("/search")) {
            coreDone.add(h.clock.elapsedSeconds());
          }
          return code;
        }));
      }
      for (Future<Integer> r : results) {
        assertThat(r.get(30, TimeUnit.SECONDS)).isEqualTo(200);
      }
    } finally {
      pool.shutdownNow();
    }

    assertThat(server.core.admitted.get()).isEqualTo(39);
    assertThat(server.search.admitted.get()).isEqualTo(13);
    // 13 search calls at 6 a window need three windows; core's calls need none, but on one fake
    // clock every sleeping thread moves time for all, so only the refusals are counted here: a
    // core call paced by search's budget would have been refused or waited into its windows.
    assertThat(server.core.refused.get()).isZero();
    assertThat(server.search.refused.get()).isLessThanOrEqualTo(3);
  }

  @Test
  void asynchronousCallsSplitTheBudgetsAlike() throws Exception {
    TwoBudgets server = new TwoBudgets(h.clock, 5000, Duration.ofHours(1), 2, Duration.ofMinutes(1), false);
    asynchronousCallsSplitTheBudgets(h, server, polite(Duration.ofSeconds(5)), CORE, SEARCH);
  }

  /**
   * Enqueued calls on {@code server}'s two budgets: search, core and search one at a time (the
   * search budget of 2 spent), then three of each at once: the search calls fail at once, the core
   * calls go, and nothing waited for search.
   */
  static void asynchronousCallsSplitTheBudgets(Harness h, TwoBudgets server, PoliteInterceptor polite,
      String core, String search) throws Exception {
    h.server.setDispatcher(server);
    FakeScheduler scheduler = new FakeScheduler(h.clock);
    OkHttpClient client = h.client(polite);
    PoliteCallFactory calls = PoliteCallFactory.builder(client).scheduler(scheduler).build();
    Outcomes outcomes = new Outcomes();

    for (String path : List.of(search, core, search)) {
      int before = outcomes.size();
      calls.newCall(h.get(path)).enqueue(outcomes);
      scheduler.runUntil(() -> outcomes.size() > before && client.dispatcher().runningCallsCount() == 0,
          client.dispatcher());
    }
    for (int i = 0; i < 6; i++) {
      calls.newCall(h.get(i % 2 == 0 ? search : core + i)).enqueue(outcomes);
    }
    scheduler.runUntil(() -> outcomes.size() == 9 && client.dispatcher().runningCallsCount() == 0,
        client.dispatcher());

    assertThat(outcomes.ended.subList(0, 3)).containsExactly(200, 200, 200);
    assertThat(outcomes.ended.subList(3, 9)).containsExactlyInAnyOrder(200, 200, 200,
        "RateLimitedException", "RateLimitedException", "RateLimitedException");
    assertThat(server.search.refused.get()).isZero();
    assertThat(h.clock.elapsedSeconds()).isLessThan(0.01);
  }

  private int code(OkHttpClient client, String path) throws java.io.IOException {
    try (Response r = client.newCall(h.get(path)).execute()) {
      return r.code();
    }
  }
}
