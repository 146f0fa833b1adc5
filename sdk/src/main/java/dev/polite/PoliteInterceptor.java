package dev.polite;

import dev.failsafe.RetryPolicy;
import dev.polite.internal.Acquisition;
import dev.polite.internal.Attempt;
import dev.polite.internal.KeyState;
import dev.polite.internal.KeyStates;
import dev.polite.internal.Patience;
import dev.polite.internal.Permit;
import dev.polite.internal.RetryRules;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.ToDoubleFunction;
import java.util.random.RandomGenerator;
import okhttp3.Call;
import okhttp3.Interceptor;
import okhttp3.Request;
import okhttp3.Response;
import okio.Timeout;
import org.jspecify.annotations.Nullable;

/**
 * Makes an OkHttp client a polite caller of rate-limited APIs: it paces calls per key, learns
 * each key's limit from the server's headers, pauses a key the server asked to wait, and retries
 * what is safe to retry, never sooner than the server asked.
 *
 * <pre>{@code
 * OkHttpClient client = new OkHttpClient.Builder()
 *     .addInterceptor(PoliteInterceptor.create())
 *     .build();
 * }</pre>
 *
 * <h2>The request path</h2>
 * <ol>
 *   <li>The key function names the limit the request counts against (scheme, host and port by
 *       default) and the cost function its cost (1, or a {@link RequestCost} tag).
 *   <li>The call waits for permission: past the key's pause, through its gate (one call in flight
 *       until the key's first answer, and while probing after a rejection), and for its tokens.
 *   <li>It proceeds; the answer's rate-limit headers, in any dialect polite reads, update the
 *       key: an advertised {@code quota / window} becomes its pace, the remaining count resets its
 *       tokens, a spent quota or a Retry-After pauses it. A key whose server advertises nothing
 *       discovers a pace from its rejections ({@link Aimd} by default).
 *   <li>A retryable failure is retried after the server's delay plus jitter, or after capped
 *       exponential backoff with full jitter, within the attempts, the key's retry budget, the
 *       max wait and the call's timeout. Each retry is paced like a first attempt.
 *   <li>Giving up returns the last answer untouched, or throws {@link RateLimitedException} for
 *       a rate-limit rejection when {@link Builder#throwWhenRateLimited} is set. A call that
 *       cannot even be sent in time throws {@link RateLimitedException} at once, without sleeping.
 * </ol>
 *
 * <h2>Threads</h2>
 * Thread-safe: share one interceptor (and one client) across threads, as OkHttp recommends;
 * keys are shared by every call through it. Waiting blocks the calling thread, or a dispatcher
 * thread for {@code enqueue}d calls, so size the dispatcher for the waits you allow. A wait ends
 * within a few milliseconds of the call being cancelled or the thread interrupted, with an
 * {@link java.io.InterruptedIOException}. Only {@link IOException}s leave the interceptor, and
 * every answer it does not return is closed.
 *
 * <p>Add it as an application interceptor ({@code addInterceptor}), so that it sees each call once
 * and its retries go through OkHttp's whole chain.
 */
public final class PoliteInterceptor implements Interceptor {
  private static final long BODY_PEEK_BYTES = 16 * 1024;
  /**
   * How long a rejection's body may take to arrive for its hint to be read: an API writes its
   * error body with the headers, so it is here within a round trip or two of them; a second is
   * many round trips on any link, and bounds what a server that trickles the body costs the call.
   */
  private static final long BODY_PEEK_NANOS = 1_000_000_000L;
  private final PoliteConfig config;
  private final KeyStates keys;
  private final RetryRules retryRules;
  private final RateLimitHeaders headers;
  private final PoliteListener listener;
  /** Whether a call factory was made over this interceptor: set once, never cleared. */
  private volatile boolean servesFactory;

  private PoliteInterceptor(PoliteConfig config) {
    this.config = config;
    this.listener = config.listener();
    this.keys = new KeyStates(config);
    this.retryRules = new RetryRules(config);
    RateLimitHeaders parser = RateLimitHeaders.standard();
    for (RateLimitDialect dialect : config.dialects()) {
      parser = parser.with(dialect);
    }
    this.headers = parser;
  }

  /**
   * An interceptor with every default: told nothing about the server.
   *
   * <pre>{@code new OkHttpClient.Builder().addInterceptor(PoliteInterceptor.create()).build()}</pre>
   */
  public static PoliteInterceptor create() {
    return builder().build();
  }

  /**
   * Starts a configuration; every option has a default (see the README's reference).
   *
   * <pre>{@code PoliteInterceptor.builder().maxWait(Duration.ofSeconds(10)).build()}</pre>
   */
  public static Builder builder() {
    return new Builder(new PoliteConfig());
  }

  /** A builder holding this interceptor's configuration, to derive another (with fresh keys). */
  public Builder toBuilder() {
    return new Builder(new PoliteConfig(config));
  }

  /**
   * This interceptor's configuration, read-only.
   *
   * <pre>{@code Duration patience = interceptor.config().maxWait();}</pre>
   */
  public PoliteConfig config() {
    return config;
  }

  @Override
  public Response intercept(Chain chain) throws IOException {
    return intercept(chain, servesFactory ? chain.request().tag(Handoff.class) : null);
  }

  /**
   * A {@link PoliteCallFactory} was made over this interceptor's client: from now on its calls'
   * attempts come tagged with what they hand over, so every call looks for the tag.
   */
  void servesFactory() {
    servesFactory = true;
  }

  /**
   * The request path; {@code handoff} is what a {@link PoliteCallFactory} call handed over (its
   * own context, and for an asynchronous attempt the permit its scheduler won), or null for a
   * call made on the client. The factory's attempts go through the application's own client,
   * so once a factory is made over it every call looks for the tag; until then none does, since
   * on OkHttp 5 the lookup itself allocates (a Kotlin class reference for the tag's key).
   */
  Response intercept(Chain chain, @Nullable Handoff handoff) throws IOException {
    if (chain.connection() != null) {
      throw new IOException("PoliteInterceptor retries, so it must be added with addInterceptor, "
          + "not addNetworkInterceptor");
    }
    Request request = chain.request();
    if (handoff != null && handoff.claim()) {
      return handoff.attempted(attempt(chain, request, handoff.state(), handoff.permit(),
          handoff.call()));
    }
    CallContext call = handoff != null ? handoff.call() : contextOf(request, chain.call());
    if (config.observeOnly()) {
      return observe(chain, request, call);
    }
    CallRun run = new CallRun(this, call, chain.call(), config.ticker().read());
    Patience patience = run.patience();
    while (true) {
      KeyState waiting = run.state();
      Permit permit = waiting.acquire(new Acquisition(call, patience.waited()).movedWhen(run),
          patience);
      if (run.movedAfter(permit, waiting)) {
        continue; // an answer showed, while it waited, that the route spends another budget
      }
      Attempt attempt = attempt(chain, request, waiting, Objects.requireNonNull(permit), call);
      RetryRules.Next next = run.next(attempt);
      if (next.finish()) {
        return run.finish(attempt, next);
      }
      patience.sleep(next.delay().toNanos(), attempt.at());
    }
  }

  /**
   * The request path in observation mode: one attempt, sent at once and learnt from as usual,
   * its answer (or failure) handed back untouched; what enforcing would have done before it
   * (waited, refused) and after it (retried, given up) is told to the listener instead.
   */
  private Response observe(Chain chain, Request request, CallContext call) throws IOException {
    CallRun run = new CallRun(this, call, chain.call(), config.ticker().read());
    Permit permit;
    while ((permit = run.state().observe(call, run.patience())) == null) {
      run.restate(); // forgotten as the call came: the key's state now
    }
    Attempt attempt = attempt(chain, request, run.state(), permit, call);
    RetryRules.Next next = run.wouldFollow(attempt);
    if (!next.finish()) {
      listener.wouldRetry(call, next.attempts(), next.delay());
    } else if (next.gaveUp() != null) {
      Duration asked = attempt.signals().retryAfter();
      listener.wouldGiveUp(call, next.gaveUp(), asked != null ? asked : next.delay());
    }
    if (attempt.failure() != null) {
      throw attempt.failure();
    }
    return Objects.requireNonNull(attempt.response());
  }

  /**
   * The state of the budget {@code call}'s request spends: its key's own, unless answers to its
   * route named another of the key's budgets ({@link dev.polite.internal.KeyBudgets}).
   */
  KeyState stateOf(CallContext call) {
    return stateOf(call, keys.get(call.key()));
  }

  /**
   * As {@link #stateOf(CallContext)}, for a call whose state was {@code current}: no lookup while
   * its key keeps one budget, as most do (every attempt asks).
   */
  KeyState stateOf(CallContext call, KeyState current) {
    while (current.isRetired()) {
      current = keys.get(call.key()); // forgotten while the call held it: the key's state now
    }
    KeyState key = current.key().equals(call.key()) ? current : keys.get(call.key());
    String spent = key.budgets().spentBy(call.request(), key::isPaused);
    if (spent.equals(current.key())) {
      return current;
    }
    return spent.equals(key.key()) ? key : keys.get(spent);
  }

  /** The state of the budget an answer to {@code call} with {@code signals} counts against. */
  private KeyState ownerOf(KeyState sentThrough, CallContext call, RateLimitSignals signals) {
    if (signals.bucket() == null) {
      return sentThrough; // most answers name no budget: no lookup
    }
    KeyState key = sentThrough.key().equals(call.key()) ? sentThrough : keys.get(call.key());
    String owner = key.budgets().answeredFor(call.request(), signals.bucket(),
        signals.isRejection() || signals.isQuotaSpent(), sentThrough.key());
    return owner.equals(sentThrough.key()) ? sentThrough : keys.get(owner);
  }

  /**
   * The context of {@code request} (made by the application) on {@code call}.
   *
   * @throws IOException when the cost function throws or answers a cost that is not positive
   *     and finite (see {@link #costOf})
   */
  CallContext contextOf(Request request, @Nullable Call call) throws IOException {
    String key = keyOf(request);
    RequestCost tag = request.tag(RequestCost.class); // read once per call: the default cost too
    double cost = config.cost() == PoliteConfig.DEFAULT_COST
        ? (tag == null ? 1 : tag.units()) : costOf(request, key);
    return CallContext.of(key, request, call, cost,
        tag != null && tag.isReservation() ? tag : null);
  }

  /**
   * The key function's answer for {@code request}: null, or the function throwing, fails this
   * call as an {@link IOException} (as a bad cost does, see {@link #costOf}), never lets a
   * runtime exception out of the interceptor.
   */
  private String keyOf(Request request) throws IOException {
    String key;
    try {
      key = config.key().keyOf(request);
    } catch (RuntimeException e) {
      throw new IOException("polite: not sending " + request.method() + " "
          + request.url().redact() + ": the key function threw: " + e, e);
    }
    if (key == null) {
      throw new IOException("polite: not sending " + request.method() + " "
          + request.url().redact() + ": the key function answered null");
    }
    return key;
  }

  /**
   * The configured cost function's answer for {@code request}, held to the rule a
   * {@link RequestCost} is built to: positive and finite. Unchecked, NaN would make the call free
   * (every comparison with it is false), a negative cost would give the key's bucket tokens that
   * its other calls then spend, and an infinite one would wait for ever. So a bad answer, or the
   * function throwing, fails this call here, before it takes a permit or makes its key, and
   * leaves every other call as it was: as an {@link IOException}, the only kind that may leave an
   * interceptor (anything else crashes OkHttp's asynchronous calls), naming the key and the value,
   * with the cause the {@link IllegalArgumentException} a {@link RequestCost} would have thrown
   * (or what the function threw).
   */
  private double costOf(Request request, String key) throws IOException {
    double cost;
    try {
      cost = config.cost().applyAsDouble(request);
    } catch (RuntimeException e) {
      throw new IOException("polite: not sending to " + key + ": the cost function threw for "
          + request.method() + " " + request.url().redact() + ": " + e, e);
    }
    try {
      RequestCost.checkUnits(cost);
    } catch (IllegalArgumentException e) {
      throw new IOException("polite: not sending to " + key + ": the cost function answered "
          + cost + " for " + request.method() + " " + request.url().redact()
          + "; a cost must be positive and finite", e);
    }
    return cost;
  }

  /**
   * Asks the call's retries what follows {@code attempt}; when it is a retry, tells the listener
   * and closes the answer it will not return.
   */
  RetryRules.Next next(RetryRules.CallRetries retries, Attempt attempt, KeyState state,
      CallContext call, Patience patience) {
    if (!attempt.retryable()) {
      return retries.done(); // most answers: no retry to weigh, so nothing to ask the key
    }
    long at = attempt.at();
    RetryRules.Next next = retries.next(attempt, () -> state.waitEstimate(call.cost(), at),
        needed -> patience.allows(needed, at));
    if (!next.finish()) {
      listener.retryScheduled(call, next.attempts(), next.delay());
      CallRun.closeQuietly(attempt);
    }
    return next;
  }

  /** Sends one attempt with its permit, and learns from what comes back. */
  private Attempt attempt(Chain chain, Request request, KeyState state, Permit permit,
      CallContext call) throws IOException {
    RequestCost reservation = call.reservation();
    if (reservation != null) {
      reservation.charged(call.cost(), state::settle);
    }
    Response response;
    try {
      response = chain.proceed(request);
    } catch (IOException e) {
      state.onFailure();
      Attempt failed = retryRules.judge(request, e, chain.call().isCanceled(),
          config.ticker().read());
      if (!failed.retryable()) {
        throw e;
      }
      return failed;
    } catch (RuntimeException | Error e) {
      state.onFailure();
      throw e;
    }
    boolean learnt = false;
    try {
      RateLimitSignals signals = learnable(response)
          ? headers.parse(response.code(), response.headers(), config.wallClock().millis())
          : RateLimitSignals.none();
      KeyState owner = ownerOf(state, call, signals);
      long at = owner == state ? state.onAnswer(response.code(), signals, permit, call)
          : owner.onAnswerSentThrough(state, response.code(), signals, permit, call,
              reservation == null);
      learnt = true;
      if (config.readRetryHintsFromBody() && signals.isRejection()) {
        // After the headers are learnt, so that a body slow to come holds no permit or gate.
        RateLimitSignals withBody = headers.withBody(signals, response.header("Content-Type"),
            peek(response));
        if (!Objects.equals(withBody.retryAfter(), signals.retryAfter())) {
          owner.onBodyHint(response.code(), withBody, at);
        }
        signals = withBody;
      }
      return retryRules.judge(request, response, signals, at);
    } catch (RuntimeException | Error e) {
      // Something of the application's (its wall clock, a dialect, a key function) or a bug
      // threw between the answer and its learning: the answer is not returned, so it is
      // closed, and the call's place in flight given back, or a gate of one stays shut.
      response.close();
      if (!learnt) {
        state.onFailure();
      }
      if (e instanceof Error error) {
        throw error;
      }
      throw new IOException("polite: learning from " + request.method() + " "
          + request.url().redact() + "'s answer " + response.code() + " failed: " + e, e);
    }
  }

  /**
   * A prefix of a rejection's body, read for at most {@link #BODY_PEEK_NANOS}; the body itself
   * stays readable for the caller, unless it was still coming at that time (then the call is
   * cut off there, and its answer returned with a body that fails to read, as a read time-out's).
   */
  private static @Nullable String peek(Response response) {
    Timeout timeout = response.body().source().timeout();
    boolean hadDeadline = timeout.hasDeadline();
    long deadline = hadDeadline ? timeout.deadlineNanoTime() : 0;
    timeout.deadline(BODY_PEEK_NANOS, TimeUnit.NANOSECONDS); // on Okio's clock, as its reads
    if (hadDeadline && deadline - timeout.deadlineNanoTime() < 0) {
      timeout.deadlineNanoTime(deadline); // the call's own deadline comes first
    }
    try {
      return response.peekBody(BODY_PEEK_BYTES).string();
    } catch (IOException e) {
      return null; // a body we cannot read has no hint in it; the answer is still returned
    } finally {
      if (hadDeadline) {
        timeout.deadlineNanoTime(deadline);
      } else {
        timeout.clearDeadline();
      }
    }
  }

  /** Answers from OkHttp's cache say nothing about the server's budget now. */
  private static boolean learnable(Response response) {
    return response.networkResponse() != null || response.cacheResponse() == null;
  }

  /** Ends the call with {@code attempt}: its answer, its failure, or the give-up. */
  Response finish(CallContext call, Attempt attempt, @Nullable GiveUpReason reason,
      Duration requested) throws IOException {
    if (reason != null) {
      Duration asked = attempt.signals().retryAfter() != null
          ? attempt.signals().retryAfter() : requested;
      listener.gaveUp(call, reason, asked);
    }
    if (attempt.failure() != null) {
      throw attempt.failure();
    }
    Response response = Objects.requireNonNull(attempt.response());
    if (reason != null && attempt.rateLimited() && config.throwWhenRateLimited()) {
      response.close();
      Duration asked = attempt.signals().retryAfter();
      throw new RateLimitedException(call.key(), asked != null ? asked : requested,
          attempt.signals(), "polite: " + call.key() + " answered " + response.code()
          + " and polite gave up (" + reason + ")");
    }
    return response;
  }

  /**
   * What this interceptor knows about {@code key} now, if it holds the key.
   *
   * <pre>{@code polite.snapshot("https://api.github.com:443").map(KeySnapshot::pace)}</pre>
   */
  public Optional<KeySnapshot> snapshot(String key) {
    KeyState state = keys.find(key);
    return state == null ? Optional.empty() : Optional.of(state.snapshot());
  }

  /**
   * What this interceptor knows about every key it holds now, in no particular order.
   *
   * <pre>{@code polite.snapshots().forEach(k -> System.out.println(k.key() + " " + k.pace()))}</pre>
   */
  public List<KeySnapshot> snapshots() {
    List<KeySnapshot> all = new ArrayList<>();
    for (KeyState state : keys.all()) {
      all.add(state.snapshot());
    }
    return all;
  }

  KeyStates keys() {
    return keys;
  }

  RetryRules retryRules() {
    return retryRules;
  }

  @Override
  public String toString() {
    return "PoliteInterceptor{" + config + '}';
  }

  /**
   * Configures a {@link PoliteInterceptor}; each setter validates its argument and names it
   * when it refuses. Not thread-safe; the interceptor it builds is.
   *
   * <pre>{@code
   * PoliteInterceptor polite = PoliteInterceptor.builder()
   *     .key(RateLimitKey.header("X-Api-Key"))
   *     .maxAttempts(5)
   *     .build();
   * }</pre>
   */
  public static final class Builder {
    private final PoliteConfig draft;

    private Builder(PoliteConfig draft) {
      this.draft = draft;
    }

    /**
     * Reads a vendor's rate-limit headers that polite does not know, after the built-in dialects.
     * Default: the built-in dialects only.
     *
     * <pre>{@code builder.addDialect(new AcmeDialect())}</pre>
     */
    public Builder addDialect(RateLimitDialect dialect) {
      Objects.requireNonNull(dialect, "dialect");
      List<RateLimitDialect> more = new ArrayList<>(draft.dialects);
      more.add(dialect);
      draft.dialects = List.copyOf(more);
      return this;
    }

    /**
     * Whether to look into the JSON body of a rate-limit rejection for a retry hint (Discord's
     * {@code retry_after}, Matrix's {@code retry_after_ms}): the first 16 KiB are peeked, and the
     * body stays readable. The key learns from the headers first, so a body slow to come holds no
     * other call back; the peek waits at most a second for it (a body still coming then is cut
     * off, and fails to read as on a read time-out). Default false: headers only.
     */
    public Builder readRetryHintsFromBody(boolean readBodies) {
      draft.readRetryHintsFromBody = readBodies;
      return this;
    }

    /** What a request counts against. Default {@link RateLimitKey#host()}. */
    public Builder key(RateLimitKey key) {
      draft.key = Objects.requireNonNull(key, "key");
      return this;
    }

    /**
     * What a request costs, in the units of its key's budget; must answer a positive finite
     * number. Default {@link RequestCost#of(Request)}: the request's tag, or 1. A call for which
     * it answers anything else (zero, a negative number, NaN, an infinity) or throws fails with
     * an {@link IOException} naming its key and the answer, before it is sent or takes anything
     * from its key.
     */
    public Builder cost(ToDoubleFunction<Request> cost) {
      draft.cost = Objects.requireNonNull(cost, "cost");
      return this;
    }

    /**
     * A pace for every key before its server says anything, in requests per second. Default:
     * none (unlimited until learned). The server's advertised rate replaces it.
     */
    public Builder startingRate(double requestsPerSecond) {
      if (!(requestsPerSecond > 0)) {
        throw new IllegalArgumentException("startingRate must be positive: " + requestsPerSecond);
      }
      draft.startingRate = requestsPerSecond;
      return this;
    }

    /** The burst of the starting pace: how many calls may go at once. Default 1. */
    public Builder startingBurst(double calls) {
      if (!(calls >= 1) || Double.isInfinite(calls)) {
        throw new IllegalArgumentException("startingBurst must be at least 1 and finite: " + calls);
      }
      draft.startingBurst = calls;
      return this;
    }

    /**
     * Whether a key lets only one call be in flight until its first answer, so that a burst of
     * first calls cannot blow through a limit nobody has seen yet. Default true.
     */
    public Builder cautiousStart(boolean cautiousStart) {
      draft.cautiousStart = cautiousStart;
      return this;
    }

    /** Discovers a pace for keys whose servers advertise none. Default {@link Aimd#defaults()}. */
    public Builder rateController(RateController.Factory rateController) {
      draft.rateController = Objects.requireNonNull(rateController, "rateController");
      return this;
    }

    /**
     * Attempts in all while they fail (502, 503, 504, I/O errors), the first included; 1 turns
     * those retries off. Rate-limit refusals are counted apart ({@link #maxRateLimitRetries}).
     * Default 4.
     *
     * <pre>{@code builder.maxAttempts(1)   // never repeat a call that failed}</pre>
     */
    public Builder maxAttempts(int maxAttempts) {
      if (maxAttempts < 1) {
        throw new IllegalArgumentException("maxAttempts must be at least 1: " + maxAttempts);
      }
      draft.maxAttempts = maxAttempts;
      return this;
    }

    /**
     * Shapes the retries of failures with Failsafe's own {@link RetryPolicy}, instead of
     * {@link #maxAttempts} and polite's backoff: the outcomes it handles ({@code handle},
     * {@code handleResultIf}) are the failures retried, and its attempts, max duration, aborts,
     * delay, backoff and jitter apply. polite keeps its own rules around it: a request that is
     * not safe to repeat is never resent after an I/O error or a 5xx other than 503, the server's
     * {@code Stripe-Should-Retry: false} ends the call, a delay the server named is honoured
     * (never sooner), and the key's retry budget, the max wait and the call's timeout still bound
     * the retries. Rate-limit refusals are not failures ({@link #maxRateLimitRetries}). Default:
     * polite's own policy (502, 503, 504, I/O errors; 4 attempts; full-jitter backoff).
     *
     * <pre>{@code
     * builder.failureRetries(RetryPolicy.<Response>builder()
     *     .handle(IOException.class)
     *     .handleResultIf(r -> r.code() >= 500)
     *     .withMaxAttempts(6)
     *     .withBackoff(Duration.ofMillis(200), Duration.ofSeconds(10))
     *     .build())
     * }</pre>
     */
    public Builder failureRetries(RetryPolicy<Response> policy) {
      draft.failureRetries = Objects.requireNonNull(policy, "policy");
      return this;
    }

    /**
     * Retries per call after rate-limit refusals (429, a 403 reporting a spent quota); 0 turns
     * them off. A refusal is retried only when the wait it needs fits the max wait and the call's
     * deadline, and it spends nothing from the retry budget: against a server that is merely
     * limiting, the pace and that wait bound the load. Default 10.
     *
     * <pre>{@code builder.maxRateLimitRetries(0)   // hand every 429 back at once}</pre>
     */
    public Builder maxRateLimitRetries(int retries) {
      if (retries < 0) {
        throw new IllegalArgumentException("maxRateLimitRetries must not be negative: " + retries);
      }
      draft.maxRateLimitRetries = retries;
      return this;
    }

    /**
     * The backoff: the first retry's ceiling when the server named no delay, doubling per
     * attempt up to {@code cap}. Defaults 500 ms and 30 s.
     */
    public Builder backoff(Duration base, Duration cap) {
      if (base.isNegative() || base.isZero()) {
        throw new IllegalArgumentException("backoff base must be positive: " + base);
      }
      if (cap.compareTo(base) < 0) {
        throw new IllegalArgumentException("backoff cap must be at least the base: " + cap);
      }
      draft.backoffBase = base;
      draft.backoffCap = cap;
      return this;
    }

    /**
     * The retry budget per key (gRPC retry throttling): retries spend tokens, successes earn
     * {@code tokenRatio} back, and no retry is made at or below half of {@code maxTokens}.
     * Defaults 10 and 0.1.
     */
    public Builder retryBudget(double maxTokens, double tokenRatio) {
      if (!(maxTokens > 0 && maxTokens <= 1000)) {
        throw new IllegalArgumentException("retryBudget maxTokens must be in (0, 1000]: " + maxTokens);
      }
      if (!(tokenRatio > 0) || Double.isInfinite(tokenRatio)) {
        throw new IllegalArgumentException("retryBudget tokenRatio must be positive: " + tokenRatio);
      }
      draft.retryBudgetTokens = maxTokens;
      draft.retryBudgetRatio = tokenRatio;
      return this;
    }

    /**
     * The most time polite adds to one call in all, waiting for its pace, a pause or a retry.
     * A wait that would exceed it, or the call's own timeout, is not begun. Default 60 s.
     */
    public Builder maxWait(Duration maxWait) {
      if (maxWait.isNegative()) {
        throw new IllegalArgumentException("maxWait must not be negative: " + maxWait);
      }
      draft.maxWait = maxWait;
      return this;
    }

    /**
     * Whether giving up on a rate-limit rejection throws {@link RateLimitedException} (true) or
     * returns the rejection as it came (false, the default).
     */
    public Builder throwWhenRateLimited(boolean throwWhenRateLimited) {
      draft.throwWhenRateLimited = throwWhenRateLimited;
      return this;
    }

    /**
     * Adds a listener that hears what polite does; each hears every event, in the order added.
     * Default: nothing hears.
     *
     * <pre>{@code builder.addListener(metrics).addListener(auditLog)}</pre>
     */
    public Builder addListener(PoliteListener listener) {
      Objects.requireNonNull(listener, "listener");
      List<PoliteListener> more = new ArrayList<>(draft.listeners);
      more.add(listener);
      draft.listeners = List.copyOf(more);
      return this;
    }

    /** The most keys remembered; idle ones are forgotten past it. Default 10,000. */
    public Builder maxKeys(int maxKeys) {
      if (maxKeys < 1) {
        throw new IllegalArgumentException("maxKeys must be at least 1: " + maxKeys);
      }
      draft.maxKeys = maxKeys;
      return this;
    }

    /**
     * Shares each key's budget with every other instance on the same shared state: its pace,
     * tokens, pause and the server's remaining count (see {@link SharedState}). Default
     * {@link SharedState#none()}: this instance alone.
     *
     * <pre>{@code builder.sharedState(RedisSharedState.connect("redis://redis:6379"))}</pre>
     */
    public Builder sharedState(SharedState sharedState) {
      draft.sharedState = Objects.requireNonNull(sharedState, "sharedState");
      return this;
    }

    /** The clock polite reads and sleeps on; tests pass a fake. Default the system's. */
    public Builder clock(Ticker ticker, Sleeper sleeper) {
      draft.ticker = Objects.requireNonNull(ticker, "ticker");
      draft.sleeper = Objects.requireNonNull(sleeper, "sleeper");
      return this;
    }

    /** The calendar clock, for server dates when a response has no Date. Default the system's. */
    public Builder wallClock(WallClock wallClock) {
      draft.wallClock = Objects.requireNonNull(wallClock, "wallClock");
      return this;
    }

    /** The jitter's source of randomness; tests pass a seeded one. Default per-thread random. */
    public Builder random(RandomGenerator random) {
      draft.random = Objects.requireNonNull(random, "random");
      return this;
    }

    /**
     * Observation mode: polite learns every key as usual, and tells its listeners what it would
     * have done ({@link PoliteListener#wouldWait}, {@link PoliteListener#wouldRetry},
     * {@link PoliteListener#wouldGiveUp}) and logs each key's changes of what it would do, once
     * per change; but it sends every call at once, never retries, and returns every answer (and
     * throws every failure) as it came. The way a limit is rolled out: observe for a while, read
     * the meters, then enforce. Each instance observes alone: not with a
     * {@link #sharedState}, whose other instances would be held by pauses that this one only
     * pretends to keep. Default false: polite enforces.
     *
     * <pre>{@code builder.observeOnly(true).addListener(metrics)   // a week in production, then enforce}</pre>
     */
    public Builder observeOnly(boolean observeOnly) {
      draft.observeOnly = observeOnly;
      return this;
    }

    /** The interceptor; each has its own keys, and its own copy of this configuration. */
    public PoliteInterceptor build() {
      if (draft.startingBurst > 1 && Double.isInfinite(draft.startingRate)) {
        throw new IllegalStateException("startingBurst needs a startingRate");
      }
      if (draft.observeOnly && draft.sharedState != SharedState.none()) {
        throw new IllegalStateException("observeOnly cannot share keys with a fleet ("
            + draft.sharedState + "): observe each instance alone, and share once it enforces");
      }
      return new PoliteInterceptor(new PoliteConfig(draft));
    }

    @Override
    public String toString() {
      return draft.toString();
    }
  }
}
