package dev.polite.demo.internal;

import dev.polite.demo.DemoServerConfig;
import dev.polite.demo.SecondPolicy;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.util.AsciiString;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiConsumer;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Answers every request under {@code /api/}: resolve the key, price the route, check the key's
 * concurrency, ask the store, count, then answer 200 with the quota headers or 429 (or 403, by
 * {@code --reject-status}) with {@code Retry-After} (in the style's shape, or none) and the same
 * headers. Never 503 for a rate limit: a 503 says the store could not decide at all (its pool of
 * Redis connections stayed full, {@link StoreBusyException}).
 *
 * <p>A 403 refusal of the concurrency cap carries the quota headers of what the limiter last said
 * to that key, as GitHub's secondary limit does: 403 also means "forbidden", and a limiter's
 * remaining of 0, or not, is all that tells a client which limit refused it. A 429 refusal of the
 * cap stays as it was, with {@code Retry-After} only.
 *
 * <p>Headers that state an absolute time read the server's clock plus the configured skew; the
 * {@code Date} header is set here, on every answer, from that same clock, so nothing the answer
 * says contradicts it.
 *
 * <p>A memory decision takes well under a microsecond, so it runs on the I/O thread; a Redis
 * decision can block for its timeout, so the exchange is first dispatched to a worker thread.
 * Delays (the leaky queue's wait, simulated latency) are timers on the I/O thread, not sleeping
 * threads, so a queue of thousands of delayed requests holds no thread.
 *
 * <p>A rejection is the hot path of a flood, so it allocates little: the 429 bodies are prepared
 * once and sent as views, header names are interned {@link AsciiString}s, and a key by peer
 * address is worked out once per connection.
 *
 * <p>With route budgets ({@link Budgets}) the request's path picks the budget it spends first: its
 * store decides, its headers answer (naming it), its refusal body names it as the violated policy,
 * and the stats count it. The concurrency cap stays the key's as a whole, over every budget; its
 * 403 shows what the refused request's own budget last said to that key.
 *
 * <p>With a second policy ({@code --second-policy}) every call must also pass a fixed window per key,
 * decided together with the limiter ({@link SecondWindows}): a refusal's {@code Retry-After} is the
 * refusing policy's, and the IETF fields list both.
 *
 * <p>Some refusals are no limiter's decision about the call at hand ({@link #outright}): every call
 * of a server that refuses all ({@code --refuse-all}), every Nth answer of one that refuses now and
 * then with a hint no one can use ({@code --bogus-refusal-every}), and a key blocked after the
 * limiter refused it ({@code --block-for}, {@link Blocks}). They are refused before the cap and the
 * limiter are asked, spending nothing. Such a refusal, and the limiter's refusal that starts a
 * block, carry {@code Retry-After} in whole seconds and no quota headers, whatever the style: a
 * CDN's rule says when to come back, not what is left, and a broken limiter has nothing to say.
 *
 * <p>In dry-run the limiter still decides and counts, but every request is served; would-be
 * rejections are logged as one line per second at most, so a flood cannot become a log flood.
 *
 * <p>With {@code --drop-every N}, every Nth request is read and then dropped: its connection is
 * closed with no answer, before the limiter sees it, and the stats count it as dropped, neither
 * admitted nor refused.
 */
public final class ApiHandler implements Endpoint {
  private static final Logger log = LoggerFactory.getLogger(ApiHandler.class);
  private static final AsciiString CACHE_CONTROL = AsciiString.cached("Cache-Control");
  private static final AsciiString FORWARDED_FOR = AsciiString.cached("X-Forwarded-For");
  private static final String PROBLEM = "{\"type\":\"https://iana.org/assignments/http-problem-types#quota-exceeded\","
      + "\"title\":\"%s\",\"status\":%d,\"violated-policies\":[\"%s\"],\"limit\":\"%s\"}";

  /** The refusal bodies, prepared once: a flood of rejections should cost as little as possible. */
  private static final ByteBuf RATE_PROBLEM = problemBody(429, QuotaHeaders.DEFAULT_POLICY, "rate");
  private static final ByteBuf CONCURRENCY_PROBLEM = problemBody(429, QuotaHeaders.DEFAULT_POLICY, "concurrency");
  private static final ByteBuf RATE_FORBIDDEN = problemBody(403, QuotaHeaders.DEFAULT_POLICY, "rate");
  private static final ByteBuf CONCURRENCY_FORBIDDEN = problemBody(403, QuotaHeaders.DEFAULT_POLICY, "concurrency");
  private static final AsciiString PROBLEM_JSON = AsciiString.cached("application/problem+json");
  private static final AsciiString JSON = AsciiString.cached("application/json");
  private static final AsciiString TEXT = AsciiString.cached("text/plain; charset=utf-8");
  private static final AsciiString NO_STORE = AsciiString.cached("no-store");
  private static final AsciiString RETRY_AFTER = AsciiString.cached("Retry-After");
  private static final AsciiString ONE_SECOND = AsciiString.cached("1");

  /** A slot frees when a request in flight ends, which no one can know: ask for a second. */
  private static final long CONCURRENCY_RETRY_NANOS = 1_000_000_000L;

  private static final Map<String, AsciiString> HEADER_NAMES = new HashMap<>();

  static {
    for (String name : QuotaHeaders.NAMES) {
      HEADER_NAMES.put(name, AsciiString.cached(name));
    }
  }

  private final DemoServerConfig config;
  private final Budgets budgets;
  /** Each budget's refusal body by its index: the prepared default one, or one naming the budget. */
  private final ByteBuf[] rateProblems;
  private final TrafficStats stats;
  private final ClientKeys keys;
  private final InFlight inFlight;
  private final AsciiString apiKeyHeader;
  private final @Nullable CostHeader costHeader;
  private final long latencyNanos;
  private final LongSupplier epochMillis;
  private final long skewMillis;
  private final int rejectStatus;
  private final ByteBuf rateProblem;
  private final ByteBuf concurrencyProblem;
  private final boolean trustsSomeProxy;
  private final boolean dryRun; // read on every request: the config holds its values in a map
  private final boolean refuseAll;
  private final AsciiString refuseAllRetryAfter;
  private final int bogusEvery;
  private final AtomicLong bogusAnswers = new AtomicLong();
  private final AsciiString bogusRetryAfter;
  private final @Nullable Blocks blocks;
  private final @Nullable SecondWindows secondWindows;
  private final @Nullable QuotaHeaders secondHeaders;
  private final AsciiString blockRetryAfter;
  private final LongSupplier nanos;
  private final AtomicLong dryRunSecond = new AtomicLong(Long.MIN_VALUE);
  private final AtomicLong dryRunCount = new AtomicLong();
  private final AtomicLong busySecond = new AtomicLong(Long.MIN_VALUE);
  private final int dropEvery;
  private final AtomicLong arrived = new AtomicLong();

  public ApiHandler(DemoServerConfig config, Budgets budgets, TrafficStats stats, LongSupplier epochMillis) {
    this.config = config;
    this.budgets = budgets;
    this.stats = stats;
    this.keys = new ClientKeys(new TrustedProxies(config.trustedProxies()));
    this.inFlight = config.concurrency() > 0 ? new InFlight(config.concurrency(), budgets.entries().size()) : null;
    this.apiKeyHeader = AsciiString.cached(config.apiKeyHeader());
    this.costHeader = CostHeader.of(config);
    this.latencyNanos = Nanos.of(config.latency());
    this.epochMillis = epochMillis;
    this.skewMillis = config.clockSkew().toMillis();
    this.rejectStatus = config.rejectStatus();
    boolean forbidden = rejectStatus == 403;
    this.rateProblem = forbidden ? RATE_FORBIDDEN : RATE_PROBLEM;
    this.concurrencyProblem = forbidden ? CONCURRENCY_FORBIDDEN : CONCURRENCY_PROBLEM;
    this.rateProblems = new ByteBuf[budgets.entries().size()];
    for (Budgets.Entry budget : budgets.entries()) {
      String shown = budget.headers().policyName(); // "default" when answers name no budget
      rateProblems[budget.index()] = shown.equals(QuotaHeaders.DEFAULT_POLICY) ? rateProblem
          : problemBody(rejectStatus, shown, "rate");
    }
    this.dryRun = config.dryRun();
    this.dropEvery = config.dropEvery();
    this.trustsSomeProxy = !config.trustedProxies().isEmpty();
    long blockNanos = Nanos.of(config.blockFor());
    this.blocks = blockNanos > 0 ? new Blocks(blockNanos, config.maxKeys()) : null;
    this.blockRetryAfter = wholeSeconds(blockNanos);
    this.refuseAll = config.refuseAll();
    this.refuseAllRetryAfter = wholeSeconds(Nanos.of(config.refuseAllRetryAfter()));
    this.bogusEvery = config.bogusRefusalEvery();
    this.bogusRetryAfter = wholeSeconds(Nanos.of(config.bogusRetryAfter()));
    this.nanos = () -> Nanos.sinceEpoch(config.clock().instant());
    SecondPolicy second = config.secondPolicy().orElse(null);
    this.secondWindows = second == null ? null : new SecondWindows(second, config.maxKeys());
    this.secondHeaders = second == null ? null : budgets.entries().get(0).headers().forSecond(second);
  }

  /** {@code Retry-After}'s value for {@code nanos}: whole seconds, rounded up. */
  private static AsciiString wholeSeconds(long nanos) {
    return AsciiString.cached(Long.toString(QuotaHeaders.seconds(nanos)));
  }

  @Override
  public void handle(Exchange exchange) {
    if (dropEvery > 0 && arrived.incrementAndGet() % dropEvery == 0) {
      stats.recordDropped();
      exchange.drop();
      return;
    }
    if (budgets.blocking()) {
      exchange.dispatch(() -> decide(exchange));
      return;
    }
    decide(exchange);
  }

  private void decide(Exchange exchange) {
    String key = keyOf(exchange);
    Budgets.Entry budget = budgets.of(exchange.path());
    QuotaHeaders headers = budget.headers();
    BiConsumer<String, String> header = (name, value) -> exchange.header(headerName(name), value);
    long serverMillis = epochMillis.getAsLong() + skewMillis;
    headers.writeDate(serverMillis, header);
    AsciiString outright = outright(key);
    if (outright != null) {
      stats.record(key, budget.index(), false);
      if (!dryRun) {
        refuseOutright(exchange, outright, rateProblems[budget.index()]);
        return;
      }
      wouldReject(key);
    }
    if (inFlight != null) {
      if (!inFlight.tryEnter(key)) {
        stats.record(key, budget.index(), false);
        if (!dryRun) {
          InFlight.Said said = rejectStatus == 403 ? inFlight.lastSaid(key, budget.index()) : null;
          if (said != null) {
            // As of when it was said: an epoch reset stays right, a delta one errs long
            headers.write(said.decision(), said.epochMillis(), header);
          }
          headers.writeRetryAfter(CONCURRENCY_RETRY_NANOS, serverMillis, header);
          problem(exchange, concurrencyProblem);
          return;
        }
        wouldReject(key);
      } else {
        exchange.whenDone(() -> inFlight.exit(key));
      }
    }
    long cost = config.costOf(exchange.path());
    boolean reserving = false; // a cost the client named, which a refund may give back
    if (costHeader != null) {
      String named = exchange.requestHeader(costHeader.name());
      if (named != null) {
        String refused = costHeader.refusal(named, budget.capacity());
        if (refused != null) {
          badRequest(exchange, refused);
          return;
        }
        cost = Long.parseLong(named.trim());
        reserving = cost > 0 && costHeader.refunds();
      }
    }
    Decision decision;
    SecondWindows.Both both = null; // what both policies said, with a second policy
    try {
      String storeKey = budget.storeKey(key);
      LimiterStore store = budget.store();
      long units = cost;
      boolean reserves = reserving;
      Supplier<Decision> limiter = () -> reserves ? store.reserve(storeKey, units) : store.acquire(storeKey, units);
      if (secondWindows != null && cost > 0) {
        both = secondWindows.decide(storeKey, cost, nanos.getAsLong(), limiter);
        decision = both.binding();
      } else {
        decision = limiter.get();
      }
    } catch (StoreBusyException busy) {
      unavailable(exchange, busy);
      return;
    }
    if (inFlight != null) {
      inFlight.said(key, budget.index(), decision, serverMillis);
    }
    if (cost < 0) {
      headers.write(decision, serverMillis, header);
      refund(exchange, -cost, decision);
      return;
    }
    stats.record(key, budget.index(), decision.allowed());
    if (!decision.allowed() && blocks != null) {
      // The refusal starts a block: it says how long that lasts, and nothing of the quota
      blocks.block(key, nanos.getAsLong());
      if (!dryRun) {
        refuseOutright(exchange, blockRetryAfter, rateProblems[budget.index()]);
        return;
      }
    }
    if (both != null) {
      headers.write(both.main(), both.second(), secondHeaders, header);
    } else {
      headers.write(decision, serverMillis, header);
    }
    if (!decision.allowed()) {
      if (!dryRun) {
        headers.writeRetryAfter(decision.retryAfterNanos(), serverMillis, header);
        problem(exchange, rateProblems[budget.index()]);
        return;
      }
      wouldReject(key);
    }
    long delay = Nanos.saturatedAdd(decision.delayNanos(), latencyNanos);
    if (delay <= 0) {
      ok(exchange, decision);
      return;
    }
    exchange.later(delay, () -> ok(exchange, decision));
  }

  /**
   * The {@code Retry-After} of a refusal that no limiter decides for this call, or null when the
   * call goes on to the cap and the limiter: every call's with {@code --refuse-all}, every Nth
   * answer's with {@code --bogus-refusal-every} (each call counts as one answer), and a blocked
   * key's (which restarts its block).
   */
  private @Nullable AsciiString outright(String key) {
    if (refuseAll) {
      return refuseAllRetryAfter;
    }
    if (bogusEvery > 0 && bogusAnswers.incrementAndGet() % bogusEvery == 0) {
      return bogusRetryAfter;
    }
    if (blocks != null && blocks.refuses(key, nanos.getAsLong())) {
      return blockRetryAfter;
    }
    return null;
  }

  /** A refusal that says when to come back, {@code retryAfter} whole seconds, and no quota. */
  private void refuseOutright(Exchange exchange, AsciiString retryAfter, ByteBuf body) {
    exchange.header(RETRY_AFTER, retryAfter);
    problem(exchange, body);
  }

  /** A refusal body with {@code status}, naming {@code policy} as violated and the {@code limit} that refused. */
  private static ByteBuf problemBody(int status, String policy, String limit) {
    return prepared(PROBLEM.formatted(status == 403 ? "Forbidden" : "Too Many Requests", status, policy, limit));
  }

  private static ByteBuf prepared(String body) {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    return Unpooled.unreleasableBuffer(Unpooled.directBuffer(bytes.length).writeBytes(bytes).asReadOnly());
  }

  private static AsciiString headerName(String name) {
    AsciiString known = HEADER_NAMES.get(name);
    return known != null ? known : new AsciiString(name);
  }

  private String keyOf(Exchange exchange) {
    String apiKey = exchange.requestHeader(apiKeyHeader);
    if (apiKey == null && (!trustsSomeProxy || exchange.requestHeader(FORWARDED_FOR) == null)) {
      // Keyed by the peer, which a connection keeps: work its key out once per connection, not
      // once per request (a keep-alive client sends thousands on one)
      return exchange.peerKey(peer -> keys.keyOf(null, peer.getAddress(), List.of()));
    }
    List<String> forwardedFor = trustsSomeProxy ? exchange.requestHeaders(FORWARDED_FOR) : List.of();
    return keys.keyOf(apiKey, exchange.peer().getAddress(), forwardedFor);
  }

  /**
   * A refund is not a request: not counted as one, never refused for the rate. It is answered 200
   * with what it gave back ({@code refunded}, at most what the key reserved and has not had back)
   * and what remains, or 409 when it gave back nothing; either way counted in the stats' refunds.
   */
  private void refund(Exchange exchange, long asked, Decision decision) {
    long given = decision.refunded();
    stats.recordRefund(asked, given);
    if (given == 0) {
      exchange.send(409, TEXT, costHeader.name() + ": -" + asked + " asks for units back, but this key has nothing"
          + " reserved that it has not had back (a refund returns at most what requests naming their cost"
          + " reserved, once, and what the refill has not given back already)\n");
      return;
    }
    exchange.send(200, JSON, "{\"ok\":true,\"remaining\":" + decision.remaining() + ",\"refunded\":" + given + "}");
  }

  private static void ok(Exchange exchange, Decision decision) {
    exchange.send(200, JSON, "{\"ok\":true,\"remaining\":" + decision.remaining() + "}");
  }

  private static void badRequest(Exchange exchange, String detail) {
    exchange.send(400, TEXT, detail + "\n");
  }

  private void problem(Exchange exchange, ByteBuf body) {
    exchange.header(CACHE_CONTROL, NO_STORE);
    exchange.send(rejectStatus, PROBLEM_JSON, body.duplicate()); // a view: the prepared body is never consumed
  }

  /**
   * A request the store could not decide (its pool stayed full): 503 with {@code Retry-After: 1},
   * neither admitted nor refused, counted apart and logged once a second at most.
   */
  private void unavailable(Exchange exchange, StoreBusyException busy) {
    stats.recordUnavailable();
    long second = Math.floorDiv(epochMillis.getAsLong(), 1000);
    long last = busySecond.get();
    if (second > last && busySecond.compareAndSet(last, second)) {
      log.warn("answering 503 until the store can decide: {}", busy.getMessage());
    }
    exchange.header(RETRY_AFTER, ONE_SECOND);
    exchange.header(CACHE_CONTROL, NO_STORE);
    exchange.send(503, TEXT, "the rate limiter's store is busy; try again in a second\n");
  }

  private void wouldReject(String key) {
    long second = Math.floorDiv(epochMillis.getAsLong(), 1000);
    long count = dryRunCount.incrementAndGet();
    long last = dryRunSecond.get();
    if (second > last && dryRunSecond.compareAndSet(last, second)) {
      dryRunCount.set(0);
      log.info("dry-run: would have rejected {} request(s) since the last report, the latest from {}", count, key);
    }
  }
}
