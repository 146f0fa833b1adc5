package dev.polite.demo.internal;

import dev.polite.demo.Budget;
import dev.polite.demo.DemoServerConfig;
import dev.polite.demo.HeaderStyle;
import dev.polite.demo.SecondPolicy;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiConsumer;
import org.jspecify.annotations.Nullable;

/**
 * Writes a decision as rate-limit headers in one dialect, on successes and rejections alike.
 *
 * <p>The numbers are chosen so that a client believing them is never refused by a token bucket
 * whose burst equals the advertised quota: {@code r} is the floor of what is available, and
 * {@code t} is the honest time until more quota is available, rounded up to whole seconds and at
 * least 1 when {@code r = 0} (so "pause t seconds, then pace at q/w" always finds a unit there).
 * {@code Retry-After} is likewise rounded up and never 0 on a rejection.
 *
 * <p>The IETF policy needs whole seconds: a window that is not a whole number of seconds is
 * advertised per second, with the quota rounded down (a client pacing on it errs slow).
 *
 * <p>Absolute times (the {@code x-ratelimit} epoch reset, the HTTP-date {@code Retry-After} and
 * {@code Date}) come from the server's own clock, which may be skewed on purpose: a server whose
 * clock runs ahead states every one of them ahead, consistently, as a real one would. The
 * HTTP-date {@code Retry-After} is the first whole second at or after the moment the request
 * would be admitted, so measured against {@code Date} (the current second, truncated) it is never
 * shorter than the honest wait.
 *
 * <p>With {@code --wrong-reset-every N}, every Nth answer this writes (one counter for the whole
 * server, so the wrong answer falls on whichever key comes Nth) states its reset 200 days ahead
 * and nothing else wrong: a reset plausible in form, absurd in size, as a real server sends now and
 * then. A client that believes one such answer stops for 200 days; one that keeps what the
 * other answers said does not. Styles without a reset count the answers but show nothing.
 *
 * <p>Each budget of a host has its own headers ({@link #forBudget}), naming it: the IETF policy
 * {@code "NAME"} and {@code x-ratelimit-resource: NAME}; the legacy and the other styles have no
 * place for a name. A server without route budgets names its one budget as before ({@code "default"},
 * {@code api}); with them, the main budget is {@code core}. The budgets share one answer counter
 * for {@code --wrong-reset-every}, which is the whole server's.
 *
 * <p>With a second policy ({@code --second-policy}, IETF only) both policies are listed in each
 * field, the main one first: {@code RateLimit-Policy: "default";q=20;w=1, "window";q=60;w=5} and
 * {@code RateLimit: "default";r=3;t=1, "window";r=41;t=4}, each item its own policy's numbers; a call
 * the second policy refused without asking the main one lists the second's alone in {@code RateLimit}
 * (draft-11 lets it carry any of the policies), and a wrong reset goes on the main policy's {@code t}.
 *
 * <p>With {@code --unnamed-budgets} no answer names its budget, as X's API v2 answers each endpoint
 * with its own numbers under the same field names: every IETF policy is {@code "default"} (its own
 * {@code q} and {@code w} still), and {@code x-ratelimit-resource} is left out.
 */
public final class QuotaHeaders {
  private static final long SECOND = 1_000_000_000L;
  private static final long MILLISECOND = 1_000_000L;

  /** The wrong reset: 200 days, far enough to strand a client, short enough to parse as a reset. */
  public static final long WRONG_RESET_SECONDS = 200L * 24 * 60 * 60;

  /** Azure Resource Manager's one field: what remains of the subscription's reads. */
  static final String AZURE_REMAINING = "x-ms-ratelimit-remaining-subscription-reads";

  /** Every header name this class writes, so a server can prepare them once. */
  public static final List<String> NAMES = List.of("RateLimit-Policy", "RateLimit", "RateLimit-Limit",
      "RateLimit-Remaining", "RateLimit-Reset", "x-ratelimit-limit", "x-ratelimit-remaining",
      "x-ratelimit-used", "x-ratelimit-reset", "x-ratelimit-resource", "x-rate-limit-limit", "x-rate-limit-remaining",
      "x-rate-limit-reset", "X-Shopify-Shop-Api-Call-Limit", AZURE_REMAINING,
      "Retry-After", "retry-after-ms", "Date");

  /** The IETF policy's name of a server with one budget, as it always was. */
  static final String DEFAULT_POLICY = "default";
  /** The {@code x-ratelimit-resource} of a server with one budget, as it always was. */
  static final String DEFAULT_RESOURCE = "api";

  private final HeaderStyle style;
  private final String policyName;
  private final @Nullable String resource;
  private final String rateLimitPrefix;
  private final long quota;
  private final long windowSeconds;
  private final long limit;
  private final long capacity;
  private final String policyHeader;
  private final HttpDate dates = new HttpDate();
  private final HttpDate retryDates = new HttpDate();
  private final int wrongResetEvery;
  private final AtomicLong answers;

  /**
   * What a rejection says most often, written once: an empty IETF quota and a Retry-After of a
   * few seconds. Formatting numbers was about 4 % of a 429's time in a profile of a flood.
   */
  private static final int PREPARED = 4096;
  private static final String[] SECONDS = new String[PREPARED];
  private static final String[] EMPTY_RATE_LIMIT = new String[PREPARED];

  static {
    for (int i = 0; i < PREPARED; i++) {
      SECONDS[i] = Integer.toString(i);
      EMPTY_RATE_LIMIT[i] = "\"default\";r=0;t=" + i;
    }
  }

  /** Headers for a limit of {@code limit} per window whose bucket also holds {@code limit}. */
  public QuotaHeaders(HeaderStyle style, long limit, long windowNanos) {
    this(style, DEFAULT_POLICY, DEFAULT_RESOURCE, limit, limit, windowNanos, 0, new AtomicLong());
  }

  /**
   * @param policyName the IETF policy's name
   * @param resource the {@code x-ratelimit-resource}; null for none
   * @param capacity what a fresh key holds (the burst of a bucket), the {@code limit} of
   *     {@code used/limit}
   * @param wrongResetEvery every how many answers one states {@link #WRONG_RESET_SECONDS}; 0 for never
   * @param answers the answers counted for {@code wrongResetEvery}, shared by a host's budgets
   */
  private QuotaHeaders(HeaderStyle style, String policyName, @Nullable String resource, long limit, long capacity,
      long windowNanos, int wrongResetEvery, AtomicLong answers) {
    this.style = style;
    this.policyName = policyName;
    this.resource = resource;
    this.rateLimitPrefix = "\"" + policyName + "\";r=";
    this.answers = answers;
    this.wrongResetEvery = wrongResetEvery;
    this.limit = limit;
    this.capacity = capacity;
    if (windowNanos % SECOND == 0) {
      this.quota = limit;
      this.windowSeconds = windowNanos / SECOND;
    } else {
      this.quota = Math.max(1, (long) Math.floor((double) limit * SECOND / windowNanos));
      this.windowSeconds = 1;
    }
    this.policyHeader = "\"" + policyName + "\";q=" + quota + ";w=" + windowSeconds;
  }

  /**
   * The headers {@code config} asks for. A skewed clock states its {@code Date} on every answer,
   * whatever the style, so that no absolute time it sends contradicts the {@code Date} beside it.
   */
  public static QuotaHeaders of(DemoServerConfig config) {
    long capacity = Policy.of(config).capacity(config.algorithm());
    boolean named = config.hasBudgets();
    if (config.unnamedBudgets()) {
      return new QuotaHeaders(config.headers(), DEFAULT_POLICY, null, config.limit(), capacity,
          config.window().toNanos(), config.wrongResetEvery(), new AtomicLong());
    }
    return new QuotaHeaders(config.headers(), named ? Budget.MAIN : DEFAULT_POLICY,
        named ? Budget.MAIN : DEFAULT_RESOURCE, config.limit(), capacity, config.window().toNanos(),
        config.wrongResetEvery(), new AtomicLong());
  }

  /**
   * The headers of a route's own budget on the same server: its name (as the IETF policy and the
   * {@code x-ratelimit-resource}), its limit and window, what a fresh key holds of it
   * ({@code capacity}); the style and the {@code --wrong-reset-every} counter are this one's, and
   * so is whether answers name their budget: a host whose main budget is unnamed names none.
   */
  public QuotaHeaders forBudget(Budget budget, long capacity) {
    boolean named = resource != null;
    return new QuotaHeaders(style, named ? budget.name() : DEFAULT_POLICY, named ? budget.name() : null,
        budget.limit(), capacity, budget.window().toNanos(), wrongResetEvery, answers);
  }

  /**
   * The headers of a second policy beside this one ({@code --second-policy}): its name, limit and
   * window, in this style; used through {@link #write(Decision, Decision, QuotaHeaders, BiConsumer)}.
   */
  public QuotaHeaders forSecond(SecondPolicy second) {
    return new QuotaHeaders(style, second.name(), null, second.limit(), second.limit(), second.window().toNanos(), 0,
        new AtomicLong());
  }

  /**
   * The name this budget's answers carry (the IETF policy's; the x-ratelimit resource's may differ):
   * {@code default} for every budget of a host whose answers name none.
   */
  public String policyName() {
    return policyName;
  }

  /** Whole seconds, rounded up. */
  public static long seconds(long nanos) {
    return Nanos.ceilDiv(nanos, SECOND);
  }

  /** The {@code Retry-After} value for a rejection: whole seconds, rounded up, at least 1. */
  public static long retryAfterSeconds(Decision decision) {
    return Math.max(1, seconds(decision.retryAfterNanos()));
  }

  /** The {@code t} of a decision: seconds until more quota, at least 1 when none remains. */
  public static long resetSeconds(Decision decision) {
    long t = seconds(decision.nextUnitNanos());
    return decision.remaining() == 0 ? Math.max(1, t) : t;
  }

  /**
   * Writes the quota headers for {@code decision} (not {@code Retry-After}; see
   * {@link #writeRetryAfter}). Every call is one answer for {@code --wrong-reset-every}.
   *
   * @param epochMillis the server's now (skew included), for the epoch reset of {@code x-ratelimit}
   */
  public void write(Decision decision, long epochMillis, BiConsumer<String, String> header) {
    long r = decision.remaining();
    long t = wrongReset() ? WRONG_RESET_SECONDS : resetSeconds(decision);
    switch (style) {
      case IETF:
        header.accept("RateLimit-Policy", policyHeader);
        boolean prepared = r == 0 && t < PREPARED && policyName.equals(DEFAULT_POLICY);
        header.accept("RateLimit", prepared ? EMPTY_RATE_LIMIT[(int) t] : rateLimitPrefix + r + ";t=" + t);
        break;
      case LEGACY:
        header.accept("RateLimit-Limit", Long.toString(limit));
        header.accept("RateLimit-Remaining", Long.toString(r));
        header.accept("RateLimit-Reset", Long.toString(t));
        break;
      case X_RATELIMIT:
        header.accept("x-ratelimit-limit", Long.toString(limit));
        header.accept("x-ratelimit-remaining", Long.toString(r));
        header.accept("x-ratelimit-used", Long.toString(Math.max(0, limit - r)));
        header.accept("x-ratelimit-reset", Long.toString(Math.floorDiv(epochMillis, 1000) + t));
        if (resource != null) {
          header.accept("x-ratelimit-resource", resource);
        }
        break;
      case X_RATE_LIMIT:
        header.accept("x-rate-limit-limit", Long.toString(limit));
        header.accept("x-rate-limit-remaining", Long.toString(r));
        header.accept("x-rate-limit-reset", Long.toString(Math.floorDiv(epochMillis, 1000) + t));
        break;
      case USED_LIMIT:
        // Shopify counts the bucket's fill, the call just made included: "1/40" after a first call.
        header.accept("X-Shopify-Shop-Api-Call-Limit", Math.max(0, capacity - r) + "/" + capacity);
        break;
      case AZURE:
        header.accept(AZURE_REMAINING, Long.toString(r));
        break;
      case RETRY_AFTER:
      case RETRY_AFTER_MS:
      case RETRY_AFTER_DATE:
      case NONE:
      default:
        break;
    }
  }

  /**
   * Writes the IETF fields for two policies, this one and {@code secondHeaders}'s ({@link #forSecond}):
   * both in {@code RateLimit-Policy}, and in {@code RateLimit} each one's numbers, this one's only
   * when it decided ({@code decision} null when the second refused without asking it). One answer
   * for {@code --wrong-reset-every}, whose wrong reset goes on this policy's {@code t}.
   */
  public void write(@Nullable Decision decision, Decision second, QuotaHeaders secondHeaders,
      BiConsumer<String, String> header) {
    long t = wrongReset() ? WRONG_RESET_SECONDS : decision == null ? 0 : resetSeconds(decision);
    header.accept("RateLimit-Policy", policyHeader + ", " + secondHeaders.policyHeader);
    String secondItem = secondHeaders.rateLimitPrefix + second.remaining() + ";t=" + resetSeconds(second);
    header.accept("RateLimit", decision == null ? secondItem
        : rateLimitPrefix + decision.remaining() + ";t=" + t + ", " + secondItem);
  }

  /** Whether this answer is the Nth, whose reset is wrong; no shared counter is touched when off. */
  private boolean wrongReset() {
    return wrongResetEvery > 0 && answers.incrementAndGet() % wrongResetEvery == 0;
  }

  /**
   * Writes what a rejection says about when to come back, in this style: {@code Retry-After} in
   * whole seconds (rounded up, at least 1), plus {@code retry-after-ms} for
   * {@link HeaderStyle#RETRY_AFTER_MS}, as an HTTP-date for {@link HeaderStyle#RETRY_AFTER_DATE},
   * and nothing for {@link HeaderStyle#NONE}.
   *
   * @param retryAfterNanos how long until the request would be admitted
   * @param epochMillis the server's now (skew included)
   */
  public void writeRetryAfter(long retryAfterNanos, long epochMillis, BiConsumer<String, String> header) {
    long seconds = Math.max(1, seconds(retryAfterNanos));
    switch (style) {
      case NONE:
        break;
      case RETRY_AFTER_MS:
        header.accept("retry-after-ms", Long.toString(Math.max(1, Nanos.ceilDiv(retryAfterNanos, MILLISECOND))));
        header.accept("Retry-After", Long.toString(seconds));
        break;
      case RETRY_AFTER_DATE:
        long admittedAtMillis = Nanos.saturatedAdd(epochMillis, Nanos.ceilDiv(retryAfterNanos, MILLISECOND));
        long admittedAtSecond = Math.floorDiv(admittedAtMillis + 999, 1000); // rounded up
        header.accept("Retry-After", retryDates.formatSecond(admittedAtSecond));
        break;
      default:
        header.accept("Retry-After", seconds < PREPARED ? SECONDS[(int) seconds] : Long.toString(seconds));
        break;
    }
  }

  /**
   * Writes {@code Date} from the server's clock, on every answer. Not only skewed or date-speaking
   * servers need it: epoch resets are read against it, so it must come from the clock the resets
   * come from. A Date cached per process can outlive the server that kept it fresh (the examples'
   * zoo starts and stops one server per cell in one JVM), and against a Date stuck in the past
   * every reset reads ever longer.
   */
  public void writeDate(long epochMillis, BiConsumer<String, String> header) {
    header.accept("Date", dates.format(epochMillis));
  }
}
