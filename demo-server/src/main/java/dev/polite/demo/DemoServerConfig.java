package dev.polite.demo;

import static dev.polite.demo.Settings.ADMIN_TOKEN;
import static dev.polite.demo.Settings.ALGORITHM;
import static dev.polite.demo.Settings.API_KEY_HEADER;
import static dev.polite.demo.Settings.COST_HEADER;
import static dev.polite.demo.Settings.BLOCK_FOR;
import static dev.polite.demo.Settings.BOGUS_REFUSAL_EVERY;
import static dev.polite.demo.Settings.BOGUS_RETRY_AFTER;
import static dev.polite.demo.Settings.BUDGETS;
import static dev.polite.demo.Settings.BURST;
import static dev.polite.demo.Settings.CLOCK;
import static dev.polite.demo.Settings.CLOCK_SKEW;
import static dev.polite.demo.Settings.CONCURRENCY;
import static dev.polite.demo.Settings.DROP_EVERY;
import static dev.polite.demo.Settings.DRY_RUN;
import static dev.polite.demo.Settings.HEADERS;
import static dev.polite.demo.Settings.HOST;
import static dev.polite.demo.Settings.IDLE_TIMEOUT;
import static dev.polite.demo.Settings.LATENCY;
import static dev.polite.demo.Settings.LIMIT;
import static dev.polite.demo.Settings.IO_THREADS;
import static dev.polite.demo.Settings.MAX_CONNECTIONS;
import static dev.polite.demo.Settings.MAX_CONNECTIONS_PER_CLIENT;
import static dev.polite.demo.Settings.MAX_KEYS;
import static dev.polite.demo.Settings.NODES;
import static dev.polite.demo.Settings.PARSE_TIMEOUT;
import static dev.polite.demo.Settings.PORT;
import static dev.polite.demo.Settings.REJECT_STATUS;
import static dev.polite.demo.Settings.REDIS_TIMEOUT;
import static dev.polite.demo.Settings.REFUSE_ALL;
import static dev.polite.demo.Settings.REFUSE_ALL_RETRY_AFTER;
import static dev.polite.demo.Settings.ROUTE_COSTS;
import static dev.polite.demo.Settings.SECOND_POLICY;
import static dev.polite.demo.Settings.STORE;
import static dev.polite.demo.Settings.SYNC_INTERVAL;
import static dev.polite.demo.Settings.TRUSTED_PROXIES;
import static dev.polite.demo.Settings.UNNAMED_BUDGETS;
import static dev.polite.demo.Settings.WHEN_DOWN;
import static dev.polite.demo.Settings.WINDOW;
import static dev.polite.demo.Settings.WRONG_RESET_EVERY;

import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.StringJoiner;
import org.jspecify.annotations.Nullable;

/**
 * Everything a {@link DemoServer} enforces, immutable. Made by {@link Builder}, derived with
 * {@link #toBuilder()}; every setter validates its value and names the parameter when it refuses.
 *
 * <p>Usage: {@code DemoServerConfig config = DemoServer.builder().limit(10).window(Duration.ofSeconds(10)).build();}
 *
 * <p>The limit is {@code limit} units per {@code window}. The bucket algorithms hold
 * {@code burst} (the limit, unless set apart) and refill at {@code limit / window}; the window
 * algorithms allow {@code limit} per {@code window}. Every request under {@code /api/} costs 1
 * unit unless a route cost says otherwise; clients never name their own cost.
 *
 * <p>Routes may have budgets of their own ({@link Budget}): a request under a budget's prefix
 * spends that budget (its own limit per window, the same algorithm and store, counted per key apart
 * from the others) and its answer names it; every other request spends the limit per window above,
 * named {@code core} once any budget is given.
 *
 * <p>Each setting's name, default, rule, command-line flag and usage are declared once, in this
 * package's {@code Settings}; this class holds one value per setting and names them for Java
 * callers. The accessors below name each setting's flag and do not repeat its default:
 * {@code java -jar polite-demo-server.jar --help} prints every flag with its default, and
 * {@code DemoServerConfig.builder().build()} holds them all (but the port: 0, a free one, in
 * process and 8080 on the command line). The one setting with no flag, {@link #clock()}, says its own.
 */
public final class DemoServerConfig {
  /** Always in the description, default or not: what a reader of the log asks first. */
  private static final List<Setting<?>> HEADLINE = List.of(ALGORITHM, LIMIT, WINDOW, HEADERS, STORE);

  private final Map<Setting<?>, Object> values;
  private final StoreKind storeKind;

  private DemoServerConfig(Map<Setting<?>, Object> values) {
    this.values = Map.copyOf(values);
    this.storeKind = StoreKind.of(store(), syncInterval());
  }

  /** A builder with every default. */
  public static Builder builder() {
    return new Builder(Settings.defaults());
  }

  /** A builder holding this configuration, to derive another. */
  public Builder toBuilder() {
    return new Builder(values);
  }

  /** The address to bind ({@code --host}). */
  public String host() {
    return HOST.in(values);
  }

  /** The port to bind ({@code --port}); 0 picks a free one. */
  public int port() {
    return PORT.in(values);
  }

  /** The algorithm ({@code --algorithm}). */
  public Algorithm algorithm() {
    return ALGORITHM.in(values);
  }

  /** Units per window ({@code --limit}). */
  public long limit() {
    return LIMIT.in(values);
  }

  /** The window ({@code --window}). */
  public Duration window() {
    return WINDOW.in(values);
  }

  /** The bucket capacity ({@code --burst}): the configured burst, or the limit when none was set. */
  public long burst() {
    long burst = BURST.in(values);
    return burst > 0 ? burst : limit();
  }

  /** The header dialect ({@code --headers}). */
  public HeaderStyle headers() {
    return HEADERS.in(values);
  }

  /**
   * Where the limiter state lives, as {@code --store} gives it: {@code memory},
   * {@code redis://HOST:PORT} or {@code synced:redis://HOST:PORT} ({@link #storeKind()} says which).
   */
  public String store() {
    return STORE.in(values);
  }

  /**
   * Where the limiter state lives, from {@link #store()} and {@link #syncInterval()} together: a
   * {@code synced:} store with an interval of 0 is the shared {@link StoreKind#REDIS} store.
   */
  public StoreKind storeKind() {
    return storeKind;
  }

  /** Whether the limiter state lives in Redis (shared or synced). */
  public boolean usesRedis() {
    return storeKind != StoreKind.MEMORY;
  }

  /** The Redis address, {@code redis://HOST:PORT}, without the {@code synced:} prefix. */
  public String redisUri() {
    return StoreKind.redisUri(store());
  }

  /** How often a synced store syncs ({@code --sync-interval}); 0 makes it the shared atomic store. */
  public Duration syncInterval() {
    return SYNC_INTERVAL.in(values);
  }

  /** What to decide while Redis is down ({@code --when-down}). */
  public WhenDown whenDown() {
    return WHEN_DOWN.in(values);
  }

  /** How many nodes share the limit, for the local share when Redis is down ({@code --nodes}). */
  public int nodes() {
    return NODES.in(values);
  }

  /** Addresses and CIDR ranges of proxies whose X-Forwarded-For is believed ({@code --trusted-proxies}). */
  public List<String> trustedProxies() {
    return TRUSTED_PROXIES.in(values);
  }

  /** Whether to count and log would-be rejections without rejecting ({@code --dry-run}). */
  public boolean dryRun() {
    return DRY_RUN.in(values);
  }

  /** The most keys held in memory, by the limiter state and by the stats each ({@code --max-keys}). */
  public int maxKeys() {
    return MAX_KEYS.in(values);
  }

  /** The header carrying an API key ({@code --api-key-header}). */
  public String apiKeyHeader() {
    return API_KEY_HEADER.in(values);
  }

  /**
   * The header a client names its request's cost in, a refund when negative ({@code --cost-header});
   * empty for none: the route decides.
   */
  public String costHeader() {
    return COST_HEADER.in(values);
  }

  /** Path prefix to cost in units ({@code --cost}; the longest matching prefix wins; otherwise 1). */
  public Map<String, Integer> routeCosts() {
    return ROUTE_COSTS.in(values);
  }

  /**
   * Path prefix to the budget of the requests under it ({@code --budget}; the longest matching prefix
   * wins), in the order given; empty for one budget, the limit per window.
   */
  public Map<String, Budget> budgets() {
    return BUDGETS.in(values);
  }

  /** The budget a request to {@code path} spends: the longest matching prefix's, or null for the main one. */
  public @Nullable Budget budgetOf(String path) {
    return RouteBudgets.budgetOf(budgets(), path);
  }

  /**
   * Whether any route has a budget of its own; then the main budget is named {@code core} in the
   * headers, else as before ({@code x-ratelimit-resource: api}, the IETF policy {@code "default"}).
   */
  public boolean hasBudgets() {
    return !budgets().isEmpty();
  }

  /**
   * Whether answers leave their budget unnamed ({@code --unnamed-budgets}): no
   * {@code x-ratelimit-resource}, every IETF policy {@code "default"}, and {@code "default"} as a
   * refusal's violated policy, each budget's own numbers still; {@code /stats} names them all the same.
   */
  public boolean unnamedBudgets() {
    return UNNAMED_BUDGETS.in(values);
  }

  /**
   * The second policy every call must also pass ({@code --second-policy}): a fixed window per key,
   * listed beside the main policy in the IETF fields; empty for none.
   */
  public Optional<SecondPolicy> secondPolicy() {
    return SECOND_POLICY.in(values);
  }

  /** The most requests one key may have in flight ({@code --concurrency}); 0 for no limit. */
  public int concurrency() {
    return CONCURRENCY.in(values);
  }

  /** Simulated work before each admitted {@code /api/} answer ({@code --latency}). */
  public Duration latency() {
    return LATENCY.in(values);
  }

  /**
   * How long a key is blocked once the limiter refuses it ({@code --block-for}); a call during the
   * block is refused and restarts it. Zero for no block.
   */
  public Duration blockFor() {
    return BLOCK_FOR.in(values);
  }

  /** Whether every {@code /api/} call is refused, whatever the limiter would say ({@code --refuse-all}). */
  public boolean refuseAll() {
    return REFUSE_ALL.in(values);
  }

  /** The {@code Retry-After} of {@link #refuseAll()}'s refusals ({@code --refuse-all-retry-after}). */
  public Duration refuseAllRetryAfter() {
    return REFUSE_ALL_RETRY_AFTER.in(values);
  }

  /**
   * Every how many {@code /api/} answers one is a refusal no limiter made, with
   * {@link #bogusRetryAfter()} ({@code --bogus-refusal-every}); 0 for never.
   */
  public int bogusRefusalEvery() {
    return BOGUS_REFUSAL_EVERY.in(values);
  }

  /** The {@code Retry-After} of {@link #bogusRefusalEvery()}'s refusals ({@code --bogus-retry-after}). */
  public Duration bogusRetryAfter() {
    return BOGUS_RETRY_AFTER.in(values);
  }

  /** Connect and read timeout of the Redis client ({@code --redis-timeout}). */
  public Duration redisTimeout() {
    return REDIS_TIMEOUT.in(values);
  }

  /** The clock every decision reads; no flag sets it, and it is the system UTC clock unless code gives one. */
  public Clock clock() {
    return CLOCK.in(values);
  }

  /**
   * How far the server's stated wall clock runs ahead of {@link #clock()}, negative for behind
   * ({@code --clock-skew}). It moves every absolute time the server sends ({@code Date}, an HTTP-date
   * {@code Retry-After}, an epoch reset), never what the limiter decides.
   */
  public Duration clockSkew() {
    return CLOCK_SKEW.in(values);
  }

  /**
   * The status of every rate-limit refusal, the limiter's and the concurrency cap's
   * ({@code --reject-status}): 429, or 403 as GitHub answers.
   */
  public int rejectStatus() {
    return REJECT_STATUS.in(values);
  }

  /**
   * Every how many answers carrying quota headers one states a reset 200 days ahead, all else
   * true ({@code --wrong-reset-every}); 0 for never.
   */
  public int wrongResetEvery() {
    return WRONG_RESET_EVERY.in(values);
  }

  /**
   * Every how many requests under {@code /api/} one is read and its connection closed without an
   * answer ({@code --drop-every}); 0 for never.
   */
  public int dropEvery() {
    return DROP_EVERY.in(values);
  }

  /** Time a client has to send a request's line and headers ({@code --parse-timeout}). */
  public Duration parseTimeout() {
    return PARSE_TIMEOUT.in(values);
  }

  /** How long a connection may go without a request under way ({@code --idle-timeout}). */
  public Duration idleTimeout() {
    return IDLE_TIMEOUT.in(values);
  }

  /** The most open connections, lowered at start to fit the file limit ({@code --max-connections}). */
  public int maxConnections() {
    return MAX_CONNECTIONS.in(values);
  }

  /**
   * The most open connections from one address, trusted proxies exempt
   * ({@code --max-connections-per-client}); 0 for no limit.
   */
  public int maxConnectionsPerClient() {
    return MAX_CONNECTIONS_PER_CLIENT.in(values);
  }

  /** Threads serving connections ({@code --io-threads}); 0 for half the cores, at least one. */
  public int ioThreads() {
    return IO_THREADS.in(values);
  }

  /**
   * The token {@code POST /stats/reset} requires as {@code Authorization: Bearer TOKEN}
   * ({@code --admin-token}); empty for none.
   */
  public String adminToken() {
    return ADMIN_TOKEN.in(values);
  }

  /** The cost of a request to {@code path}: the longest matching route prefix's, else 1. */
  public int costOf(String path) {
    return RouteCosts.costOf(routeCosts(), path);
  }

  /**
   * The headline settings, then every other one a flag can set that differs from its default, as
   * flags name them: {@code algorithm=gcra limit=5 window=PT1S headers=ietf store=memory dry-run=true}.
   */
  @Override
  public String toString() {
    StringJoiner shown = new StringJoiner(" ");
    for (Setting<?> setting : Settings.ALL) {
      Object value = values.get(setting);
      boolean changed = setting.onCommandLine() && !Objects.equals(value, setting.defaultValue());
      if (HEADLINE.contains(setting) || changed) {
        shown.add(setting.shown(value));
      }
    }
    return shown.toString();
  }

  /**
   * Builds a {@link DemoServerConfig}, or starts a server with it.
   *
   * <p>Usage: {@code DemoServer server = DemoServer.builder().algorithm(Algorithm.GCRA).limit(5).window(Duration.ofSeconds(1)).start();}
   */
  public static final class Builder {
    private final Map<Setting<?>, Object> values;

    Builder(Map<Setting<?>, Object> values) {
      this.values = new HashMap<>(values);
    }

    /** The address to bind, such as {@code 127.0.0.1} or {@code 0.0.0.0}. */
    public Builder host(String host) {
      return set(HOST, host);
    }

    /** The port, 0 to 65535; 0 picks a free one (read it back from {@link DemoServer#port()}). */
    public Builder port(int port) {
      return set(PORT, port);
    }

    /** The algorithm. */
    public Builder algorithm(Algorithm algorithm) {
      return set(ALGORITHM, algorithm);
    }

    /** Units per window, at least 1. */
    public Builder limit(long limit) {
      return set(LIMIT, limit);
    }

    /** The window, at least 1 ms and at most 366 days. */
    public Builder window(Duration window) {
      return set(WINDOW, window);
    }

    /** The bucket capacity when it differs from the limit, at least 1; 0 means "the limit". */
    public Builder burst(long burst) {
      return set(BURST, burst);
    }

    /** The header dialect. */
    public Builder headers(HeaderStyle headers) {
      return set(HEADERS, headers);
    }

    /** {@code memory}, {@code redis://HOST:PORT} or {@code synced:redis://HOST:PORT}. */
    public Builder store(String store) {
      return set(STORE, store);
    }

    /** How often a synced store syncs with Redis, 0 to 10 s; 0 decides every request in Redis. */
    public Builder syncInterval(Duration syncInterval) {
      return set(SYNC_INTERVAL, syncInterval);
    }

    /** What to decide while Redis is down. */
    public Builder whenDown(WhenDown whenDown) {
      return set(WHEN_DOWN, whenDown);
    }

    /** How many nodes share the limit, at least 1: the local share is limit ÷ nodes. */
    public Builder nodes(int nodes) {
      return set(NODES, nodes);
    }

    /** Proxies (addresses or CIDR ranges) whose X-Forwarded-For is believed. */
    public Builder trustedProxies(List<String> trustedProxies) {
      return set(TRUSTED_PROXIES, trustedProxies);
    }

    /** Count and log would-be rejections, never reject. */
    public Builder dryRun(boolean dryRun) {
      return set(DRY_RUN, dryRun);
    }

    /** The most keys held in memory, at least 1. */
    public Builder maxKeys(int maxKeys) {
      return set(MAX_KEYS, maxKeys);
    }

    /** The header that carries an API key. */
    public Builder apiKeyHeader(String apiKeyHeader) {
      return set(API_KEY_HEADER, apiKeyHeader);
    }

    /**
     * Lets clients name their request's cost in {@code header}: a whole number of units up to the
     * bucket's capacity, which reserves them, or a negative one to give back reserved units not
     * used (bucket algorithms; at most what the key's reservations consumed and it has not had
     * back, by a refund or by the refill). Empty turns it off.
     */
    public Builder costHeader(String header) {
      return set(COST_HEADER, header);
    }

    /** Requests whose path starts with {@code pathPrefix} cost {@code cost} units (at least 1). */
    public Builder routeCost(String pathPrefix, int cost) {
      Map<String, Integer> routes = new LinkedHashMap<>(ROUTE_COSTS.in(values));
      routes.put(pathPrefix, cost);
      return set(ROUTE_COSTS, routes);
    }

    /**
     * Requests whose path starts with {@code pathPrefix} (the longest prefix wins) spend a budget of
     * their own, {@code name}: {@code limit} units per {@code window} (at least 1, and 1 ms to 366
     * days), under the same algorithm and store, with a burst of {@code limit}, counted per key apart
     * from every other budget. Their answers name it ({@code x-ratelimit-resource: NAME}, the IETF
     * policy {@code "NAME"}), and every other request's name the main budget {@code core}. A prefix
     * or a name given twice is refused, as is {@code core}.
     */
    public Builder budget(String pathPrefix, String name, long limit, Duration window) {
      Map<String, Budget> budgets = new LinkedHashMap<>(BUDGETS.in(values));
      if (budgets.containsKey(pathPrefix)) {
        throw new IllegalArgumentException("budget: the prefix " + pathPrefix + " is given twice");
      }
      budgets.put(pathPrefix, new Budget(name, limit, window));
      return set(BUDGETS, budgets);
    }

    /**
     * Whether answers leave their budget unnamed, as X's API v2 does: each budget's answers carry its
     * own numbers, but no {@code x-ratelimit-resource}, the IETF policy {@code "default"} for every
     * budget, and {@code "default"} as a refusal's violated policy.
     */
    public Builder unnamedBudgets(boolean unnamedBudgets) {
      return set(UNNAMED_BUDGETS, unnamedBudgets);
    }

    /**
     * A second policy every call must also pass, beside the limit per window: a fixed window of its
     * own per key. A call is admitted only when both admit it (a refused one spends neither), and a
     * refusal's {@code Retry-After} is the refusing policy's; the IETF fields list both. Needs
     * {@link HeaderStyle#IETF}, the memory store and no route budgets ({@link #build()} says so).
     */
    public Builder secondPolicy(SecondPolicy policy) {
      return set(SECOND_POLICY, Optional.of(Objects.requireNonNull(policy, "secondPolicy: must not be null")));
    }

    /** The most requests one key may have in flight, at least 0 (0: no limit). */
    public Builder concurrency(int concurrency) {
      return set(CONCURRENCY, concurrency);
    }

    /** Simulated work before each admitted answer, zero or more (the thread is not held). */
    public Builder latency(Duration latency) {
      return set(LATENCY, latency);
    }

    /**
     * Once the limiter refuses a key, its every call is refused for {@code blockFor} (0 for never, else
     * 1 ms to a day), and a call that arrives during the block restarts it: the block ends
     * {@code blockFor} after the latest refused call, as a CDN rule's mitigation timeout does. Those
     * refusals carry {@code Retry-After} (whole seconds, rounded up) and no quota headers.
     */
    public Builder blockFor(Duration blockFor) {
      return set(BLOCK_FOR, blockFor);
    }

    /**
     * Refuse every {@code /api/} call, as a broken limiter does, with {@code Retry-After} of
     * {@link #refuseAllRetryAfter} and nothing else, whatever the header style; the limiter is not asked.
     */
    public Builder refuseAll(boolean refuseAll) {
      return set(REFUSE_ALL, refuseAll);
    }

    /** The {@code Retry-After} of {@link #refuseAll}'s refusals, 0 to a day, sent in whole seconds (rounded up). */
    public Builder refuseAllRetryAfter(Duration retryAfter) {
      return set(REFUSE_ALL_RETRY_AFTER, retryAfter);
    }

    /**
     * Every {@code every}th {@code /api/} answer (counted over the whole server) is a refusal that no
     * limiter made, with {@code Retry-After} of {@link #bogusRetryAfter} (a day by default) and nothing
     * else; 0 for never, else at least 2.
     */
    public Builder bogusRefusalEvery(int every) {
      return set(BOGUS_REFUSAL_EVERY, every);
    }

    /** The {@code Retry-After} of {@link #bogusRefusalEvery}'s refusals, 0 to 366 days, in whole seconds (rounded up). */
    public Builder bogusRetryAfter(Duration retryAfter) {
      return set(BOGUS_RETRY_AFTER, retryAfter);
    }

    /** Redis connect and read timeout, 1 ms to 1 s; tens of ms keep a dead Redis cheap. */
    public Builder redisTimeout(Duration redisTimeout) {
      return set(REDIS_TIMEOUT, redisTimeout);
    }

    /** The clock decisions read (a fake one in tests); its instant's nanoseconds are used. */
    public Builder clock(Clock clock) {
      return set(CLOCK, clock);
    }

    /**
     * How far the server's stated clock is off, ahead (positive) or behind (negative), at most a
     * day either way: {@code clockSkew(Duration.ofSeconds(60))} makes a server whose {@code Date}
     * and HTTP-date {@code Retry-After} run a minute ahead, as a client meets in the wild.
     */
    public Builder clockSkew(Duration clockSkew) {
      return set(CLOCK_SKEW, clockSkew);
    }

    /**
     * The status of every rate-limit refusal, 429 or 403. With 403 the concurrency cap's refusal
     * carries the quota headers too, showing what the limiter has left, as GitHub's secondary limit
     * does: {@code rejectStatus(403).headers(HeaderStyle.X_RATELIMIT)} answers as GitHub.
     */
    public Builder rejectStatus(int rejectStatus) {
      return set(REJECT_STATUS, rejectStatus);
    }

    /**
     * Every {@code every}th answer carrying quota headers (counted over the whole server, admitted
     * or refused) states a reset 200 days ahead, in the style's shape, all else true; 0 for never,
     * else at least 2. Styles without a reset are unaffected.
     */
    public Builder wrongResetEvery(int every) {
      return set(WRONG_RESET_EVERY, every);
    }

    /**
     * Every {@code every}th request under {@code /api/} (counted over the whole server) is read and
     * its connection closed without an answer, before the limiter sees it, and counted as dropped;
     * 0 for never, else at least 2.
     */
    public Builder dropEvery(int every) {
      return set(DROP_EVERY, every);
    }

    /** Time a client has to send a request's line and headers, 1 ms to 1 h; then it is closed. */
    public Builder parseTimeout(Duration parseTimeout) {
      return set(PARSE_TIMEOUT, parseTimeout);
    }

    /** How long a connection may be silent before it is closed, 1 ms to a day. */
    public Builder idleTimeout(Duration idleTimeout) {
      return set(IDLE_TIMEOUT, idleTimeout);
    }

    /** The most open connections, at least 1; more wait in the listen backlog. */
    public Builder maxConnections(int maxConnections) {
      return set(MAX_CONNECTIONS, maxConnections);
    }

    /** The most open connections from one address (trusted proxies exempt), at least 0 (0: no limit). */
    public Builder maxConnectionsPerClient(int maxConnectionsPerClient) {
      return set(MAX_CONNECTIONS_PER_CLIENT, maxConnectionsPerClient);
    }

    /** Threads serving connections, 0 to 256; 0 for half the cores, at least one. */
    public Builder ioThreads(int ioThreads) {
      return set(IO_THREADS, ioThreads);
    }

    /**
     * The token {@code POST /stats/reset} then requires as {@code Authorization: Bearer TOKEN}: at
     * least 8 visible ASCII characters, or empty for none. It is never shown in the description.
     */
    public Builder adminToken(String adminToken) {
      return set(ADMIN_TOKEN, adminToken);
    }

    /**
     * Checks the combination and freezes it.
     *
     * @throws IllegalArgumentException naming the parameter, for a burst too long to refill, a
     *     route cost above what a fresh key holds, or an algorithm the Redis store does not run
     */
    public DemoServerConfig build() {
      DemoServerConfig config = new DemoServerConfig(values);
      long limit = config.limit();
      long burst = config.burst();
      // The longer of the window and the time an empty bucket takes to refill, in nanoseconds, must
      // leave room for the limiters' arithmetic. A route's budget always fits: its burst is its
      // limit, so it refills in its window, at most 366 days.
      if ((double) Math.max(burst, limit) * config.window().toNanos() / limit > Long.MAX_VALUE / 4.0) {
        throw new IllegalArgumentException("burst: " + burst + " takes too long to refill at " + limit
            + " per " + config.window().toNanos() + " ns");
      }
      long capacity = config.algorithm().holds(limit, burst);
      for (Map.Entry<String, Integer> route : config.routeCosts().entrySet()) {
        if (route.getValue() > capacity && config.budgetOf(route.getKey()) == null) {
          throw new IllegalArgumentException("routeCost: " + route.getKey() + " costs " + route.getValue()
              + " but a key holds at most " + capacity + " (raise limit or burst)");
        }
        // Every budget a request under the route may spend: the one its prefix falls in, and any
        // whose prefix lies under it
        for (Map.Entry<String, Budget> budget : config.budgets().entrySet()) {
          boolean spends = budget.getKey().startsWith(route.getKey())
              || config.budgetOf(route.getKey()) == budget.getValue();
          long holds = config.algorithm().holds(budget.getValue().limit(), budget.getValue().burst());
          if (spends && route.getValue() > holds) {
            throw new IllegalArgumentException("routeCost: " + route.getKey() + " costs " + route.getValue()
                + " but budget " + budget.getValue().name() + " (" + budget.getKey() + ") holds at most " + holds
                + " (raise its limit)");
          }
        }
      }
      config.secondPolicy().ifPresent(second -> checkSecondPolicy(config, second));
      if (config.usesRedis() && !config.algorithm().runsOnRedis()) {
        throw new IllegalArgumentException("algorithm: " + config.algorithm()
            + " is not supported with a Redis store (supported: " + Algorithm.onRedis() + ")");
      }
      if (config.storeKind() == StoreKind.SYNCED && !config.algorithm().runsOnSyncedStore()) {
        throw new IllegalArgumentException("algorithm: " + config.algorithm()
            + " is not supported with a synced store (supported: " + Algorithm.onSyncedStore() + ")");
      }
      return config;
    }

    /**
     * What a second policy needs: one field to list both policies in (IETF), a store this process
     * keeps (its windows live beside the memory store's state, decided under one lock per key), and
     * one budget (which policy a route's budget would stand beside is not this setting's to guess).
     */
    private static void checkSecondPolicy(DemoServerConfig config, SecondPolicy second) {
      if (config.headers() != HeaderStyle.IETF) {
        throw new IllegalArgumentException("secondPolicy: two policies in one field need --headers ietf, was "
            + config.headers());
      }
      if (config.storeKind() != StoreKind.MEMORY) {
        throw new IllegalArgumentException("secondPolicy: needs the memory store, was " + config.store());
      }
      if (config.hasBudgets()) {
        throw new IllegalArgumentException("secondPolicy: not with --budget (the second policy stands beside the one "
            + "main budget)");
      }
      for (Map.Entry<String, Integer> route : config.routeCosts().entrySet()) {
        if (route.getValue() > second.limit()) {
          throw new IllegalArgumentException("routeCost: " + route.getKey() + " costs " + route.getValue()
              + " but the second policy " + second.name() + " allows at most " + second.limit() + " per window");
        }
      }
    }

    /** Builds the configuration and starts a server with it. */
    public DemoServer start() {
      return DemoServer.start(build());
    }

    /**
     * Validates {@code value} by its setting, which names itself when it refuses, then keeps it:
     * every setter below, and the command line for each flag it was given.
     */
    <T> Builder set(Setting<T> setting, T value) {
      values.put(setting, setting.check(value));
      return this;
    }
  }
}
