package dev.polite.demo;

import dev.polite.demo.internal.Policy;
import dev.polite.demo.internal.TrustedProxies;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Everything a {@link DemoServer} enforces, immutable. Made by {@link Builder}, derived with
 * {@link #toBuilder()}; every setter validates its value and names the parameter when it refuses.
 *
 * <p>Usage: {@code DemoServerConfig config = DemoServer.builder().limit(10).window(Duration.ofSeconds(10)).build();}
 *
 * <p>The limit is {@code limit} units per {@code window}. The bucket algorithms hold
 * {@code burst} (default: {@code limit}) and refill at {@code limit / window}; the window
 * algorithms allow {@code limit} per {@code window}. Every request under {@code /api/} costs 1
 * unit unless a route cost says otherwise; clients never name their own cost.
 */
public final class DemoServerConfig {
  private final String host;
  private final int port;
  private final Algorithm algorithm;
  private final long limit;
  private final Duration window;
  private final long burst;
  private final HeaderStyle headers;
  private final String store;
  private final WhenDown whenDown;
  private final int nodes;
  private final List<String> trustedProxies;
  private final boolean dryRun;
  private final int maxKeys;
  private final String apiKeyHeader;
  private final Map<String, Integer> routeCosts;
  private final int concurrency;
  private final Duration latency;
  private final Duration redisTimeout;
  private final Clock clock;
  private final Duration clockSkew;

  private DemoServerConfig(Builder b) {
    this.host = b.host;
    this.port = b.port;
    this.algorithm = b.algorithm;
    this.limit = b.limit;
    this.window = b.window;
    this.burst = b.burst;
    this.headers = b.headers;
    this.store = b.store;
    this.whenDown = b.whenDown;
    this.nodes = b.nodes;
    this.trustedProxies = List.copyOf(b.trustedProxies);
    this.dryRun = b.dryRun;
    this.maxKeys = b.maxKeys;
    this.apiKeyHeader = b.apiKeyHeader;
    this.routeCosts = Collections.unmodifiableMap(new LinkedHashMap<>(b.routeCosts));
    this.concurrency = b.concurrency;
    this.latency = b.latency;
    this.redisTimeout = b.redisTimeout;
    this.clock = b.clock;
    this.clockSkew = b.clockSkew;
  }

  /** A builder with every default. */
  public static Builder builder() {
    return new Builder();
  }

  /** A builder holding this configuration, to derive another. */
  public Builder toBuilder() {
    return new Builder(this);
  }

  /** The address to bind; default {@code 127.0.0.1}. */
  public String host() {
    return host;
  }

  /** The port to bind; 0 (the default) picks a free one. */
  public int port() {
    return port;
  }

  /** The algorithm; default token bucket. */
  public Algorithm algorithm() {
    return algorithm;
  }

  /** Units per window; default 10. */
  public long limit() {
    return limit;
  }

  /** The window; default one second. */
  public Duration window() {
    return window;
  }

  /** The bucket capacity: the configured burst, or the limit when none was set. */
  public long burst() {
    return burst > 0 ? burst : limit;
  }

  /** The header dialect; default IETF. */
  public HeaderStyle headers() {
    return headers;
  }

  /** {@code memory} (the default) or {@code redis://HOST:PORT}. */
  public String store() {
    return store;
  }

  /** Whether the limiter state lives in Redis. */
  public boolean usesRedis() {
    return !store.equals("memory");
  }

  /** What to decide while Redis is down; default open. */
  public WhenDown whenDown() {
    return whenDown;
  }

  /** How many nodes share the limit (for the local share when Redis is down); default 1. */
  public int nodes() {
    return nodes;
  }

  /** Addresses and CIDR ranges of proxies whose X-Forwarded-For is believed; default none. */
  public List<String> trustedProxies() {
    return trustedProxies;
  }

  /** Whether to count and log would-be rejections without rejecting; default false. */
  public boolean dryRun() {
    return dryRun;
  }

  /** The most keys held in memory (limiter state and stats each); default 100,000. */
  public int maxKeys() {
    return maxKeys;
  }

  /** The header carrying an API key; default {@code X-Api-Key}. */
  public String apiKeyHeader() {
    return apiKeyHeader;
  }

  /** Path prefix to cost in units (the longest matching prefix wins; otherwise 1). */
  public Map<String, Integer> routeCosts() {
    return routeCosts;
  }

  /** The most requests one key may have in flight; 0 (the default) for no limit. */
  public int concurrency() {
    return concurrency;
  }

  /** Simulated work before each admitted {@code /api/} answer; default zero. */
  public Duration latency() {
    return latency;
  }

  /** Connect and read timeout of the Redis client; default 20 ms. */
  public Duration redisTimeout() {
    return redisTimeout;
  }

  /** The clock every decision reads; default the system UTC clock. */
  public Clock clock() {
    return clock;
  }

  /**
   * How far the server's stated wall clock runs ahead of {@link #clock()} (negative: behind);
   * default zero. It moves every absolute time the server sends ({@code Date}, an HTTP-date
   * {@code Retry-After}, an epoch reset), never what the limiter decides.
   */
  public Duration clockSkew() {
    return clockSkew;
  }

  /** The cost of a request to {@code path}: the longest matching route prefix's, else 1. */
  public int costOf(String path) {
    int cost = 1;
    int longest = -1;
    for (Map.Entry<String, Integer> route : routeCosts.entrySet()) {
      if (path.startsWith(route.getKey()) && route.getKey().length() > longest) {
        longest = route.getKey().length();
        cost = route.getValue();
      }
    }
    return cost;
  }

  @Override
  public String toString() {
    return "algorithm=" + algorithm + " limit=" + limit + " window=" + window
        + (algorithm.usesBurst() ? " burst=" + burst() : "") + " headers=" + headers
        + " store=" + store + (usesRedis() ? " when-down=" + whenDown + " nodes=" + nodes : "")
        + (trustedProxies.isEmpty() ? "" : " trusted-proxies=" + trustedProxies)
        + (dryRun ? " dry-run" : "") + " max-keys=" + maxKeys
        + (routeCosts.isEmpty() ? "" : " costs=" + routeCosts)
        + (concurrency > 0 ? " concurrency=" + concurrency : "")
        + (latency.isZero() ? "" : " latency=" + latency)
        + (clockSkew.isZero() ? "" : " clock-skew=" + clockSkew);
  }

  /**
   * Builds a {@link DemoServerConfig}, or starts a server with it.
   *
   * <p>Usage: {@code DemoServer server = DemoServer.builder().algorithm(Algorithm.GCRA).limit(5).window(Duration.ofSeconds(1)).start();}
   */
  public static final class Builder {
    private String host = "127.0.0.1";
    private int port;
    private Algorithm algorithm = Algorithm.TOKEN_BUCKET;
    private long limit = 10;
    private Duration window = Duration.ofSeconds(1);
    private long burst;
    private HeaderStyle headers = HeaderStyle.IETF;
    private String store = "memory";
    private WhenDown whenDown = WhenDown.OPEN;
    private int nodes = 1;
    private List<String> trustedProxies = new ArrayList<>();
    private boolean dryRun;
    private int maxKeys = 100_000;
    private String apiKeyHeader = "X-Api-Key";
    private Map<String, Integer> routeCosts = new LinkedHashMap<>();
    private int concurrency;
    private Duration latency = Duration.ZERO;
    private Duration redisTimeout = Duration.ofMillis(20);
    private Clock clock = Clock.systemUTC();
    private Duration clockSkew = Duration.ZERO;

    Builder() {}

    Builder(DemoServerConfig c) {
      host = c.host;
      port = c.port;
      algorithm = c.algorithm;
      limit = c.limit;
      window = c.window;
      burst = c.burst;
      headers = c.headers;
      store = c.store;
      whenDown = c.whenDown;
      nodes = c.nodes;
      trustedProxies = new ArrayList<>(c.trustedProxies);
      dryRun = c.dryRun;
      maxKeys = c.maxKeys;
      apiKeyHeader = c.apiKeyHeader;
      routeCosts = new LinkedHashMap<>(c.routeCosts);
      concurrency = c.concurrency;
      latency = c.latency;
      redisTimeout = c.redisTimeout;
      clock = c.clock;
      clockSkew = c.clockSkew;
    }

    /** The address to bind, such as {@code 127.0.0.1} or {@code 0.0.0.0}. */
    public Builder host(String host) {
      if (host == null || host.isBlank()) {
        throw new IllegalArgumentException("host: must not be blank");
      }
      this.host = host;
      return this;
    }

    /** The port, 0 to 65535; 0 picks a free one (read it back from {@link DemoServer#port()}). */
    public Builder port(int port) {
      if (port < 0 || port > 65535) {
        throw new IllegalArgumentException("port: must be 0 to 65535, was " + port);
      }
      this.port = port;
      return this;
    }

    /** The algorithm. */
    public Builder algorithm(Algorithm algorithm) {
      if (algorithm == null) {
        throw new IllegalArgumentException("algorithm: must not be null");
      }
      this.algorithm = algorithm;
      return this;
    }

    /** Units per window, at least 1. */
    public Builder limit(long limit) {
      if (limit < 1) {
        throw new IllegalArgumentException("limit: must be at least 1, was " + limit);
      }
      this.limit = limit;
      return this;
    }

    /** The window, at least 1 ms and at most 366 days. */
    public Builder window(Duration window) {
      if (window == null || window.compareTo(Duration.ofMillis(1)) < 0 || window.compareTo(Duration.ofDays(366)) > 0) {
        throw new IllegalArgumentException("window: must be 1 ms to 366 days, was " + window);
      }
      this.window = window;
      return this;
    }

    /** The bucket capacity when it differs from the limit, at least 1; 0 means "the limit". */
    public Builder burst(long burst) {
      if (burst < 0) {
        throw new IllegalArgumentException("burst: must be at least 1 (or 0 for the limit), was " + burst);
      }
      this.burst = burst;
      return this;
    }

    /** The header dialect. */
    public Builder headers(HeaderStyle headers) {
      if (headers == null) {
        throw new IllegalArgumentException("headers: must not be null");
      }
      this.headers = headers;
      return this;
    }

    /** {@code memory} or {@code redis://HOST:PORT}. */
    public Builder store(String store) {
      if (store == null || !(store.equals("memory") || isRedisUri(store))) {
        throw new IllegalArgumentException(
            "store: must be 'memory' or 'redis://HOST:PORT', was '" + store + "'");
      }
      this.store = store;
      return this;
    }

    /** What to decide while Redis is down. */
    public Builder whenDown(WhenDown whenDown) {
      if (whenDown == null) {
        throw new IllegalArgumentException("whenDown: must not be null");
      }
      this.whenDown = whenDown;
      return this;
    }

    /** How many nodes share the limit, at least 1: the local share is limit ÷ nodes. */
    public Builder nodes(int nodes) {
      if (nodes < 1) {
        throw new IllegalArgumentException("nodes: must be at least 1, was " + nodes);
      }
      this.nodes = nodes;
      return this;
    }

    /** Proxies (addresses or CIDR ranges) whose X-Forwarded-For is believed. */
    public Builder trustedProxies(List<String> trustedProxies) {
      if (trustedProxies == null) {
        throw new IllegalArgumentException("trustedProxies: must not be null");
      }
      new TrustedProxies(trustedProxies); // validates, naming the parameter
      this.trustedProxies = new ArrayList<>(trustedProxies);
      return this;
    }

    /** Count and log would-be rejections, never reject. */
    public Builder dryRun(boolean dryRun) {
      this.dryRun = dryRun;
      return this;
    }

    /** The most keys held in memory, at least 1. */
    public Builder maxKeys(int maxKeys) {
      if (maxKeys < 1) {
        throw new IllegalArgumentException("maxKeys: must be at least 1, was " + maxKeys);
      }
      this.maxKeys = maxKeys;
      return this;
    }

    /** The header that carries an API key. */
    public Builder apiKeyHeader(String apiKeyHeader) {
      if (apiKeyHeader == null || !apiKeyHeader.matches("[!#$%&'*+.^_`|~0-9A-Za-z-]+")) {
        throw new IllegalArgumentException("apiKeyHeader: must be a header name, was '" + apiKeyHeader + "'");
      }
      this.apiKeyHeader = apiKeyHeader;
      return this;
    }

    /** Requests whose path starts with {@code pathPrefix} cost {@code cost} units (at least 1). */
    public Builder routeCost(String pathPrefix, int cost) {
      if (pathPrefix == null || !pathPrefix.startsWith("/")) {
        throw new IllegalArgumentException("routeCost: path prefix must start with '/', was '" + pathPrefix + "'");
      }
      if (cost < 1) {
        throw new IllegalArgumentException("routeCost: cost of " + pathPrefix + " must be at least 1, was " + cost);
      }
      this.routeCosts.put(pathPrefix, cost);
      return this;
    }

    /** The most requests one key may have in flight, at least 0 (0: no limit). */
    public Builder concurrency(int concurrency) {
      if (concurrency < 0) {
        throw new IllegalArgumentException("concurrency: must be at least 0, was " + concurrency);
      }
      this.concurrency = concurrency;
      return this;
    }

    /** Simulated work before each admitted answer, zero or more (the thread is not held). */
    public Builder latency(Duration latency) {
      if (latency == null || latency.isNegative()) {
        throw new IllegalArgumentException("latency: must be zero or more, was " + latency);
      }
      this.latency = latency;
      return this;
    }

    /** Redis connect and read timeout, 1 ms to 1 s; tens of ms keep a dead Redis cheap. */
    public Builder redisTimeout(Duration redisTimeout) {
      if (redisTimeout == null || redisTimeout.compareTo(Duration.ofMillis(1)) < 0
          || redisTimeout.compareTo(Duration.ofSeconds(1)) > 0) {
        throw new IllegalArgumentException("redisTimeout: must be 1 ms to 1 s, was " + redisTimeout);
      }
      this.redisTimeout = redisTimeout;
      return this;
    }

    /** The clock decisions read (a fake one in tests); its instant's nanoseconds are used. */
    public Builder clock(Clock clock) {
      if (clock == null) {
        throw new IllegalArgumentException("clock: must not be null");
      }
      this.clock = clock;
      return this;
    }

    /**
     * How far the server's stated clock is off, ahead (positive) or behind (negative), at most a
     * day either way: {@code clockSkew(Duration.ofSeconds(60))} makes a server whose {@code Date}
     * and HTTP-date {@code Retry-After} run a minute ahead, as a client meets in the wild.
     */
    public Builder clockSkew(Duration clockSkew) {
      if (clockSkew == null || clockSkew.abs().compareTo(Duration.ofDays(1)) > 0) {
        throw new IllegalArgumentException("clockSkew: must be within a day either way, was " + clockSkew);
      }
      this.clockSkew = clockSkew;
      return this;
    }

    /**
     * Checks the combination and freezes it.
     *
     * @throws IllegalArgumentException naming the parameter, for a route cost above what a fresh
     *     key holds, or an algorithm the Redis store does not run
     */
    public DemoServerConfig build() {
      DemoServerConfig config = new DemoServerConfig(this);
      long capacity = Policy.of(config).capacity(config.algorithm); // validates the policy too
      for (Map.Entry<String, Integer> route : routeCosts.entrySet()) {
        if (route.getValue() > capacity) {
          throw new IllegalArgumentException("routeCost: " + route.getKey() + " costs " + route.getValue()
              + " but a key holds at most " + capacity + " (raise limit or burst)");
        }
      }
      if (config.usesRedis() && !config.algorithm.runsOnRedis()) {
        throw new IllegalArgumentException("algorithm: " + config.algorithm
            + " is not supported with a Redis store (supported: " + Algorithm.onRedis() + ")");
      }
      return config;
    }

    /** Builds the configuration and starts a server with it. */
    public DemoServer start() {
      return DemoServer.start(build());
    }

    private static boolean isRedisUri(String store) {
      try {
        URI uri = URI.create(store);
        return "redis".equals(uri.getScheme()) && uri.getHost() != null && uri.getPort() > 0;
      } catch (IllegalArgumentException e) {
        return false;
      }
    }
  }
}
