package dev.polite.demo.internal;

import dev.polite.demo.Algorithm;
import dev.polite.demo.DemoServerConfig;
import dev.polite.demo.WhenDown;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisPool;
import redis.clients.jedis.Pipeline;
import redis.clients.jedis.Response;
import redis.clients.jedis.exceptions.JedisDataException;
import redis.clients.jedis.exceptions.JedisException;

/**
 * The middle ground between each node counting alone and one shared counter: count locally, sync
 * periodically. Each node admits against its last view of the fleet's total plus what it admitted
 * itself since, and every {@code S} (the sync interval) adds its local count to the shared state
 * in Redis and reads the total back: one round trip per {@code S} per node, pipelined across the
 * keys that saw a request since the last sync, and none in the request path. This is Kong's
 * Rate Limiting Advanced {@code sync_rate}.
 *
 * <p><b>The bound.</b> Between syncs each node is blind to what the others admitted, so once the
 * shared total reaches the limit, up to about {@code client rate × S} more requests get through
 * before every node has learned it. With windows (fixed window, sliding window counter) that
 * excess is per window: a client sending 300 a second against 100 a second with {@code S = 200 ms}
 * gets about 60 extra a window. The slack on top is what the nodes admit while a sync is on its
 * way (client rate × one round trip, well under a millisecond on one machine) plus how late the
 * sync thread runs, so {@code excess ≤ client rate × (S + round trip + scheduling delay)}. The token
 * bucket ({@link SyncedBucket}) carries the overshoot as debt, which the fleet then pays back, so
 * over a long run it admits the limit and the excess shows as bursts of the same size.
 *
 * <p><b>Supported:</b> what {@link Algorithm#runsOnSyncedStore()} says, and why. The bucket family
 * is one synced bucket ({@link SyncedBucket}), the windows are {@link SyncedWindow}s.
 *
 * <p><b>Time</b> is the node's clock ({@code nanos}, which tests replace), sent with each sync, not
 * Redis's {@code TIME}: a node's view lives on its own clock between syncs, so the shared state must
 * be on the same one. Nodes need clocks within a few milliseconds of each other (NTP), small
 * against {@code S}; the shared store, deciding inside Redis, needs no such thing.
 *
 * <p><b>Redis down.</b> A failed sync marks the store down and logs it once; requests are then
 * decided as {@link WhenDown} says (open, closed, or this node's share from memory, like the
 * shared store), the counts of the failed sync are not resent, and the sync thread keeps trying
 * every {@code S} (a PING when no key is active), logging the recovery once. A frozen Redis costs
 * the sync thread one timeout per round and the requests nothing: they never wait on Redis.
 *
 * <p>A sync interval of 0 is the shared atomic store ({@link RedisStore}); the server picks that
 * store instead of this one.
 */
// JedisPool: see RedisStore, which this store shares its fail-fast pool settings with.
@SuppressWarnings("deprecation")
public final class SyncedStore implements LimiterStore {
  private static final Logger log = LoggerFactory.getLogger(SyncedStore.class);

  private final JedisPool pool;
  private final String source;
  private final String sha;
  private final String target;
  private final String suffix;
  private final String ttlMillis;
  private final KeyTable<SyncedKey> keys;
  private final Map<String, SyncedKey> active = new ConcurrentHashMap<>();
  private final OutageFallback fallback;
  private final LongSupplier nanos;
  private volatile @Nullable ScheduledExecutorService syncer;

  /** A store that syncs only when {@link #sync()} is called (tests drive it on a fake clock). */
  SyncedStore(URI uri, Algorithm algorithm, Policy policy, WhenDown whenDown, int nodes, Duration timeout,
      LongSupplier nanos, int maxKeys) {
    if (!algorithm.runsOnSyncedStore()) {
      throw new IllegalStateException(algorithm + " cannot be synced (supported: " + Algorithm.onSyncedStore() + ")");
    }
    this.pool = RedisStore.pool(uri, timeout, 2); // one sync thread: one connection, and one spare
    this.target = uri.getHost() + ":" + uri.getPort();
    this.source = RedisStore.resource("synced.lua");
    this.sha = RedisStore.sha1(source);
    boolean bucket = algorithm.usesBurst();
    this.suffix = ":sync:" + (bucket ? "tb" : algorithm == Algorithm.FIXED_WINDOW ? "fw" : "sc");
    // Kept until the state is as good as new, and at least two windows for the window counters.
    this.ttlMillis = Long.toString(Nanos.ceilDiv(Math.max(policy.idleNanos(), 2 * policy.windowNanos()), 1_000_000)
        + 1000);
    this.keys = new KeyTable<>(maxKeys, policy.idleNanos(), bucket
        ? () -> new SyncedBucket(policy)
        : () -> new SyncedWindow(policy, algorithm == Algorithm.SLIDING_COUNTER));
    this.fallback = new OutageFallback(whenDown, algorithm, policy, nodes, nanos, maxKeys);
    this.nanos = nanos;
  }

  /**
   * A store on the Redis at {@code config.redisUri()}, syncing every {@code config.syncInterval()}
   * (more than 0) on a daemon thread of its own, reading time only from {@code nanos}. Does not
   * contact Redis before the first sync: a Redis down at start is handled like one that goes down later.
   */
  public static SyncedStore open(DemoServerConfig config, Policy policy, LongSupplier nanos) {
    long interval = config.syncInterval().toNanos();
    if (interval <= 0) {
      throw new IllegalArgumentException("syncInterval: the synced store needs more than 0 (0 is the shared store)");
    }
    SyncedStore store = new SyncedStore(URI.create(config.redisUri()), config.algorithm(), policy,
        config.whenDown(), config.nodes(), config.redisTimeout(), nanos, config.maxKeys());
    ScheduledExecutorService syncer = Executors.newSingleThreadScheduledExecutor(task -> {
      Thread thread = new Thread(task, "polite-demo-sync");
      thread.setDaemon(true);
      return thread;
    });
    syncer.scheduleWithFixedDelay(store::syncOrLog, interval, interval, TimeUnit.NANOSECONDS);
    store.syncer = syncer;
    return store;
  }

  @Override
  public Decision acquire(String key, long cost) {
    return decide(key, cost, false);
  }

  /** A reservation, which a refund on this node can give back (the node keeps what it reserved). */
  @Override
  public Decision reserve(String key, long units) {
    return decide(key, units, true);
  }

  private Decision decide(String key, long cost, boolean reserving) {
    if (fallback.isDown()) {
      return fallback.decide(key, cost, reserving);
    }
    long now = nanos.getAsLong();
    SyncedKey state = keys.get(key, now);
    active.put(key, state);
    return reserving ? state.reserve(now, cost) : state.tryAcquire(now, cost);
  }

  /**
   * One sync: for every key that saw a request since the last one, adds this node's count to
   * Redis and reads the totals back, all in one pipelined round trip. Marks the store down (and
   * logs it once) when Redis does not answer within the timeout, and up again (logged once) when
   * it answers. Never throws for a Redis outage.
   */
  void sync() {
    long now = nanos.getAsLong();
    List<String> names = new ArrayList<>();
    List<SyncedKey> states = new ArrayList<>();
    for (Iterator<Map.Entry<String, SyncedKey>> it = active.entrySet().iterator(); it.hasNext(); ) {
      Map.Entry<String, SyncedKey> entry = it.next();
      it.remove();
      names.add(entry.getKey());
      states.add(entry.getValue());
    }
    List<List<String>> pushes = new ArrayList<>(states.size());
    for (SyncedKey state : states) {
      List<String> args = new ArrayList<>(state.push(now));
      args.add(ttlMillis);
      pushes.add(args);
    }
    try (Jedis jedis = pool.getResource()) {
      if (pushes.isEmpty()) {
        if (fallback.isDown()) {
          jedis.ping(); // nothing to sync while down: ask whether it is back
        }
      } else {
        List<Object> replies;
        try {
          replies = exchange(jedis, names, pushes);
        } catch (JedisDataException e) {
          if (!String.valueOf(e.getMessage()).startsWith("NOSCRIPT")) {
            throw e;
          }
          jedis.scriptLoad(source); // a new or restarted Redis: load it, then once more
          replies = exchange(jedis, names, pushes);
        }
        for (int i = 0; i < states.size(); i++) {
          states.get(i).learn(replies.get(i));
        }
      }
      fallback.answered(log, target, "counting locally and syncing again");
    } catch (JedisException e) {
      fallback.failed(log, target, e);
    }
  }

  private List<Object> exchange(Jedis jedis, List<String> names, List<List<String>> pushes) {
    Pipeline pipeline = jedis.pipelined();
    List<Response<Object>> responses = new ArrayList<>(pushes.size());
    for (int i = 0; i < pushes.size(); i++) {
      responses.add(pipeline.evalsha(sha, List.of("rl:{" + names.get(i) + "}" + suffix), pushes.get(i)));
    }
    pipeline.sync();
    List<Object> replies = new ArrayList<>(responses.size());
    for (Response<Object> response : responses) {
      replies.add(response.get()); // throws the script's error, NOSCRIPT included
    }
    return replies;
  }

  /** The sync thread's task: a sync, and nothing thrown that would cancel the schedule. */
  private void syncOrLog() {
    try {
      sync();
    } catch (RuntimeException e) {
      log.error("sync with {} failed unexpectedly", target, e);
    }
  }

  /** The outage state and its log counts; for tests. */
  OutageFallback outages() {
    return fallback;
  }

  @Override
  public boolean blocking() {
    return false; // decisions read memory; only the sync thread talks to Redis
  }

  @Override
  public int localKeys() {
    return keys.size() + fallback.localKeys();
  }

  @Override
  public void close() {
    ScheduledExecutorService running = syncer;
    if (running != null) {
      running.shutdownNow();
      try {
        running.awaitTermination(1, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    pool.close();
    fallback.close();
    keys.clear();
  }
}
