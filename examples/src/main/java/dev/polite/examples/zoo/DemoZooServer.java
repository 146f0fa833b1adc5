package dev.polite.examples.zoo;

import dev.polite.demo.Algorithm;
import dev.polite.demo.DemoServer;
import dev.polite.demo.DemoServerConfig;
import dev.polite.demo.HeaderStyle;
import dev.polite.demo.SecondPolicy;
import dev.polite.examples.HtmlPage;
import java.io.InterruptedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.OptionalLong;
import okhttp3.HttpUrl;

/**
 * A demo server in the zoo: one algorithm, one header dialect, {@code limit} per {@code window}
 * with a burst (the bucket family's capacity; the queue's slots for the leaky queue), optionally
 * with its clock ahead of ours, and optionally one of the shapes of a limit ({@link Shape}: a cap
 * on calls in flight, GitHub's 403s, a wrong reset now and then, a quota the cell spends, several
 * budgets on one host, named or not, a block that early calls restart, a limiter that refuses
 * everything, a second policy, refusals with unusable hints). Started in process on port 0; its
 * rejections are its own count (the cap's and every other refusal included).
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
      60 + (long) Cut.seconds(Verdict.SPENT_QUOTA_SECONDS) + 1);

  /** How far past a window's opening a cell that waits for one starts: the window is surely open by then. */
  private static final long WINDOW_OPENED_MILLIS = 5;

  /** A plain row, named {@code algorithm/headers}. */
  public DemoZooServer(Algorithm algorithm, HeaderStyle headers, long limit, Duration window, long capacity,
      Duration clockSkew) {
    this(algorithm.cliName() + "/" + headers.cliName(), algorithm, headers, limit, window, capacity, clockSkew,
        Shape.PLAIN);
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
      mix.add(split.mainCalls() + " calls in " + split.cycle() + " to " + Split.PATH + " (core)");
      for (Route route : split.routes()) {
        mix.add(route.calls() + " in " + split.cycle() + " to " + route.prefix() + ", a budget of its own: "
            + route.name() + ", " + route.limit() + " per " + seconds(route.window()));
      }
      parts.add("several budgets on one host, " + (split.named() ? "each answer naming its own: "
          : "no answer naming its own (each gives its budget's numbers under the same names): ")
          + String.join(", ", mix));
    }
    if (!shape.blockFor().isZero()) {
      parts.add("once refused, a key is blocked for " + seconds(shape.blockFor()) + ", each call during the block "
          + "restarting it (Retry-After: " + shape.blockFor().toSeconds() + ", no quota headers)");
    }
    if (shape.refuseAll()) {
      parts.add("every call refused (Retry-After: 0, nothing else): no call can succeed, and each must fail fast");
    }
    SecondPolicy second = shape.secondPolicy();
    if (second != null) {
      parts.add("a second policy every call must also pass, \"" + second.name() + "\": a fixed window of "
          + second.limit() + " per " + seconds(second.window()) + ", both listed in one RateLimit-Policy field");
    }
    if (shape.bogusRefusalEvery() > 0) {
      parts.add("every " + ordinal(shape.bogusRefusalEvery()) + " answer a refusal no limiter made, Retry-After: "
          + "86400 (a day), nothing else" + (shape.latency().isZero() ? ""
          : "; each admitted call taking " + shape.latency().toMillis() + " ms"));
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
    SecondPolicy second = shape.secondPolicy();
    return second == null ? rate : Math.min(rate, second.limit() / (second.window().toNanos() / 1e9));
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
    SecondPolicy second = shape.secondPolicy();
    return second == null ? burst : Math.min(burst, second.limit());
  }

  /**
   * A cap on calls in flight holds fewer callers' calls at once when fewer call:
   * {@code min(callers, cap)}; unusable hints': the limiter's floor of the calls it admits (a
   * client that gives the refused ones up needs no more), or their latency {@code callers} at a
   * time, whichever is longer.
   */
  @Override
  public double floorSeconds(int requests, int callers) {
    if (shape.bogusRefusalEvery() > 0) {
      int admitted = admittedOf(requests);
      return Math.max(floor(admitted, limit, window, capacity), Floor.concurrency(admitted, callers, shape.latency()));
    }
    double floor = floorSeconds(requests);
    if (shape.concurrency() > 0 && callers < shape.concurrency() && !shape.spentQuota()) {
      floor = Math.max(floor, Floor.concurrency(requests, callers, shape.latency()));
    }
    return floor;
  }

  /**
   * The floor with as many callers as there are calls; for unusable hints, the floor of the calls the
   * server admits (the cells' own floors, {@link #floorSeconds(int, int)}, take their callers).
   */
  @Override
  public double floorSeconds(int requests) {
    if (shape.spentQuota()) {
      return Verdict.SPENT_QUOTA_SECONDS;
    }
    if (shape.refuseAll()) {
      return Verdict.REFUSES_EVERYTHING_SECONDS;
    }
    if (shape.bogusRefusalEvery() > 0) {
      return floorSeconds(requests, requests);
    }
    SecondPolicy second = shape.secondPolicy();
    if (second != null) {
      return Floor.bucketAndWindows(requests, capacity, mainRate(), second.limit(), second.window());
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

  /**
   * The calls of {@code requests} that a server refusing every Nth answer admits, for a client that
   * sends each call once and gives the refused ones up: the least it must have admitted.
   */
  private int admittedOf(int requests) {
    return Math.max(1, requests - requests / shape.bogusRefusalEvery());
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
    if (shape.refuseAll()) {
      return "no floor but a bound: no call can succeed; every call must end, at most max(3, 10 % of N) refused, all "
          + "within " + HtmlPage.number(Verdict.REFUSES_EVERYTHING_SECONDS) + " s";
    }
    if (shape.bogusRefusalEvery() > 0) {
      int every = shape.bogusRefusalEvery();
      return "ceil((N - floor(N / " + every + ")) / C) x " + shape.latency().toMillis() + " ms: the calls the server "
          + "admits (every " + ordinal(every) + " answer is refused, and those calls may be given up), C at a time, "
          + "each taking its latency";
    }
    SecondPolicy second = shape.secondPolicy();
    if (second != null) {
      return "both policies at once, for a client that starts as the window opens (the zoo starts the cell so): the "
          + "burst of " + capacity + " at once, then " + HtmlPage.number(mainRate()) + " per second until the window's "
          + second.limit() + ", then nothing until the next window opens (the bucket refilled meanwhile), and so on; "
          + "more than either's own floor (the bucket's (N - burst) / rate, the window's (ceil(N / "
          + second.limit() + ") - 1) x " + seconds(second.window()) + ")";
    }
    if (!shape.blockFor().isZero()) {
      return baseRule() + " (a client that never goes over never meets the block)";
    }
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
  public Targets targets() {
    return shape.targets(limit);
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
        .wrongResetEvery(shape.wrongResetEvery())
        .unnamedBudgets(!shape.split().named())
        .blockFor(shape.blockFor())
        .refuseAll(shape.refuseAll())
        .bogusRefusalEvery(shape.bogusRefusalEvery());
    for (Route route : shape.split().routes()) {
      builder.budget(route.prefix(), route.name(), route.limit(), route.window());
    }
    SecondPolicy second = shape.secondPolicy();
    if (second != null) {
      builder.secondPolicy(second);
    }
    DemoServer server = builder.start();
    if (second != null) {
      try {
        asAWindowOpens(second.window());
      } catch (InterruptedIOException e) {
        server.close();
        throw e;
      }
    }
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
      sleep(left + 100, "the quota's window to turn");
    }
  }

  /**
   * Waits until a window of {@code window} (aligned on the epoch, as the demo server's are) has just
   * opened, so the cell starts as its floor assumes: a two-policy cell started late in its 5 s window
   * would meet the next one up to 5 s sooner than the floor allows for, and its time would say more
   * about when it started than about the client.
   */
  private static void asAWindowOpens(Duration window) throws InterruptedIOException {
    long windowMillis = window.toMillis();
    sleep(windowMillis - Math.floorMod(System.currentTimeMillis(), windowMillis) + WINDOW_OPENED_MILLIS,
        "a window to open");
  }

  private static void sleep(long millis, String forWhat) throws InterruptedIOException {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted waiting for " + forWhat);
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
