package dev.polite.examples.zoo;

import dev.polite.demo.Algorithm;
import dev.polite.demo.DemoServer;
import dev.polite.demo.DemoServerConfig;
import dev.polite.demo.HeaderStyle;
import dev.polite.examples.HtmlPage;
import java.io.InterruptedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.OptionalLong;
import okhttp3.HttpUrl;

/**
 * A demo server in the zoo: one algorithm, one header dialect, {@code limit} per {@code window}
 * with a burst (the bucket family's capacity; the queue's slots for the leaky queue), optionally
 * with its clock ahead of ours, and optionally one of the shapes of a limit ({@link Shape}: a cap
 * on calls in flight, GitHub's 403s, a wrong reset now and then, a quota the cell spends, several
 * budgets on one host). Started in process on port 0; its rejections are its own count (the cap's
 * refusals included).
 *
 * <p>Usage: {@code new DemoZooServer(Algorithm.TOKEN_BUCKET, HeaderStyle.NONE, 20, Duration.ofSeconds(1), 20, Duration.ZERO)}
 *
 * @param name the row's name, such as {@code token-bucket/ietf} or {@code quota/spent}
 * @param algorithm the limiter
 * @param headers the dialect of its answers
 * @param limit requests per window
 * @param window the window
 * @param capacity the bucket's capacity, or the leaky queue's slots (ignored by the window algorithms, which admit {@code limit} per window)
 * @param clockSkew how far the server's clock runs ahead of ours (zero for none)
 * @param shape what the row adds to its algorithm and dialect ({@link Shape#PLAIN} for nothing)
 */
record DemoZooServer(String name, Algorithm algorithm, HeaderStyle headers, long limit, Duration window,
    long capacity, Duration clockSkew, Shape shape) implements ZooServer {

  /**
   * How close to the end of its window a spent quota's cell may start: no closer than the longest
   * a call may wait (polite's default max wait, 60 s) and the longest a cell can run (its cut),
   * and a second. A reset nearer than the max wait is one a good client waits for, rightly: the
   * quota is then not spent for longer than a call may wait, which is not this row's shape. And
   * the quota must never refill during the cell.
   */
  static final Duration QUOTA_GUARD = Duration.ofSeconds(
      60 + (long) Math.max(Zoo.CUT_MIN_SECONDS, Zoo.CUT_FLOORS * Verdict.SPENT_QUOTA_SECONDS) + 1);

  /** A plain row, named {@code algorithm/headers}. */
  public DemoZooServer(Algorithm algorithm, HeaderStyle headers, long limit, Duration window, long capacity,
      Duration clockSkew) {
    this(algorithm.cliName() + "/" + headers.cliName(), algorithm, headers, limit, window, capacity, clockSkew,
        Shape.PLAIN);
  }

  /**
   * The shapes of a limit a row may add, each a demo server flag: a cap on calls in flight per key
   * with each admitted call taking a while ({@code --concurrency}, {@code --latency}), refusals
   * answered 403 as GitHub does ({@code --reject-status 403}), a reset 200 days out on every Nth
   * answer ({@code --wrong-reset-every}), a quota the cell spends, judged by
   * {@link Verdict#spentQuota}, and routes with budgets of their own ({@code --budget}), which the
   * cell's calls spend in a fixed mix ({@link Split}).
   *
   * @param concurrency calls in flight per key, 0 for no cap
   * @param latency each admitted call's simulated work
   * @param rejectStatus the status of every refusal, 429 or 403
   * @param wrongResetEvery every Nth answer states a reset 200 days out; 0 for never
   * @param spentQuota whether the window's limit is a quota the cell spends: its limit succeed,
   *     the rest must fail fast
   * @param split the budgets of the host's routes and the cell's mix of calls over them
   *     ({@link Split#NONE} for one budget, every call to {@link #PATH})
   */
  public record Shape(int concurrency, Duration latency, int rejectStatus, int wrongResetEvery, boolean spentQuota,
      Split split) {
    /** Nothing added: the algorithm in its dialect, 429 refusals. */
    public static final Shape PLAIN = new Shape(0, Duration.ZERO, 429, 0, false);

    /** A shape with one budget, every call to {@link #PATH}. */
    public Shape(int concurrency, Duration latency, int rejectStatus, int wrongResetEvery, boolean spentQuota) {
      this(concurrency, latency, rejectStatus, wrongResetEvery, spentQuota, Split.NONE);
    }

    /** A cap of {@code inFlight} calls in flight per key, each admitted call taking {@code latency}. */
    public static Shape cap(int inFlight, Duration latency, int rejectStatus) {
      return new Shape(inFlight, latency, rejectStatus, 0, false);
    }

    /** Every {@code every}th answer states a reset 200 days out, everything else true. */
    public static Shape wrongReset(int every) {
      return new Shape(0, Duration.ZERO, 429, every, false);
    }

    /** A quota the cell spends, refused with {@code rejectStatus}. */
    public static Shape spent(int rejectStatus) {
      return new Shape(0, Duration.ZERO, rejectStatus, 0, true);
    }

    /** Routes with budgets of their own, spent by the cell's calls in {@code split}'s mix. */
    public static Shape budgets(Split split) {
      return new Shape(0, Duration.ZERO, 429, 0, false, split);
    }

    /** Whether it adds nothing. */
    public boolean plain() {
      return equals(PLAIN);
    }
  }

  /** The path every call of a row with one budget goes to, and a row of several budgets sends its main share to. */
  public static final String PATH = "/api/items";

  /**
   * A route with a budget of its own on the host ({@code --budget PREFIX=NAME:LIMIT/WINDOW}): the
   * cell sends {@code calls} of every cycle of its {@link Split} to {@code prefix} itself.
   *
   * @param prefix the route, and the path its calls go to
   * @param name the budget's name in the answers
   * @param limit its requests per window (burst = limit)
   * @param window its window
   * @param calls its calls per cycle of the mix
   */
  public record Route(String prefix, String name, long limit, Duration window, int calls) {
    public Route {
      if (calls < 1) {
        throw new IllegalArgumentException("calls: must be at least 1, was " + calls);
      }
    }

    /** Its documented rate, requests per second. */
    double rate() {
      return limit / (window.toNanos() / 1e9);
    }
  }

  /**
   * The host's budgets and the cell's fixed mix of calls over them, one cycle after another (call
   * {@code i} takes slot {@code i mod cycle}): first {@code mainCalls} to {@link #PATH}, which
   * spends the main budget ({@code core}), then each route's calls to its prefix. GitHub's
   * {@code core} and {@code search}: {@code new Split(3, List.of(new Route("/api/search", "search", 5, 1 s, 1)))},
   * 3 calls in 4 to core, 1 in 4 to search.
   *
   * @param mainCalls the main budget's calls per cycle, at least 1
   * @param routes the routes with budgets of their own, in the order they are given to the server
   */
  public record Split(int mainCalls, List<Route> routes) {
    /** One budget: every call to {@link #PATH}. */
    public static final Split NONE = new Split(1, List.of());

    public Split {
      if (mainCalls < 1) {
        throw new IllegalArgumentException("mainCalls: must be at least 1, was " + mainCalls);
      }
      routes = List.copyOf(routes);
    }

    /** Whether the host has one budget only. */
    public boolean none() {
      return routes.isEmpty();
    }

    /** Calls per cycle of the mix. */
    public int cycle() {
      return mainCalls + routes.stream().mapToInt(Route::calls).sum();
    }

    /** The paths of one cycle, in order: the main budget's, then each route's. */
    List<String> paths() {
      List<String> paths = new ArrayList<>(Collections.nCopies(mainCalls, PATH));
      for (Route route : routes) {
        paths.addAll(Collections.nCopies(route.calls(), route.prefix()));
      }
      return paths;
    }

    /** How many of {@code requests} calls spend the main budget. */
    int mainShare(int requests) {
      return Floor.roundRobinShare(requests, cycle(), 0, mainCalls);
    }

    /** How many of {@code requests} calls spend route {@code index}'s budget. */
    int routeShare(int requests, int index) {
      int from = mainCalls;
      for (int i = 0; i < index; i++) {
        from += routes.get(i).calls();
      }
      return Floor.roundRobinShare(requests, cycle(), from, from + routes.get(index).calls());
    }
  }

  @Override
  public String description() {
    String what = switch (algorithm) {
      case LEAKY_QUEUE -> "leaky bucket as a queue of " + capacity + ", draining " + limit + " per " + seconds(window);
      case FIXED_WINDOW, SLIDING_LOG, SLIDING_COUNTER -> algorithm.cliName().replace('-', ' ') + ", " + limit
          + " per " + seconds(window);
      default -> algorithm.cliName().replace('-', ' ') + ", " + limit + " per " + seconds(window) + ", burst " + capacity;
    };
    List<String> parts = new ArrayList<>();
    parts.add("demo server: " + what);
    parts.add(headers.cliName() + " headers");
    if (!clockSkew.isZero()) {
      parts.add("its clock " + seconds(clockSkew) + " ahead");
    }
    if (shape.concurrency() > 0) {
      parts.add("at most " + shape.concurrency() + " calls in flight per key, each admitted call taking "
          + shape.latency().toMillis() + " ms");
    }
    if (shape.rejectStatus() == 403) {
      parts.add(shape.concurrency() > 0
          ? "refusals 403 as GitHub's: the cap's with retry-after and the quota headers (remaining high), the limiter's "
              + "with remaining 0"
          : "refusals 403 as GitHub's, with remaining 0, the reset and retry-after");
    }
    if (shape.wrongResetEvery() > 0) {
      parts.add("every " + ordinal(shape.wrongResetEvery()) + " answer states a reset 200 days out");
    }
    if (shape.spentQuota()) {
      parts.add("a quota the cell spends: " + limit + " calls succeed, the rest must fail fast");
    }
    Split split = shape.split();
    if (!split.none()) {
      List<String> mix = new ArrayList<>();
      mix.add(split.mainCalls() + " calls in " + split.cycle() + " to " + PATH + " (core)");
      for (Route route : split.routes()) {
        mix.add(route.calls() + " in " + split.cycle() + " to " + route.prefix() + ", a budget of its own: "
            + route.name() + ", " + route.limit() + " per " + seconds(route.window()));
      }
      parts.add("several budgets on one host, each answer naming its own: " + String.join(", ", mix));
    }
    return String.join(", ", parts);
  }

  /** The main budget's rate, requests per second. */
  private double mainRate() {
    return limit / (window.toNanos() / 1e9);
  }

  /**
   * The documented rate; with several budgets, the most calls per second the cell's mix can send
   * without overrunning any budget: each budget's rate over its share of the mix, the least of them.
   */
  @Override
  public double rate() {
    Split split = shape.split();
    double rate = mainRate() * split.cycle() / split.mainCalls();
    for (Route route : split.routes()) {
      rate = Math.min(rate, route.rate() * split.cycle() / route.calls());
    }
    return rate;
  }

  /** The documented burst; with several budgets, the most the mix can send at once, as {@link #rate()}. */
  @Override
  public long burst() {
    long main = algorithm.usesBurst() ? capacity : limit;
    Split split = shape.split();
    long burst = main * split.cycle() / split.mainCalls();
    for (Route route : split.routes()) {
      burst = Math.min(burst, route.limit() * split.cycle() / route.calls());
    }
    return burst;
  }

  /** A cap on calls in flight holds fewer callers' calls at once when fewer call: {@code min(callers, cap)}. */
  @Override
  public double floorSeconds(int requests, int callers) {
    double floor = floorSeconds(requests);
    if (shape.concurrency() > 0 && callers < shape.concurrency() && !shape.spentQuota()) {
      floor = Math.max(floor, Floor.concurrency(requests, callers, shape.latency()));
    }
    return floor;
  }

  @Override
  public double floorSeconds(int requests) {
    if (shape.spentQuota()) {
      return Verdict.SPENT_QUOTA_SECONDS;
    }
    Split split = shape.split();
    double floor = split.none() ? floor(requests, limit, window, capacity)
        : floor(split.mainShare(requests), limit, window, capacity);
    // With several budgets each must let its share through, so the cell's floor is the largest.
    for (int i = 0; i < split.routes().size(); i++) {
      Route route = split.routes().get(i);
      floor = Math.max(floor, floor(split.routeShare(requests, i), route.limit(), route.window(), route.limit()));
    }
    // Both limits hold at once, so neither's floor can be beaten; here the cap's is far the higher.
    return shape.concurrency() > 0
        ? Math.max(floor, Floor.concurrency(requests, shape.concurrency(), shape.latency())) : floor;
  }

  /** This row's algorithm's floor for {@code requests} calls against one budget; none for no calls. */
  private double floor(int requests, long limit, Duration window, long capacity) {
    if (requests < 1) {
      return 0;
    }
    double rate = limit / (window.toNanos() / 1e9);
    return switch (algorithm) {
      case LEAKY_QUEUE -> Floor.leakyQueue(requests, rate);
      case FIXED_WINDOW, SLIDING_LOG, SLIDING_COUNTER -> Floor.windows(requests, limit, window);
      default -> Floor.tokenBucket(requests, capacity, rate);
    };
  }

  @Override
  public String floorRule() {
    if (!shape.split().none()) {
      Split split = shape.split();
      List<String> shares = new ArrayList<>();
      shares.add("core " + split.mainCalls() + "/" + split.cycle() + " of N at " + limit + " per " + seconds(window));
      for (Route route : split.routes()) {
        shares.add(route.name() + " " + route.calls() + "/" + split.cycle() + " of N at " + route.limit() + " per "
            + seconds(route.window()));
      }
      return "each budget's own floor for its share of the calls (" + String.join(", ", shares)
          + "), the largest of them: " + baseRule();
    }
    if (shape.spentQuota()) {
      return "no floor but a bound: min(N, " + limit + ") succeed and the rest fail fast, at most "
          + Verdict.SPENT_QUOTA_REJECTIONS + " refused, all within " + HtmlPage.number(Verdict.SPENT_QUOTA_SECONDS)
          + " s";
    }
    if (shape.concurrency() > 0) {
      return "ceil(N / min(C, " + shape.concurrency() + ")) x " + shape.latency().toMillis() + " ms: "
          + shape.concurrency() + " in flight at once (or the C callers, when fewer), wave after wave (the bucket's "
          + "rate is far above)";
    }
    return baseRule();
  }

  /** The floor's rule of this row's algorithm, against one budget. */
  private String baseRule() {
    return switch (algorithm) {
      case LEAKY_QUEUE -> "(N - 1) / rate: one request leaves the queue per interval, whatever its size";
      case FIXED_WINDOW, SLIDING_LOG, SLIDING_COUNTER -> "(ceil(N / limit) - 1) windows: a window's worth at once, then one more window each";
      default -> "(N - burst) / rate: the burst at once, then the rate";
    };
  }

  @Override
  public OptionalLong quota() {
    return shape.spentQuota() ? OptionalLong.of(limit) : OptionalLong.empty();
  }

  @Override
  public boolean shaped() {
    return !shape.plain();
  }

  @Override
  public Running start() throws InterruptedIOException {
    if (shape.spentQuota()) {
      clearOfTheWindowsEnd();
    }
    DemoServerConfig.Builder builder = DemoServer.builder()
        .port(0)
        .algorithm(algorithm)
        .limit(limit)
        .window(window)
        .burst(capacity)
        .headers(headers)
        .clockSkew(clockSkew)
        .concurrency(shape.concurrency())
        .latency(shape.latency())
        .rejectStatus(shape.rejectStatus())
        .wrongResetEvery(shape.wrongResetEvery());
    for (Route route : shape.split().routes()) {
      builder.budget(route.prefix(), route.name(), route.limit(), route.window());
    }
    DemoServer server = builder.start();
    List<HttpUrl> urls = shape.split().paths().stream().map(path -> HttpUrl.get(server.url() + path)).toList();
    return new Running(urls, () -> OptionalLong.of(server.stats().rejected()), server::close);
  }

  /**
   * Waits out the end of the window when it is nearer than {@link #QUOTA_GUARD}: the demo server's
   * fixed windows are aligned on the epoch, so a quota cell started just before the hour would see
   * its quota refill mid-cell (and more calls succeed than the quota allows).
   */
  private void clearOfTheWindowsEnd() throws InterruptedIOException {
    long windowMillis = window.toMillis();
    if (windowMillis <= QUOTA_GUARD.toMillis()) {
      return;
    }
    long left = windowMillis - Math.floorMod(System.currentTimeMillis(), windowMillis);
    if (left < QUOTA_GUARD.toMillis()) {
      try {
        Thread.sleep(left + 100);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new InterruptedIOException("interrupted waiting for the quota's window to turn");
      }
    }
  }

  private static String ordinal(int n) {
    int lastTwo = n % 100;
    String suffix = lastTwo >= 11 && lastTwo <= 13 ? "th"
        : switch (n % 10) {
          case 1 -> "st";
          case 2 -> "nd";
          case 3 -> "rd";
          default -> "th";
        };
    return n + suffix;
  }

  private static String seconds(Duration duration) {
    double s = duration.toNanos() / 1e9;
    if (s >= 3600 && s % 3600 == 0) {
      return (long) (s / 3600) + " h";
    }
    return (s == Math.rint(s) ? Long.toString((long) s) : String.format(Locale.ROOT, "%.3f", s)) + " s";
  }
}
