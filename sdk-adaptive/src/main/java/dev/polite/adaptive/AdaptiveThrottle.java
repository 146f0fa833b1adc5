package dev.polite.adaptive;

import dev.polite.CallContext;
import dev.polite.LoadShedder;
import dev.polite.RateLimitHeaders;
import dev.polite.RateLimitKey;
import dev.polite.ResponseView;
import dev.polite.Ticker;
import java.io.IOException;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;
import java.util.random.RandomGenerator;
import org.jspecify.annotations.Nullable;

/**
 * Client-side adaptive throttling (Google SRE book, "Handling Overload"): when a server keeps
 * refusing, drop some requests on the client before they reach the network, so that an
 * overloaded server spends its capacity on work rather than on refusals.
 *
 * <pre>{@code
 * OkHttpClient client = new OkHttpClient.Builder()
 *     .addInterceptor(PoliteInterceptor.builder().loadShedder(AdaptiveThrottle.create()).build())
 *     .build();
 * HttpClient jdk = PoliteHttpClient.builder(HttpClient.newHttpClient())
 *     .loadShedder(AdaptiveThrottle.create()).build();   // the same on every engine
 * }</pre>
 *
 * <h2>The rule</h2>
 * Per key (scheme, host and port by default), count {@code requests} and {@code accepts} over a
 * sliding window of buckets; drop a new request with probability
 * {@code max(0, (requests - K * accepts) / (requests + padding))}, capped at
 * {@code maxProbability}. An accept is any answer that is not an overload or rate-limit refusal
 * (see {@link #overloadOrRateLimited}): a 404 or a 500 is the server doing work. A dropped request
 * throws {@link ThrottledLocallyException} at once, without waiting and without touching the
 * network. A sent request is counted when its answer comes, together with its accept (see
 * {@link AdaptiveThrottler}): a call still waiting (in polite's pace, or for the server) is not a
 * refusal, so calls in flight never make the throttle drop.
 *
 * <h2>What it promises</h2>
 * Under overload the throttle converges to sending about {@code K} times what the server accepts,
 * whatever the demand: the server refuses {@code (K - 1) / K} of what reaches it (the book's
 * K = 2 refuses one request per accepted one; ours, K = 1.2, one per five). It never drops while
 * the server accepts everything ({@code K > 1}), however many calls are in flight or waiting,
 * and it drops at most {@code maxProbability} of
 * requests, so at least {@code 1 - maxProbability} of demand always reaches the server: the
 * probes that notice it has healed.
 *
 * <h2>Why these defaults</h2>
 * The book's form (K = 2, two-minute window, local drops counted, padding 1, no cap) protects
 * well but recovers slowly. Its window remembers an overload for two minutes after it ends. And
 * in a total outage nothing is accepted, so the drop probability is
 * {@code requests / (requests + padding)}: about {@code padding} = 1 request per window gets
 * through, and the sent rate can regain at most a factor K per window once the server heals.
 * Each known fix, and why it is taken or not:
 * <ul>
 *   <li><b>Not counting local drops</b> (Envoy) recovers within seconds, but the sent rate
 *       then grows as {@code sqrt(K * demand * capacity)} instead of staying at
 *       {@code K * capacity}: at 3x overload that is {@code sqrt(3K)} times the capacity, so the
 *       server refuses {@code 1 - 1 / sqrt(3K)}, 45 % at K = 1.1 to 59 % at K = 2. Rejected: it
 *       gives up the protection.
 *   <li><b>A lower K</b> is the only lever on the refused fraction, {@code (K - 1) / K}: 1.5
 *       refuses a third, 1.2 a sixth, 1.1 an eleventh; but the lower K, the lower the goodput
 *       and the slower the recovery (at most a factor K per window).
 *   <li><b>A shorter window</b> is what buys recovery back: the throttle forgets an overload a
 *       window after it ends, so a window of seconds recovers in seconds.
 *   <li><b>A cap</b> on the drop probability ends the self-lock-out after an outage: at least
 *       {@code 1 - cap} of demand keeps probing. A lower cap heals sooner but sends more into a
 *       dead server; 0.9 keeps full protection up to a demand of {@code K / (1 - cap)} =
 *       1.2 / 0.1 = 12 times the capacity.
 *   <li><b>Periodic probes</b> (go-zero's forced pass every second) add nothing once the cap
 *       lets a tenth of demand through, and send more of a sporadic client's requests into an
 *       outage. Off by default.
 *   <li><b>Padding</b> above the book's 1 matters only for keys with a handful of requests per
 *       window; left at 1.
 * </ul>
 * So "polite" keeps the book's formula and counting, with K = 1.2, a 2 s window in 20 buckets of
 * 100 ms, and a 0.9 cap. The price of the short window: a key with fewer than a request or two
 * per window (under ~1 rps) is barely throttled at all, as the book warns for sporadic clients.
 * {@link Builder#bookExact()} keeps the book's form for comparison. The simulations that chose
 * them, with their figures and the command that prints them ({@code polite-examples.jar overload
 * --sweep}), are in sdk-adaptive/README.md, "The sweep behind the throttle's defaults".
 *
 * <h2>Where it goes</h2>
 * It is polite's {@link LoadShedder} ({@code builder.loadShedder(throttle)}), on any engine:
 * polite asks it before the call waits for anything, so a call it drops never waits for polite's
 * pace, and tells it each call's end once, by its final answer. polite's retries happen inside it,
 * bounded by polite's own retry budget: the book keeps retry control separate from first-try
 * throttling, and a throttle after polite would turn its local drops into I/O errors that polite
 * may retry.
 *
 * <p>Immutable and thread-safe; keys are shared by every call through one instance. Idle keys are
 * forgotten past {@code maxKeys}.
 */
public final class AdaptiveThrottle implements LoadShedder {
  private final RateLimitKey key;
  private final double multiplier;
  private final Duration window;
  private final int buckets;
  private final double padding;
  private final double maxProbability;
  private final boolean countLocalDrops;
  private final Duration probeInterval;
  private final Predicate<ResponseView> overload;
  private final Ticker ticker;
  private final @Nullable RandomGenerator random;
  private final int maxKeys;
  private final Map<String, AdaptiveThrottler> throttlers = new ConcurrentHashMap<>();

  private AdaptiveThrottle(Builder b) {
    this.key = b.key;
    this.multiplier = b.multiplier;
    this.window = b.window;
    this.buckets = b.buckets;
    this.padding = b.padding;
    this.maxProbability = b.maxProbability;
    this.countLocalDrops = b.countLocalDrops;
    this.probeInterval = b.probeInterval;
    this.overload = b.overload;
    this.ticker = b.ticker;
    this.random = b.random;
    this.maxKeys = b.maxKeys;
  }

  /** A throttle with polite's defaults. */
  public static AdaptiveThrottle create() {
    return builder().build();
  }

  /** The book's form: K = 2, a two-minute window, local drops counted, no cap, no probes. */
  public static AdaptiveThrottle bookExact() {
    return builder().bookExact().build();
  }

  /** Starts a configuration from polite's defaults. */
  public static Builder builder() {
    return new Builder();
  }

  /** A builder holding this throttle's configuration, to derive another (with fresh keys). */
  public Builder toBuilder() {
    Builder b = new Builder();
    b.key = key;
    b.multiplier = multiplier;
    b.window = window;
    b.buckets = buckets;
    b.padding = padding;
    b.maxProbability = maxProbability;
    b.countLocalDrops = countLocalDrops;
    b.probeInterval = probeInterval;
    b.overload = overload;
    b.ticker = ticker;
    b.random = random;
    b.maxKeys = maxKeys;
    return b;
  }

  /**
   * A fresh throttler with this configuration, not registered under any key: for simulations.
   */
  public AdaptiveThrottler newThrottler(String key) {
    return new AdaptiveThrottler(key, multiplier(), padding(), maxProbability(), countsLocalDrops(),
        probeInterval().toNanos(), window().toNanos(), buckets(), random);
  }

  /** The throttler for {@code key} this throttle uses, made if new. */
  public AdaptiveThrottler throttler(String key) {
    AdaptiveThrottler t = throttlers.get(key);
    if (t != null) {
      return t;
    }
    if (throttlers.size() >= maxKeys) {
      forgetIdle(ticker.read());
    }
    return throttlers.computeIfAbsent(key, this::newThrottler);
  }

  /**
   * Admits {@code call} or drops it ({@link ThrottledLocallyException}, never sent); an admitted
   * call's end is counted as an accept unless its answer is an overload or rate-limit refusal
   * ({@link Builder#overload}), or it ended without one: a failure to get any answer is the
   * server not accepting, unless its end says nothing of the server (the caller cancelled).
   */
  @Override
  public Admitted admit(CallContext call) throws IOException {
    String k = key.keyOf(call.request());
    if (k == null) {
      throw new IOException("the adaptive throttle's key function answered null for " + call);
    }
    Criticality criticality = Criticality.of(call.request());
    AdaptiveThrottler throttler = throttler(k);
    Admission admission = throttler.admit(ticker.read(), criticality);
    if (!admission.allowed()) {
      throw new ThrottledLocallyException(k, criticality, admission.probability());
    }
    return (answer, silent) -> throttler.record(ticker.read(),
        answer != null ? !overload.test(answer) : silent);
  }

  /**
   * The default judgment of an answer: true for a refusal because of overload or a rate limit.
   * That is 429; 503 (unavailable); 502 and 504 (a gateway could not reach the server or it did
   * not answer in time: overload more often than not); and any other answer that polite's header
   * parser reads as a rate-limit rejection (a 403 whose quota is spent, GitHub's way of refusing,
   * in any dialect). Any other answer, 500 included, is the server doing work and counts as an
   * accept.
   */
  public static boolean overloadOrRateLimited(ResponseView response) {
    int code = response.status();
    if (code == 429 || code == 502 || code == 503 || code == 504) {
      return true;
    }
    return code == 403 && RateLimitHeaders.standard().parse(response).isRejection();
  }

  private void forgetIdle(long now) {
    long idle = window.toNanos();
    throttlers.values().removeIf(t -> now - t.lastUsed() > idle);
  }

  /** K: how many requests per accept the throttle lets through before it drops. */
  public double multiplier() {
    return multiplier;
  }

  /** The sliding window's length. */
  public Duration window() {
    return window;
  }

  /** How many buckets the window is cut into. */
  public int buckets() {
    return buckets;
  }

  /** Added to the formula's denominator; the book's is 1. */
  public double padding() {
    return padding;
  }

  /** The most the drop probability can be. */
  public double maxProbability() {
    return maxProbability;
  }

  /** Whether dropped requests count in {@code requests}, as the book says. */
  public boolean countsLocalDrops() {
    return countLocalDrops;
  }

  /** After this long without a request sent, one is let through regardless; zero for never. */
  public Duration probeInterval() {
    return probeInterval;
  }

  @Override
  public String toString() {
    return String.format(Locale.ROOT,
        "AdaptiveThrottle{K=%s window=%s/%d padding=%s cap=%s countDrops=%s probe=%s}",
        multiplier, window, buckets, padding, maxProbability, countLocalDrops, probeInterval);
  }

  /**
   * Configures an {@link AdaptiveThrottle}, starting from polite's defaults; each setter
   * validates its argument and names it when it refuses. Not thread-safe.
   *
   * <pre>{@code
   * AdaptiveThrottle t = AdaptiveThrottle.builder().multiplier(1.5).window(Duration.ofSeconds(10), 40).build();
   * }</pre>
   */
  public static final class Builder {
    private RateLimitKey key = RateLimitKey.host();
    private double multiplier = 1.2;
    private Duration window = Duration.ofSeconds(2);
    private int buckets = 20;
    private double padding = 1;
    private double maxProbability = 0.9;
    private boolean countLocalDrops = true;
    private Duration probeInterval = Duration.ZERO;
    private Predicate<ResponseView> overload = AdaptiveThrottle::overloadOrRateLimited;
    private Ticker ticker = Ticker.system();
    private @Nullable RandomGenerator random;
    private int maxKeys = 10_000;

    private Builder() {}

    /**
     * The book's form, for comparison: K = 2, a 120 s window in 1 s buckets, padding 1, no cap,
     * local drops counted, no probes. Other settings (key, clock, randomness) are kept.
     */
    public Builder bookExact() {
      return multiplier(2).window(Duration.ofSeconds(120), 120).padding(1).maxProbability(1)
          .countLocalDrops(true).probeInterval(Duration.ZERO);
    }

    /** What a request counts against. Default {@link RateLimitKey#host()}, as polite's. */
    public Builder key(RateLimitKey key) {
      this.key = Objects.requireNonNull(key, "key");
      return this;
    }

    /**
     * K, the requests let through per accept before dropping starts; above 1 (at 1 or below the
     * throttle would drop while the server accepts everything, and never recover). Default 1.2.
     */
    public Builder multiplier(double multiplier) {
      if (!(multiplier > 1) || Double.isInfinite(multiplier)) {
        throw new IllegalArgumentException("multiplier must be above 1 and finite: " + multiplier);
      }
      this.multiplier = multiplier;
      return this;
    }

    /**
     * The sliding window and how many buckets it is cut into (the window slides a bucket at a
     * time). Default 2 s in 20 buckets.
     */
    public Builder window(Duration window, int buckets) {
      Objects.requireNonNull(window, "window");
      if (window.isNegative() || window.isZero()) {
        throw new IllegalArgumentException("window must be positive: " + window);
      }
      if (buckets < 1 || window.toNanos() / buckets < 1_000_000) {
        throw new IllegalArgumentException(
            "buckets must be at least 1 and each at least 1 ms long: " + buckets);
      }
      this.window = window;
      this.buckets = buckets;
      return this;
    }

    /** Added to {@code requests} in the denominator; at least 1 (the book's). Default 1. */
    public Builder padding(double padding) {
      if (!(padding >= 1) || Double.isInfinite(padding)) {
        throw new IllegalArgumentException("padding must be at least 1 and finite: " + padding);
      }
      this.padding = padding;
      return this;
    }

    /** The cap on the drop probability, in (0, 1]; 1 for none. Default 0.9. */
    public Builder maxProbability(double maxProbability) {
      if (!(maxProbability > 0 && maxProbability <= 1)) {
        throw new IllegalArgumentException("maxProbability must be in (0, 1]: " + maxProbability);
      }
      this.maxProbability = maxProbability;
      return this;
    }

    /** Whether dropped requests count in {@code requests}, as the book says. Default true. */
    public Builder countLocalDrops(boolean countLocalDrops) {
      this.countLocalDrops = countLocalDrops;
      return this;
    }

    /**
     * After this long without a request sent to a key, the next one goes regardless (go-zero's
     * forced pass); zero for never. Default zero.
     */
    public Builder probeInterval(Duration probeInterval) {
      Objects.requireNonNull(probeInterval, "probeInterval");
      if (probeInterval.isNegative()) {
        throw new IllegalArgumentException("probeInterval must not be negative: " + probeInterval);
      }
      this.probeInterval = probeInterval;
      return this;
    }

    /**
     * Which answers are refusals (not accepts). Default {@link #overloadOrRateLimited}.
     */
    public Builder overload(Predicate<ResponseView> overload) {
      this.overload = Objects.requireNonNull(overload, "overload");
      return this;
    }

    /** The clock the window slides on; tests pass a fake. Default the system's. */
    public Builder ticker(Ticker ticker) {
      this.ticker = Objects.requireNonNull(ticker, "ticker");
      return this;
    }

    /**
     * The drops' source of randomness, shared by every key, so it must be thread-safe
     * ({@link java.util.Random} is); tests pass a seeded one. Default per-thread random.
     */
    public Builder random(RandomGenerator random) {
      this.random = Objects.requireNonNull(random, "random");
      return this;
    }

    /** The most keys remembered; idle ones are forgotten past it. Default 10,000. */
    public Builder maxKeys(int maxKeys) {
      if (maxKeys < 1) {
        throw new IllegalArgumentException("maxKeys must be at least 1: " + maxKeys);
      }
      this.maxKeys = maxKeys;
      return this;
    }

    /** The immutable throttle; each has its own keys. */
    public AdaptiveThrottle build() {
      return new AdaptiveThrottle(this);
    }
  }
}
