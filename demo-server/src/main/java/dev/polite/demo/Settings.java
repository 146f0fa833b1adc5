package dev.polite.demo;

import dev.polite.demo.internal.TrustedProxies;
import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Every setting of the demo server, each declared once: name, default, rule, flag and usage.
 * {@link DemoServerConfig} keeps one value per setting, its builder checks each
 * value against its setting, and the command line is made from this list, in this order.
 * These declarations know nothing of the configuration that reads them.
 */
final class Settings {
  private static final Duration MILLISECOND = Duration.ofMillis(1);

  static final Setting<String> HOST = Setting.text("host", "127.0.0.1",
          host -> !host.isBlank(), host -> "must not be blank")
      .flag("--host", "ADDRESS", "Address to bind (default: ${DEFAULT-VALUE}).");

  /** 0, a free port, in process; 8080 from the command line, where a fixed port is what people expect. */
  static final Setting<Integer> PORT = Setting.count("port", 0, port -> port >= 0 && port <= 65535,
          "must be 0 to 65535")
      .flag("--port", "PORT", "Port to bind; 0 picks a free one (default: ${DEFAULT-VALUE}).")
      .commandLineDefault("8080");

  static final Setting<Algorithm> ALGORITHM = Setting.choice("algorithm", "token-bucket", Algorithm::parse)
      .flag("--algorithm", "NAME", Algorithm.names() + " (default: ${DEFAULT-VALUE}).");

  static final Setting<Long> LIMIT = Setting.whole("limit", 10, limit -> limit >= 1, "must be at least 1")
      .flag("--limit", "N", "Requests (units) per window (default: ${DEFAULT-VALUE}).");

  static final Setting<Duration> WINDOW = Setting.duration("window", "1s",
          window -> window.compareTo(MILLISECOND) >= 0 && window.compareTo(Duration.ofDays(366)) <= 0,
          "must be 1 ms to 366 days")
      .flag("--window", "DURATION",
          "The window: 500ms, 10s, 1m, PT1H... Buckets hold N and refill N per window (default: ${DEFAULT-VALUE}).");

  /** 0 stands for "the limit", so that a burst follows the limit it was not set apart from. */
  static final Setting<Long> BURST = Setting.whole("burst", 0, burst -> burst >= 0,
          "must be at least 1 (or 0 for the limit)")
      .flag("--burst", "B", "Bucket capacity when it differs from --limit (bucket algorithms only; default: the limit).");

  static final Setting<HeaderStyle> HEADERS = Setting.choice("headers", "ietf", HeaderStyle::parse)
      .flag("--headers", "STYLE",
          "ietf (draft-11 RateLimit + RateLimit-Policy)|legacy (RateLimit-Limit/-Remaining/-Reset)"
              + "|x-ratelimit (GitHub style, epoch reset)|x-rate-limit (X and Okta: x-rate-limit-limit/-remaining/-reset, "
              + "epoch reset, no budget name)|used-limit (Shopify's X-Shopify-Shop-Api-Call-Limit: used/limit)"
              + "|azure (x-ms-ratelimit-remaining-subscription-reads: remaining only)"
              + "|retry-after (only Retry-After seconds on a 429)|retry-after-ms (retry-after-ms + Retry-After on a 429)"
              + "|retry-after-date (Retry-After as an HTTP-date, with Date)|none (nothing at all: a bare 429)"
              + " (default: ${DEFAULT-VALUE}).");

  static final Setting<Duration> CLOCK_SKEW = Setting.signedDuration("clockSkew", "0s",
          skew -> skew.abs().compareTo(Duration.ofDays(1)) <= 0, "must be within a day either way")
      .flag("--clock-skew", "DURATION",
          "How far the server's stated clock (Date, HTTP-date Retry-After, epoch resets) runs ahead; "
              + "negative for behind: 60s, -30s (default: ${DEFAULT-VALUE}).");

  /**
   * GitHub refuses with 403, not 429, and tells its two limits apart only by its headers: its rate
   * limit says {@code x-ratelimit-remaining: 0}, its secondary limit (here {@code --concurrency})
   * leaves the remaining as it is. A client that reads every 403 as "forbidden", or every 403 as
   * a rate limit, is measured against this. Nothing else is allowed: any other status would not
   * be a rate-limit refusal that real servers send.
   */
  static final Setting<Integer> REJECT_STATUS = Setting.count("rejectStatus", 429,
          status -> status == 429 || status == 403, "must be 429 or 403")
      .flag("--reject-status", "N",
          "Status of every rate-limit refusal, the limiter's and --concurrency's: 429, or 403 as GitHub "
              + "answers (a 403 also carries the quota headers on a --concurrency refusal, so the limiter's "
              + "remaining tells the two apart) (default: ${DEFAULT-VALUE}).");

  /**
   * One answer in N states a reset far off, as a server whose reset wobbles does: a client that
   * believes the one wrong answer stops for 200 days. 1 is refused: a server whose every reset is
   * wrong is a lying server, not a wobbling one, and tests nothing a client could survive.
   */
  static final Setting<Integer> WRONG_RESET_EVERY = Setting.count("wrongResetEvery", 0,
          every -> every == 0 || every >= 2, "must be 0 (off) or at least 2")
      .flag("--wrong-reset-every", "N",
          "Every Nth answer with quota headers (over the whole server, admitted or refused) states a reset "
              + "200 days ahead, all else true: t= for ietf, RateLimit-Reset for legacy, the epoch for "
              + "x-ratelimit and x-rate-limit; styles without a reset (used-limit, azure, retry-after, retry-after-ms, "
              + "retry-after-date, none) are unaffected; 0 = off (default: ${DEFAULT-VALUE}).");

  /**
   * A server, or a proxy in front of it, that reads a request and then drops the connection with
   * no answer: a client's engine may send it again by itself, and a count of what a client sent
   * must count that too (issue 48). 1 is refused: a server that answers nothing measures nothing.
   */
  static final Setting<Integer> DROP_EVERY = Setting.count("dropEvery", 0,
          every -> every == 0 || every >= 2, "must be 0 (off) or at least 2")
      .flag("--drop-every", "N",
          "Every Nth request under /api/ (counted over the whole server) is read and its connection closed "
              + "without an answer, before the limiter sees it; /stats counts it as dropped; 0 = off "
              + "(default: ${DEFAULT-VALUE}).");

  /** What each text means, and which the setting accepts, is {@link StoreKind}'s to say. */
  static final Setting<String> STORE = Setting.text("store", StoreKind.MEMORY_TEXT, StoreKind::accepts,
          store -> "must be 'memory', 'redis://HOST:PORT' or 'synced:redis://HOST:PORT', was '" + store + "'")
      .flag("--store", "STORE",
          "memory|redis://HOST:PORT (shared, one atomic script per request)|synced:redis://HOST:PORT "
              + "(count locally, sync every --sync-interval) (default: ${DEFAULT-VALUE}).");

  /**
   * Kong's {@code sync_rate} bounds the same knob at 20 ms; 0 is allowed here and means the
   * shared atomic store. Above 10 s the local views are stale for most of any window worth
   * limiting, so the setting refuses it rather than let a typo (200s for 200ms) pass.
   */
  static final Setting<Duration> SYNC_INTERVAL = Setting.duration("syncInterval", "200ms",
          interval -> !interval.isNegative() && interval.compareTo(Duration.ofSeconds(10)) <= 0,
          "must be 0 (synchronous: the shared store) to 10 s")
      .flag("--sync-interval", "DURATION",
          "With --store synced:..., how often each node adds its local counts to Redis and reads the totals back; "
              + "0 = decide every request in Redis (default: ${DEFAULT-VALUE}).");

  /** Open unless told otherwise, as at Stripe and Envoy: an outage of the limiter is not one of the API. */
  static final Setting<WhenDown> WHEN_DOWN = Setting.choice("whenDown", "open", WhenDown::parse)
      .flag("--when-down", "MODE",
          "With Redis, when it does not answer: open|closed|local (limit ÷ nodes from memory) (default: ${DEFAULT-VALUE}).");

  static final Setting<Integer> NODES = Setting.count("nodes", 1, nodes -> nodes >= 1, "must be at least 1")
      .flag("--nodes", "N", "Nodes sharing the limit, for --when-down local (default: ${DEFAULT-VALUE}).");

  /** Tens of milliseconds keep a dead Redis cheap; more than a second would hold every request. */
  static final Setting<Duration> REDIS_TIMEOUT = Setting.duration("redisTimeout", "20ms",
          timeout -> timeout.compareTo(MILLISECOND) >= 0 && timeout.compareTo(Duration.ofSeconds(1)) <= 0,
          "must be 1 ms to 1 s")
      .flag("--redis-timeout", "DURATION", "Redis connect and read timeout (default: ${DEFAULT-VALUE}).");

  static final Setting<List<String>> TRUSTED_PROXIES = Setting.repeated("trustedProxies", ",",
          List::copyOf, proxies -> {
            new TrustedProxies(proxies); // refuses what is not an address or range, naming the setting
            return List.copyOf(proxies);
          })
      .flag("--trusted-proxies", "ADDR[,ADDR...]",
          "Proxies (addresses or CIDR ranges) whose X-Forwarded-For is believed, read from the right (default: none).");

  static final Setting<String> API_KEY_HEADER = Setting.text("apiKeyHeader", "X-Api-Key",
          header -> header.matches("[!#$%&'*+.^_`|~0-9A-Za-z-]+"), header -> "must be a header name, was '" + header + "'")
      .flag("--api-key-header", "NAME",
          "Header carrying an API key, which beats the address as the key (default: ${DEFAULT-VALUE}).");

  static final Setting<String> COST_HEADER = Setting.text("costHeader", "",
          header -> header.isEmpty() || header.matches("[!#$%&'*+.^_`|~0-9A-Za-z-]+"),
          header -> "must be a header name, was '" + header + "'")
      .flag("--cost-header", "NAME",
          "Header a client names its request's cost in, overriding --cost: a whole number of units up "
              + "to the bucket's capacity, reserved, or a negative one to give back reserved units it did not "
              + "use (bucket algorithms only; at most what the key reserved in this header and has not had "
              + "back, else 409; the bucket never exceeds its capacity). Default: none.");

  /** Path prefix to units; refusals name {@code routeCost}, as the builder, which adds one route at a time, does. */
  static final Setting<Map<String, Integer>> ROUTE_COSTS = Setting.repeated("routeCosts", "",
          RouteCosts::parse, RouteCosts::check)
      .flag("--cost", "PREFIX=UNITS",
          "Weighted cost of a route, repeatable: --cost /api/export=5 (longest prefix wins; default cost 1).");

  /**
   * Path prefix to a budget of its own ({@link Budget}); refusals name {@code budget}, as the
   * builder, which adds one at a time, does. A budget's window obeys {@link #WINDOW}'s rule, its limit
   * {@link #LIMIT}'s; its name must be a token that a header can carry as it is, and neither its
   * name nor its prefix may be given twice ({@code core} is the main budget's).
   */
  static final Setting<Map<String, Budget>> BUDGETS = Setting.repeated("budgets", "",
          RouteBudgets::parse, RouteBudgets::check)
      .flag("--budget", "PREFIX=NAME:LIMIT/WINDOW",
          "A budget of its own for a route, repeatable: --budget /api/search=search:30/1m. Requests under PREFIX "
              + "(longest prefix wins) spend LIMIT per WINDOW (same algorithm and store; burst = LIMIT), counted per "
              + "key apart from every other budget, and their answers name NAME (x-ratelimit-resource, the IETF "
              + "policy); every other request spends --limit per --window, then named 'core'. Default: none.");

  /**
   * X's API v2 limits each endpoint on its own and never says which limit an answer is about: the
   * same {@code x-rate-limit-*} fields carry 900 on one route and 300 on the next. The budgets stay
   * apart and named in {@code /stats}; only the answers stop naming them.
   */
  static final Setting<Boolean> UNNAMED_BUDGETS = Setting.onOff("unnamedBudgets")
      .flag("--unnamed-budgets", "",
          "Answers name no budget: each --budget's answers carry its own numbers, but no x-ratelimit-resource, the "
              + "IETF policy \"default\" for every budget, and \"default\" as a refusal's violated policy (as X's "
              + "API v2 answers each endpoint); /stats still names them.");

  /**
   * Two policies in one field, as IETF draft-11 lists them: the main limit and a fixed window
   * beside it, both per key. Empty text (the default) for none. A combination the headers or the
   * store cannot carry is refused by {@link DemoServerConfig.Builder#build()}, naming this setting.
   */
  static final Setting<Optional<SecondPolicy>> SECOND_POLICY = Setting.choice("secondPolicy", "",
          Settings::secondPolicy)
      .flag("--second-policy", "NAME:LIMIT/WINDOW",
          "A second policy every call must also pass: a fixed window of LIMIT per WINDOW per key (window:60/5s), "
              + "beside --limit per --window; a call is admitted only when both admit it (a refused one spends "
              + "neither), and a refusal's Retry-After is the refusing policy's. Both are listed in one field: "
              + "RateLimit-Policy: \"default\";q=..;w=.., \"NAME\";q=..;w=.. (--headers ietf, the memory store, no "
              + "--budget). Default: none.");

  static final Setting<Integer> CONCURRENCY = Setting.count("concurrency", 0, most -> most >= 0,
          "must be at least 0")
      .flag("--concurrency", "N", "Most requests in flight per key; 0 = no limit (default: ${DEFAULT-VALUE}).");

  /**
   * A CDN rule's mitigation timeout, and the penalty some APIs add: once over, a key is blocked, and
   * coming back early only makes it longer. A day is as long as the common CDN rules allow.
   */
  static final Setting<Duration> BLOCK_FOR = Setting.duration("blockFor", "0s",
          block -> block.isZero() || block.compareTo(MILLISECOND) >= 0 && block.compareTo(Duration.ofDays(1)) <= 0,
          "must be 0 (off) or 1 ms to 1 day")
      .flag("--block-for", "DURATION",
          "Once the limiter refuses a key, refuse its every call for DURATION; a call during the block is refused "
              + "and restarts it (it ends DURATION after the latest refused call). These refusals carry Retry-After "
              + "(whole seconds, the block rounded up) and no quota headers, whatever --headers says; 0 = off "
              + "(default: ${DEFAULT-VALUE}).");

  static final Setting<Duration> LATENCY = Setting.duration("latency", "0ms",
          latency -> !latency.isNegative(), "must be zero or more")
      .flag("--latency", "DURATION", "Simulated work per admitted request, holding no thread (default: ${DEFAULT-VALUE}).");

  /**
   * A limiter that refuses everything: a broken one, a key blocked for good, a store that fails
   * closed. Its {@code Retry-After} says nothing useful (0 by default, as such a limiter's often does).
   */
  static final Setting<Boolean> REFUSE_ALL = Setting.onOff("refuseAll")
      .flag("--refuse-all", "",
          "Refuse every /api/ call (--reject-status) with Retry-After: --refuse-all-retry-after and nothing "
              + "else, whatever --headers says: a limiter that refuses everything.");

  static final Setting<Duration> REFUSE_ALL_RETRY_AFTER = Setting.duration("refuseAllRetryAfter", "0s",
          after -> !after.isNegative() && after.compareTo(Duration.ofDays(1)) <= 0, "must be 0 to 1 day")
      .flag("--refuse-all-retry-after", "DURATION",
          "With --refuse-all, the Retry-After of every refusal, in whole seconds, rounded up (default: ${DEFAULT-VALUE}).");

  /**
   * Refusals whose hint cannot be used, on a server that otherwise admits everything: a client that
   * believes one waits a day; one that sees it cannot be true gives that call up, or tries it again,
   * and carries on. 1 is refused: every answer refused is {@link #REFUSE_ALL}.
   */
  static final Setting<Integer> BOGUS_REFUSAL_EVERY = Setting.count("bogusRefusalEvery", 0,
          every -> every == 0 || every >= 2, "must be 0 (off) or at least 2")
      .flag("--bogus-refusal-every", "N",
          "Every Nth /api/ answer (over the whole server) is a refusal no limiter made, with Retry-After: "
              + "--bogus-retry-after and nothing else, whatever --headers says; 0 = off (default: ${DEFAULT-VALUE}).");

  static final Setting<Duration> BOGUS_RETRY_AFTER = Setting.duration("bogusRetryAfter", "1d",
          after -> !after.isNegative() && after.compareTo(Duration.ofDays(366)) <= 0, "must be 0 to 366 days")
      .flag("--bogus-retry-after", "DURATION",
          "With --bogus-refusal-every, the Retry-After of those refusals, in whole seconds, rounded up "
              + "(default: ${DEFAULT-VALUE}, 86400 s).");

  static final Setting<Boolean> DRY_RUN = Setting.onOff("dryRun")
      .flag("--dry-run", "", "Count and log would-be rejections, never reject.");

  static final Setting<Integer> MAX_KEYS = Setting.count("maxKeys", 100_000, most -> most >= 1,
          "must be at least 1")
      .flag("--max-keys", "N", "Most keys held in memory, least recently used dropped first (default: ${DEFAULT-VALUE}).");

  /**
   * A request's line and headers must arrive within this; a client that sends half a request and
   * stops is closed then, so it cannot hold a connection (and a file descriptor) for ever.
   */
  static final Setting<Duration> PARSE_TIMEOUT = Setting.duration("parseTimeout", "10s",
          timeout -> timeout.compareTo(MILLISECOND) >= 0 && timeout.compareTo(Duration.ofHours(1)) <= 0,
          "must be 1 ms to 1 h")
      .flag("--parse-timeout", "DURATION",
          "Time a client has to send a request's line and headers before the connection is closed "
              + "(default: ${DEFAULT-VALUE}).");

  /**
   * A silent connection holds a file descriptor and a slot under both connection caps, so it is
   * not kept for ever; half a minute still lets a client reuse its connection between calls that
   * come seconds apart.
   */
  static final Setting<Duration> IDLE_TIMEOUT = Setting.duration("idleTimeout", "30s",
          timeout -> timeout.compareTo(MILLISECOND) >= 0 && timeout.compareTo(Duration.ofDays(1)) <= 0,
          "must be 1 ms to 1 day")
      .flag("--idle-timeout", "DURATION",
          "A connection with no request under way for this long is closed (default: ${DEFAULT-VALUE}).");

  /**
   * Below the usual file limit (the JVM raises its soft limit to the hard one, often 1,048,576 but
   * 20,000 or even 1,024 on some machines); the server lowers it further when the limit is lower,
   * since an accept that fails for want of a descriptor stops Netty's listener for a second
   * (its {@code ServerBootstrap} acceptor pauses after any accept error), {@code /health} too.
   */
  static final Setting<Integer> MAX_CONNECTIONS = Setting.count("maxConnections", 10_000, most -> most >= 1,
          "must be at least 1")
      .flag("--max-connections", "N",
          "Most open connections; beyond it new ones wait in the listen backlog (default: ${DEFAULT-VALUE}; "
              + "lowered to fit the process's file limit).");

  /**
   * One address may not take every connection: a flood of half-sent requests from one client then
   * leaves room for everyone else, health checks included. Trusted proxies are exempt.
   */
  static final Setting<Integer> MAX_CONNECTIONS_PER_CLIENT = Setting.count("maxConnectionsPerClient", 1_000,
          most -> most >= 0, "must be at least 0")
      .flag("--max-connections-per-client", "N",
          "Most open connections from one address (an IPv6 /64), trusted proxies exempt; more are closed "
              + "at once; 0 = no limit (default: ${DEFAULT-VALUE}).");

  /**
   * 0: half the cores, at least one. The clients a demo server is measured against usually run on
   * the same machine; a thread per core would take their cores (one I/O thread against two on two
   * cores beside wrk, measured with its command: demo-server/README.md, "Speed").
   */
  static final Setting<Integer> IO_THREADS = Setting.count("ioThreads", 0, threads -> threads >= 0 && threads <= 256,
          "must be 0 (half the cores) to 256")
      .flag("--io-threads", "N",
          "Threads that read requests and write answers (one more accepts connections); 0 = half the "
              + "cores, at least 1, leaving the rest to clients on the same machine (default: ${DEFAULT-VALUE}).");

  /** Empty for none: a demo on loopback needs none, a server others can reach should have one. */
  static final Setting<String> ADMIN_TOKEN = Setting.text("adminToken", "",
          token -> token.isEmpty() || token.matches("[\\x21-\\x7e]{8,}"),
          token -> "must be at least 8 visible ASCII characters (no spaces), or empty for none")
      .flag("--admin-token", "TOKEN",
          "When set, POST /stats/reset needs 'Authorization: Bearer TOKEN' (default: none, anyone may reset).")
      .secret();

  /** Tests give a fake clock; the command line has no use for one. */
  static final Setting<Clock> CLOCK = Setting.inProcess("clock", Clock.systemUTC());

  /** Every setting, in the order the usage lists their flags. */
  static final List<Setting<?>> ALL = List.of(HOST, PORT, ALGORITHM, LIMIT, WINDOW, BURST, HEADERS,
      CLOCK_SKEW, REJECT_STATUS, WRONG_RESET_EVERY, DROP_EVERY, STORE, SYNC_INTERVAL, WHEN_DOWN, NODES, REDIS_TIMEOUT, TRUSTED_PROXIES, API_KEY_HEADER, COST_HEADER,
      ROUTE_COSTS, BUDGETS, UNNAMED_BUDGETS, SECOND_POLICY, CONCURRENCY, LATENCY, BLOCK_FOR, REFUSE_ALL,
      REFUSE_ALL_RETRY_AFTER, BOGUS_REFUSAL_EVERY, BOGUS_RETRY_AFTER, DRY_RUN, MAX_KEYS, PARSE_TIMEOUT, IDLE_TIMEOUT, MAX_CONNECTIONS,
      MAX_CONNECTIONS_PER_CLIENT, IO_THREADS, ADMIN_TOKEN, CLOCK);

  private Settings() {}

  /** Every setting's default. */
  static Map<Setting<?>, Object> defaults() {
    Map<Setting<?>, Object> defaults = new LinkedHashMap<>();
    for (Setting<?> setting : ALL) {
      defaults.put(setting, setting.defaultValue());
    }
    return defaults;
  }

  /** {@code NAME:LIMIT/WINDOW} read; blank for none. */
  private static Optional<SecondPolicy> secondPolicy(String text) {
    return text.isBlank() ? Optional.empty() : Optional.of(SecondPolicy.parse(text));
  }
}
