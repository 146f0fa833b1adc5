package dev.polite.demo.internal;

import dev.polite.demo.Algorithm;
import dev.polite.demo.DemoServerConfig;
import dev.polite.demo.WhenDown;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import org.apache.commons.pool2.impl.GenericObjectPoolConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import redis.clients.jedis.ClientSetInfoConfig;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisPool;
import redis.clients.jedis.exceptions.JedisConnectionException;
import redis.clients.jedis.exceptions.JedisDataException;
import redis.clients.jedis.exceptions.JedisException;
import redis.clients.jedis.exceptions.JedisNoScriptException;

/**
 * Limiter state in a shared Redis: every node asks the same store, so the limit holds for the
 * fleet however the load balancer spreads a client.
 *
 * <p>One Lua script per decision (read, decide and write run inside Redis, atomically, in one
 * round trip; a GET-then-SET would admit about {@code limit × (1 + rate × round trip)}). The
 * script reads Redis's own clock ({@code TIME}) so nodes with skewed clocks agree, sets an expiry
 * on every key it writes so idle clients disappear, and touches only keys hash-tagged with the
 * client ({@code rl:{ip:203.0.113.7}:tb}) so it runs on Redis Cluster. It is sent as EVALSHA,
 * and as EVAL (which also caches it) when Redis answers NOSCRIPT, e.g. after a restart.
 *
 * <p>The client fails fast: connect and read timeouts of tens of milliseconds and no retries
 * (Jedis's {@link JedisPool} does not retry; a retrying client turns "fail open" into seconds of
 * latency per request). When Redis itself fails (a refused or broken connection, a timeout, or an
 * error reply) the store is marked down, the transition is logged once, and the request is decided
 * by {@link WhenDown}: open, closed, or this node's share of the limit from memory.
 *
 * <p>A full pool is not Redis failing. The pool holds a connection for every thread that may
 * decide at once ({@link ServerThreads#tasks}), so the server's own decisions never wait for one;
 * a caller with more threads waits its turn for at most one timeout, and then gets a
 * {@link StoreBusyException} (a 503), not a decision. Counted as an outage, a wait in vain would
 * let a burst of callers mark a merely slow Redis down, and {@code --when-down open} would then
 * admit them past the limit (RedisStoreTest checks it cannot; the figures: demo-server/README.md,
 * "The Redis store"). Anything else that fails on the client's side is a 503 too. While down, only
 * one request per probe interval tries Redis again; the rest decide locally without waiting, so
 * every decision answers within about two timeouts even if Redis hangs. The first success logs
 * the recovery, once.
 *
 * <p>Which script runs an algorithm, and which keys it touches, is {@link RedisScript#of}'s to say.
 */
// JedisPool is deprecated in Jedis 7. This store's fail-over timings (one timeout, no retries)
// were measured on it, so moving to Jedis's newer pooled client is a change of its own, to be measured the same
// way; until then the pool stays, knowingly.
@SuppressWarnings("deprecation")
public final class RedisStore implements LimiterStore {
  private static final Logger log = LoggerFactory.getLogger(RedisStore.class);
  static final long PROBE_INTERVAL_NANOS = Duration.ofMillis(200).toNanos();

  private final JedisPool pool;
  private final RedisScript script;
  private final String source;
  private final String sha;
  private final List<String> args;
  private final OutageFallback fallback;
  private final String target;
  private final LongSupplier nanos;
  private final AtomicLong nextProbe = new AtomicLong();

  private RedisStore(URI uri, Algorithm algorithm, Policy policy, WhenDown whenDown, int nodes,
      Duration timeout, int connections, LongSupplier nanos, int maxKeys) {
    this.script = RedisScript.of(algorithm); // first: refuses before a pool exists to leak
    this.pool = pool(uri, timeout, connections);
    this.target = uri.getHost() + ":" + uri.getPort();
    this.source = resource("common.lua") + "\n" + resource(script.name() + ".lua");
    this.sha = sha1(source);
    long windowMicros = Math.max(1, policy.windowNanos() / 1000);
    this.args = List.of(Long.toString(policy.limit()), Long.toString(windowMicros),
        Long.toString(policy.burst()));
    this.fallback = new OutageFallback(whenDown, algorithm, policy, nodes, nanos, maxKeys);
    this.nanos = nanos;
  }

  /**
   * A store on the Redis at {@code config.store()} ({@code redis://HOST:PORT}), reading time only
   * from {@code nanos} (the server's clock, which tests replace). Does not contact
   * Redis: a Redis that is down at start is handled like one that goes down later.
   *
   * @throws IllegalStateException for an algorithm Redis cannot run (the configuration refuses it
   *     first)
   */
  public static RedisStore open(DemoServerConfig config, Policy policy, LongSupplier nanos) {
    return open(config, policy, nanos, ServerThreads.tasks(config));
  }

  /** A store whose pool holds {@code connections}; for tests of a full pool. */
  static RedisStore open(DemoServerConfig config, Policy policy, LongSupplier nanos, int connections) {
    return new RedisStore(URI.create(config.redisUri()), config.algorithm(), policy, config.whenDown(),
        config.nodes(), config.redisTimeout(), connections, nanos, config.maxKeys());
  }

  @Override
  public Decision acquire(String key, long cost) {
    return decide(key, cost, false);
  }

  /** A reservation: the script keeps what it consumed, for a refund (on any node) to give back. */
  @Override
  public Decision reserve(String key, long units) {
    return decide(key, units, true);
  }

  private Decision decide(String key, long cost, boolean reserving) {
    if (fallback.isDown() && !takeProbe(nanos.getAsLong())) {
      return fallback.decide(key, cost, reserving);
    }
    try {
      Decision decision = eval(key, cost, reserving);
      fallback.answered(log, target, "deciding in Redis again");
      return decision;
    } catch (JedisConnectionException | JedisDataException redisFailed) {
      nextProbe.set(Nanos.saturatedAdd(nanos.getAsLong(), PROBE_INTERVAL_NANOS));
      fallback.failed(log, target, redisFailed);
      return fallback.decide(key, cost, reserving);
    } catch (JedisException notRedis) {
      // the pool stayed full for the whole wait ("Could not get a resource from the pool"), or the
      // client failed on its own side: nothing says Redis is down, so this request is not decided
      throw new StoreBusyException("rate limiter store " + target + " is busy: " + notRedis.getMessage(), notRedis);
    }
  }

  /** The connection pool; for tests, which hold its connections to fill it. */
  JedisPool pool() {
    return pool;
  }

  /**
   * Whether this request, while the store is down, is the one that asks Redis again: the first
   * at or after the probe time, and only one of any that race for it. The server's clock is a
   * wall clock, so it can step back; a probe time further ahead than one interval means it did,
   * and the probe is taken at once rather than postponed by the size of the step.
   */
  private boolean takeProbe(long now) {
    long next = nextProbe.get();
    boolean due = now - next >= 0 || next - now > PROBE_INTERVAL_NANOS;
    return due && nextProbe.compareAndSet(next, Nanos.saturatedAdd(now, PROBE_INTERVAL_NANOS));
  }

  /** Whether the store is marked down now. */
  public boolean isDown() {
    return fallback.isDown();
  }

  /** The outage state and its log counts; for tests. */
  OutageFallback outages() {
    return fallback;
  }

  private Decision eval(String key, long cost, boolean reserving) {
    List<String> keys = script.keys(key);
    List<String> argv = List.of(args.get(0), args.get(1), args.get(2), Long.toString(cost), reserving ? "1" : "0");
    Object result;
    try (Jedis jedis = pool.getResource()) {
      try {
        result = jedis.evalsha(sha, keys, argv);
      } catch (JedisNoScriptException e) {
        result = jedis.eval(source, keys, argv);
      }
    }
    List<?> values = (List<?>) result;
    return new Decision(
        ((Number) values.get(0)).longValue() == 1,
        Math.max(0, ((Number) values.get(1)).longValue()),
        Nanos.saturatedMultiply(((Number) values.get(2)).longValue(), 1000),
        Nanos.saturatedMultiply(((Number) values.get(3)).longValue(), 1000),
        0,
        values.size() > 4 ? ((Number) values.get(4)).longValue() : 0); // the units a refund gave back
  }

  @Override
  public boolean blocking() {
    return true;
  }

  @Override
  public int localKeys() {
    return fallback.localKeys();
  }

  @Override
  public void close() {
    pool.close();
    fallback.close();
  }

  /**
   * A pool of at most {@code connections} that fails fast: connect and read within
   * {@code timeout}, no retries, and at most {@code timeout} waiting for a pooled connection.
   */
  static JedisPool pool(URI uri, Duration timeout, int connections) {
    int timeoutMillis = (int) Math.max(1, timeout.toMillis());
    GenericObjectPoolConfig<Jedis> poolConfig = new GenericObjectPoolConfig<>();
    poolConfig.setMaxTotal(connections);
    poolConfig.setMaxIdle(connections);
    poolConfig.setMinIdle(0);
    poolConfig.setMaxWait(Duration.ofMillis(timeoutMillis));
    poolConfig.setJmxEnabled(false);
    poolConfig.setTestOnBorrow(false);
    return new JedisPool(poolConfig, new HostAndPort(uri.getHost(), uri.getPort()),
        DefaultJedisClientConfig.builder()
            .connectionTimeoutMillis(timeoutMillis)
            .socketTimeoutMillis(timeoutMillis)
            .clientSetInfoConfig(ClientSetInfoConfig.DISABLED)
            .build());
  }

  /** A script resource {@code redis/NAME}, as the stores send it. */
  static String resource(String name) {
    try (InputStream in = RedisStore.class.getResourceAsStream("redis/" + name)) {
      if (in == null) {
        throw new IllegalStateException("missing script resource redis/" + name);
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new IllegalStateException("cannot read script resource redis/" + name, e);
    }
  }

  /** The SHA-1 Redis names a script by (EVALSHA). */
  static String sha1(String text) {
    try {
      return HexFormat.of().formatHex(
          MessageDigest.getInstance("SHA-1").digest(text.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-1 is missing from this JVM", e);
    }
  }
}
