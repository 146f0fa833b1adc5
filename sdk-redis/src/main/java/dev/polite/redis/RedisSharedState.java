package dev.polite.redis;

import dev.polite.SharedKey;
import dev.polite.SharedState;
import dev.polite.Ticker;
import io.lettuce.core.RedisConnectionException;
import io.lettuce.core.pubsub.RedisPubSubAdapter;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.DefaultClientResources;
import io.lettuce.core.resource.Delay;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.BitSet;
import java.util.HexFormat;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One budget per key for a whole fleet of polite clients, held in Redis: give every instance's
 * interceptor the same Redis and they spend each key's quota once, together.
 *
 * <pre>{@code
 * RedisSharedState fleet = RedisSharedState.connect("redis://redis:6379");
 * OkHttpClient client = new OkHttpClient.Builder()
 *     .addInterceptor(PoliteInterceptor.builder().sharedState(fleet).build())
 *     .build();
 * }</pre>
 *
 * <h2>What is shared, per key</h2>
 * <ul>
 *   <li>the pace: a policy the server advertised to any instance, or the pace instances
 *       discovered from its refusals (each instance's own, times the instances alive);
 *   <li>a token bucket at that pace, in Redis, decided by one Lua script per lease on Redis's
 *       clock ({@code TIME}), so instances' clocks never need to agree;
 *   <li>the pause: one 429 or one spent quota holds every instance back until its end, heard at
 *       once through Redis pub/sub;
 *   <li>the server's remaining count, less the calls the whole fleet has on the wire.
 * </ul>
 *
 * <h2>Leases: the cost is round trips</h2>
 * An instance does not ask Redis per call: it leases a batch of units, sized from its own recent
 * send rate over {@link Builder#leaseFor} (at least one call's cost, at most its fair share of the
 * fleet's rate over the same time, stretched until that share holds a few units: see
 * {@code Batch}), and spends them as they fall due (see {@code Lease}); units not spent in time go
 * back with its next request. A busy instance thus pays a round trip per batch, an idle one none.
 * While no instance knows a pace, calls go freely and an instance only refreshes what the fleet
 * knows, every {@code leaseFor} at most.
 *
 * <h2>When Redis is slow or down</h2>
 * A call waits for Redis at most {@link Builder#timeout} (20 ms by default; up to ten times that
 * where it would wait as long anyway, and a request no call waits for yet, ten times). Past it, or
 * at once when the connection is down, the instance paces each key alone at its share of the
 * fleet's last known pace (the pace over the instances last seen alive), logs the change once,
 * and asks Redis again, up to every {@link Builder#retryEvery}; five answers in time in a row
 * rejoin it, also logged once (one answer would not do: a Redis answering now in time and now not
 * would flip the fleet on every request). A late answer's units are given back. Redis never fails a call.
 *
 * <h2>Redis Cluster</h2>
 * {@code redis-cluster://host:port,host:port} reaches a cluster by any of its nodes (see
 * {@code ClusterLink}). Pacing alone is per node: a failed master sends only its own keys to pace
 * alone, keys on the others go on sharing, and the change is logged once as the first node goes
 * and once when none is left.
 *
 * <h2>What Redis holds</h2>
 * Per key, two entries under {@code prefix + "{" + digest + "}"}: the digest is SHA-256 of the key
 * (a key may name a credential; it is never written), and the braces are a Redis Cluster hash tag,
 * so both sit in one slot. Both expire after {@link Builder#idleExpiry} without a request.
 *
 * <p>Thread-safe. One instance per process is enough; it holds two Redis connections (Lettuce's,
 * which reconnect by themselves: one for leases, one subscribed to the pauses the lease script
 * publishes as they begin; on a cluster, the lease connection is one per node) and Lettuce's
 * threads until {@link #close()}.
 */
public final class RedisSharedState implements SharedState, AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger("dev.polite.redis");

  private final ClientResources resources;
  private final RedisLink link;
  private final SharedSettings settings;
  /** What its keys may ask of it; a view, so that the keys do not name this class. */
  private final Fleet fleet = new KeysFleet();
  private final AtomicLong roundTrips = new AtomicLong();
  private final LeaseScript script = new LeaseScript(roundTrips);
  private final AtomicBoolean connecting = new AtomicBoolean();
  private final AtomicBoolean subscribing = new AtomicBoolean();
  private final AtomicBoolean waitListenerThrew = new AtomicBoolean();
  private volatile RedisLink.@Nullable Commands connection;
  private volatile @Nullable StatefulRedisPubSubConnection<String, String> pauses;
  private final Map<String, Set<RedisSharedKey>> listening = new ConcurrentHashMap<>();
  /**
   * How long {@link #close()} waits for the client. Lettuce's shutdown is done when every
   * connection has closed, and does not bound that: a close that needs a thread that is waiting
   * (a connection's channel closes on its event loop) would hold it for ever. Its own threads get
   * 2 s to stop; a second more lets connections closing in the ordinary way (milliseconds) end.
   */
  private static final long CLOSE_WAIT_MILLIS = 3_000;

  /** The nodes whose keys pace alone now; each transition of theirs is a line in the log. */
  private final DownNodes downNodes = new DownNodes();
  private volatile boolean closed;

  private RedisSharedState(Function<ClientResources, RedisLink> link, SharedSettings settings) {
    this.settings = settings;
    // Lettuce's own reconnect delay (doubling from 1 ms, as its default) but at most retryEvery,
    // not its default 30 s: the state's one connection is the only one, so after a long outage
    // it must come back as soon as a key would ask again.
    this.resources = DefaultClientResources.builder()
        .reconnectDelay(() -> Delay.exponential(Duration.ZERO, Duration.ofNanos(settings.retryEveryNanos()),
            2, TimeUnit.MILLISECONDS))
        .build();
    this.link = link.apply(resources);
  }

  /**
   * A shared state on the Redis at {@code redisUri} ({@code redis://host:port}, Lettuce's URI
   * syntax: {@code rediss://} for TLS, {@code redis://:password@host}, a database as the path),
   * with the defaults. It waits up to a second for the connection; if Redis is not there, calls
   * go on alone and it keeps trying.
   *
   * <pre>{@code PoliteInterceptor.builder().sharedState(RedisSharedState.connect("redis://redis:6379"))}</pre>
   *
   * <p>{@code redis-cluster://host:port,host:port} (or {@code rediss-cluster://}) for a Redis
   * Cluster, by any of its nodes.
   *
   * @throws IllegalArgumentException for a URI Lettuce cannot read
   */
  public static RedisSharedState connect(String redisUri) {
    return builder(redisUri).build();
  }

  /**
   * A builder, for other than the defaults.
   *
   * <pre>{@code RedisSharedState.builder("redis://redis:6379").timeout(Duration.ofMillis(50)).build()}</pre>
   */
  public static Builder builder(String redisUri) {
    return new Builder(RedisLinks.parse(Objects.requireNonNull(redisUri, "redisUri")));
  }

  /** A builder for a state on {@code link}: for tests that stand a link in front of a real one. */
  static Builder builder(Function<ClientResources, RedisLink> link) {
    return new Builder(link);
  }

  @Override
  public SharedKey join(String key, Ticker ticker, Runnable onNews) {
    String tag = settings.prefix() + "{" + Hex.digest("SHA-256", key).substring(0, 32) + "}";
    String[] keys = {tag + ":state", tag + ":alive"};
    RedisSharedKey[] made = new RedisSharedKey[1];
    listening.compute(keys[0], (k, joined) -> {
      Set<RedisSharedKey> all = joined != null ? joined : ConcurrentHashMap.newKeySet();
      made[0] = new RedisSharedKey(fleet, keys, member(freeSeat(all)), ticker, onNews);
      all.add(made[0]);
      return all;
    });
    return made[0];
  }

  /**
   * The lowest seat no key in {@code joined} holds. Several interceptors on this state (one per
   * client, say) each join a key, and each is its own demand on the fleet: its own calls in
   * flight, its own pace found, its own share while Redis is away. So each is a member of the
   * fleet of its own; under one name they would overwrite each other's counts and each pace
   * alone at the whole instance's share.
   */
  private static int freeSeat(Set<RedisSharedKey> joined) {
    BitSet taken = new BitSet();
    joined.forEach(key -> taken.set(key.seat()));
    return taken.nextClearBit(0);
  }

  /** The fleet member a key in {@code seat} asks as: this instance's id, then id.1, id.2... */
  private Member member(int seat) {
    return new Member(seat, seat == 0 ? settings.instanceId() : settings.instanceId() + "." + seat);
  }

  /** Whether the connection subscribed to the fleet's pauses has landed (its subscribe sent). */
  boolean hearsPauses() {
    return pauses != null;
  }

  /** {@code key} left: it hears no more pauses, and its seat is free. */
  void left(String stateKey, SharedKey key) {
    listening.computeIfPresent(stateKey, (k, keys) -> {
      keys.remove(key);
      return keys.isEmpty() ? null : keys;
    });
  }

  /** The channel every pause of this prefix is published on. */
  String pauseChannel() {
    return settings.prefix() + "pauses";
  }

  /** Redis commands this instance has sent so far: its round trips. */
  public long roundTrips() {
    return roundTrips.get();
  }

  /** Whether keys pace alone now (all, or a failed Cluster node's), because Redis did not answer in time. */
  public boolean isFallingBack() {
    return downNodes.any();
  }

  /** Whether the key whose state is at {@code redisKey} paces alone now: its node did not answer in time. */
  boolean isFallingBack(String redisKey) {
    return downNodes.any() && downNodes.contains(link.nodeOf(redisKey));
  }

  /** The node a request for {@code redisKey} goes to now, to be told with its outcome. */
  String nodeOf(String redisKey) {
    return link.nodeOf(redisKey);
  }

  /**
   * Closes the connections and the client; keys fall back to pacing alone. Waits at most
   * {@link #CLOSE_WAIT_MILLIS} for the client, then leaves its connections to Lettuce's threads,
   * which it stops.
   */
  @Override
  public void close() {
    closed = true;
    RedisLink.Commands c = connection;
    connection = null;
    if (c != null) {
      c.closeAsync();
    }
    StatefulRedisPubSubConnection<String, String> p = pauses;
    pauses = null;
    if (p != null) {
      p.closeAsync();
    }
    try {
      link.shutdownAsync().get(CLOSE_WAIT_MILLIS, TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (TimeoutException e) {
      log.warn("polite: the Redis client for {} did not close within {} ms; its connections end "
          + "with Lettuce's threads", link, CLOSE_WAIT_MILLIS);
    } catch (ExecutionException e) {
      log.warn("polite: the Redis client for {} did not close cleanly", link, e.getCause());
    }
    resources.shutdown(0, 2, TimeUnit.SECONDS); // the client's, but not owned by it
  }

  /** How often the keys went alone or came back: each a line in the log. */
  long transitions() {
    return downNodes.transitions();
  }

  boolean isClosed() {
    return closed;
  }

  SharedSettings settings() {
    return settings;
  }

  /** Whether anyone listens for how long calls wait for Redis ({@link Builder#onCallWaited}). */
  boolean timesWaits() {
    return settings.callWaited() != null;
  }

  /** Tells the listener, if any, that calls waited these nanoseconds for Redis. */
  void callsWaited(long[] waitedNanos) {
    Consumer<Duration> listener = settings.callWaited();
    if (listener == null) {
      return;
    }
    for (long nanos : waitedNanos) {
      try {
        listener.accept(Duration.ofNanos(nanos));
      } catch (RuntimeException e) {
        if (waitListenerThrew.compareAndSet(false, true)) {
          log.warn("polite: the onCallWaited listener threw (dropped; this is logged once)", e);
        }
      }
    }
  }

  /**
   * Runs the lease script, failing at once when not connected; the caller times it out.
   *
   * @param keys the key's two Redis keys
   */
  CompletableFuture<LeaseAnswer> lease(String[] keys, String[] args) {
    RedisLink.Commands c = connection;
    if (c == null) {
      connectInBackground(); // never connected yet (or the first connect is still under way)
      return CompletableFuture.failedFuture(new RedisConnectionException("not connected to " + link));
    }
    if (!c.isOpen()) {
      // Lettuce reconnects this connection by itself: another one beside it would be a second
      // connection for the life of the state, one more per outage.
      return CompletableFuture.failedFuture(new RedisConnectionException("reconnecting to " + link));
    }
    if (pauses == null) {
      subscribeToPauses(); // the first subscription failed, or is still under way
    }
    // Not timed out here: the key times out a copy, so that an answer after it still reaches the
    // key and the units it granted go back. Lettuce's command timeout bounds how late it may be.
    return script.run(c.scripting(), keys, args);
  }

  /**
   * An answer from {@code node} came within the timeout: once {@link AskAgain#REJOIN_AFTER} have in a
   * row, that node's keys rejoin the fleet. A node that no longer serves any key (a Cluster's
   * failed master, its slots taken over) stops holding keys alone. Logged once, when no node does.
   */
  void reached(String node) {
    if (!downNodes.reached(node, link::serves)) {
      return;
    }
    log.info("polite: Redis at {} answers in time again; keys rejoin the fleet's budget", link);
  }

  /**
   * A request to {@code node} failed or timed out: that node's keys pace alone from now until it
   * has answered in time {@link AskAgain#REJOIN_AFTER} times in a row. Logged once, as the first node goes.
   */
  void unreachable(String node, Throwable cause) {
    if (closed || !downNodes.unreachable(node)) {
      return;
    }
    String why = cause instanceof TimeoutException
        ? "did not answer in time (a call waits for it at most " + settings.timeoutNanos() / 1_000_000 + " ms)"
        : "cannot be reached (" + cause + ")";
    log.warn("polite: Redis at {} {}; each key paces alone at its share of the fleet's pace until "
        + "it answers in time again", link, why);
  }

  /**
   * Opens the state's one connection, unless it has one or is opening it: the attempt runs to its
   * end however long it takes (a connect that {@link #connectNow} stopped waiting for is adopted
   * when it lands, or closed if the state was closed meanwhile), and only a failed attempt lets
   * the next lease try again. Once open, the connection is Lettuce's to reconnect.
   *
   * @return the attempt, or null when none was started
   */
  private @Nullable CompletableFuture<RedisLink.Commands> connectInBackground() {
    if (closed || connection != null || !connecting.compareAndSet(false, true)) {
      return null;
    }
    CompletableFuture<RedisLink.Commands> attempt;
    try {
      attempt = link.connect()
          .thenApply(c -> {
            connected(c);
            return c;
          });
    } catch (RuntimeException e) {
      connecting.set(false);
      return CompletableFuture.failedFuture(e);
    }
    attempt.whenComplete((c, failure) -> connecting.set(false));
    return attempt;
  }

  private void connectNow() {
    CompletableFuture<RedisLink.Commands> attempt = connectInBackground();
    if (attempt == null) {
      return;
    }
    try {
      RedisLink.Commands c = attempt.get(settings.connectWait().toNanos(),
          TimeUnit.NANOSECONDS);
      // One lease on a key of its own, waited for here: the first decision a call waits for is
      // then not the one that loads Lettuce's and polite's classes (tens of ms, past the timeout).
      String tag = settings.prefix() + "{warm-up}";
      script.run(c.scripting(), new String[] {tag + ":state", tag + ":alive"},
          LeaseRequest.warmUp(settings.instanceId()).toArgs())
          .get(settings.connectWait().toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (ExecutionException e) {
      unreachable("", e.getCause() != null ? e.getCause() : e);
    } catch (Exception e) {
      unreachable("", e); // a timeout: the connect goes on, adopted when it lands
    }
  }

  /** Runs on the thread the connect landed on, often the connection's own event loop: never waits. */
  private void connected(RedisLink.Commands c) {
    if (closed) {
      c.closeAsync();
      return;
    }
    script.load(c.scripting()); // so that the first lease, timed, is not the one that sends the text
    connection = c;
    if (closed) { // closed as it landed: close() may have read the field before it was set
      connection = null;
      c.closeAsync();
      return;
    }
    subscribeToPauses();
  }

  /**
   * Opens the connection subscribed to the pauses, unless there is one or it is being opened.
   * Once open it is Lettuce's to reconnect and resubscribe, as the lease connection is; until
   * then, as for that one, only a failed attempt lets the next lease try again. Without the
   * retry, an instance whose first subscription failed (Redis restarting as it connected) would
   * hear the fleet's pauses only in its lease answers for the rest of its life.
   */
  private void subscribeToPauses() {
    if (closed || pauses != null || !subscribing.compareAndSet(false, true)) {
      return;
    }
    CompletableFuture<? extends StatefulRedisPubSubConnection<String, String>> attempt;
    try {
      attempt = link.connectPubSub();
    } catch (RuntimeException e) {
      subscribing.set(false);
      return;
    }
    attempt.whenComplete((p, failure) -> {
      if (failure == null) {
        listen(p);
      }
      subscribing.set(false);
    });
  }

  /**
   * Hears the fleet's pauses as they begin, lengthen or end, so that an instance spending a lease
   * holds back at once rather than at its next request. Lettuce subscribes again after a
   * reconnect; a pause missed meanwhile still arrives with the next request's answer.
   */
  private void listen(StatefulRedisPubSubConnection<String, String> p) {
    if (closed) {
      p.closeAsync(); // on the thread the connect landed on, as connected(): never waits
      return;
    }
    p.addListener(new RedisPubSubAdapter<>() {
      @Override
      public void message(String channel, String message) {
        heard(message);
      }
    });
    roundTrips.incrementAndGet();
    p.async().subscribe(pauseChannel());
    pauses = p;
    if (closed) { // closed as it landed: close() may have read the field before it was set
      pauses = null;
      p.closeAsync();
    }
  }

  /**
   * A pause published by the lease script, "{@code <state key> <micros left> <refused>}", or the
   * end of a discovery, "{@code <state key> paced}".
   */
  private void heard(String message) {
    String[] parts = message.split(" ");
    if (parts.length != 3 && parts.length != 2) {
      return; // not ours: a channel is anyone's to publish on
    }
    Set<RedisSharedKey> keys = listening.get(parts[0]);
    if (keys == null) {
      return;
    }
    if (parts.length == 2) {
      if (parts[1].equals("paced")) {
        keys.forEach(RedisSharedKey::heardPaced);
      }
      return;
    }
    long micros;
    try {
      micros = (long) Double.parseDouble(parts[1]);
    } catch (NumberFormatException notOurs) {
      return;
    }
    if (micros < 0) {
      return;
    }
    for (RedisSharedKey key : keys) {
      key.heardPause(micros, "1".equals(parts[2]));
    }
  }

  /** This state as its keys see it: each method the one of the same name above. */
  private final class KeysFleet implements Fleet {
    @Override
    public SharedSettings settings() {
      return settings;
    }

    @Override
    public boolean isClosed() {
      return RedisSharedState.this.isClosed();
    }

    @Override
    public boolean isFallingBack(String redisKey) {
      return RedisSharedState.this.isFallingBack(redisKey);
    }

    @Override
    public String nodeOf(String redisKey) {
      return RedisSharedState.this.nodeOf(redisKey);
    }

    @Override
    public String pauseChannel() {
      return RedisSharedState.this.pauseChannel();
    }

    @Override
    public CompletableFuture<LeaseAnswer> lease(String[] keys, String[] args) {
      return RedisSharedState.this.lease(keys, args);
    }

    @Override
    public void reached(String node) {
      RedisSharedState.this.reached(node);
    }

    @Override
    public void unreachable(String node, Throwable cause) {
      RedisSharedState.this.unreachable(node, cause);
    }

    @Override
    public boolean timesWaits() {
      return RedisSharedState.this.timesWaits();
    }

    @Override
    public void callsWaited(long[] waitedNanos) {
      RedisSharedState.this.callsWaited(waitedNanos);
    }

    @Override
    public void left(String stateKey, SharedKey key) {
      RedisSharedState.this.left(stateKey, key);
    }

    @Override
    public String toString() {
      return RedisSharedState.this.toString();
    }
  }

  @Override
  public String toString() {
    return "RedisSharedState{" + link + (downNodes.any() ? ", falling back" : "") + '}';
  }

  /**
   * Builds a {@link RedisSharedState}; every setting has a default.
   *
   * <pre>{@code RedisSharedState.builder("redis://redis:6379").prefix("billing:").build()}</pre>
   */
  public static final class Builder {
    private final Function<ClientResources, RedisLink> link;
    private Duration timeout = Duration.ofMillis(20);
    private String prefix = "polite:";
    private Duration leaseFor = Duration.ofSeconds(2);
    private Duration validity = Duration.ofMillis(250);
    private Duration idleExpiry = Duration.ofMinutes(10);
    private Duration aliveWindow = Duration.ofSeconds(10);
    private Duration retryEvery = Duration.ofSeconds(1);
    private Duration connectWait = Duration.ofSeconds(1);
    private String instanceId = randomId();
    private @Nullable Consumer<Duration> callWaited;

    private Builder(Function<ClientResources, RedisLink> link) {
      this.link = link;
    }

    /**
     * The longest a call waits for Redis before its key paces alone. Default 20 ms. A request no
     * call waits for yet (the next lease, asked for ahead) is late only at ten times this, or
     * this long after a call begins to wait for it. A call may wait up to ten times this where it
     * would wait as long anyway: for a key's requests until its first lease and while the fleet
     * knows no pace (a fleet's discovery may hold a call longer), and for a lease while the
     * fleet's schedule runs that far ahead of its calls (its unit falls due no sooner, however
     * soon Redis answers).
     */
    public Builder timeout(Duration timeout) {
      this.timeout = positive(timeout, "timeout");
      return this;
    }

    /** What every Redis key this writes begins with. Default {@code "polite:"}. */
    public Builder prefix(String prefix) {
      if (prefix.contains("{") || prefix.contains("}")) {
        throw new IllegalArgumentException("the prefix may not hold braces (the hash tag is polite's): " + prefix);
      }
      this.prefix = prefix;
      return this;
    }

    /**
     * How much of its own demand an instance leases at once: a batch is its send rate over this
     * time, or over a longer one where the fleet's rate split among its instances would give each
     * fewer than 5 units. Longer saves round trips; shorter spreads the fleet's tokens more
     * finely. Default 2 s.
     */
    public Builder leaseFor(Duration leaseFor) {
      this.leaseFor = positive(leaseFor, "leaseFor");
      return this;
    }

    /**
     * How long after falling due a leased unit may still be spent before it goes back; the fleet
     * may run at most the key's rate times this ahead of its bucket. Default 250 ms.
     */
    public Builder validity(Duration validity) {
      this.validity = positive(validity, "validity");
      return this;
    }

    /** How long a key's entries stay in Redis without a request. Default 10 minutes. */
    public Builder idleExpiry(Duration idleExpiry) {
      if (idleExpiry.compareTo(Duration.ofSeconds(1)) < 0) {
        throw new IllegalArgumentException("idleExpiry must be at least a second: " + idleExpiry);
      }
      this.idleExpiry = idleExpiry;
      return this;
    }

    /**
     * How recently an instance must have asked about a key to count as alive, which sets each
     * one's share while Redis is away. Default 10 s.
     */
    public Builder aliveWindow(Duration aliveWindow) {
      this.aliveWindow = positive(aliveWindow, "aliveWindow");
      return this;
    }

    /** How often a key pacing alone asks Redis again. Default 1 s. */
    public Builder retryEvery(Duration retryEvery) {
      this.retryEvery = positive(retryEvery, "retryEvery");
      return this;
    }

    /** How long {@link #build()} waits for the first connection. Default 1 s; zero to not wait. */
    public Builder connectWait(Duration connectWait) {
      if (connectWait.isNegative()) {
        throw new IllegalArgumentException("connectWait must not be negative: " + connectWait);
      }
      this.connectWait = connectWait;
      return this;
    }

    /** This instance's name among the fleet's (never a secret). Default a random one. */
    public Builder instanceId(String instanceId) {
      if (instanceId.isBlank()) {
        throw new IllegalArgumentException("instanceId must not be blank");
      }
      this.instanceId = instanceId;
      return this;
    }

    /**
     * Tells {@code listener} how long each call Redis held back waited for it: from the step that
     * found its lease spent (or its turn to re-verify the fleet's pause unknown) to the answer, or
     * to the time-out (at most {@link #timeout}, or the longer bound it names). This is the
     * latency the fleet adds to a call, as, say, a Micrometer timer would record it. Not told:
     * <ul>
     *   <li>calls that go on the lease they hold: they wait for nothing;
     *   <li>calls whose answer grants units that fall due after it comes: the fleet sends at its
     *       pace, and the fleet's schedule, not the round trip, says when each goes;
     *   <li>calls a starting fleet holds while one instance discovers a pace no server
     *       advertised: they wait for that instance's calls, not for Redis.
     * </ul>
     *
     * <p>Runs on the thread that completes the request (Lettuce's, or the time-out's), after the
     * key's lock is released: keep it quick. What it throws is dropped, and logged the first time.
     */
    public Builder onCallWaited(Consumer<Duration> listener) {
      this.callWaited = Objects.requireNonNull(listener, "listener");
      return this;
    }

    /** The shared state, connected (or trying to be, if Redis is not there yet). */
    public RedisSharedState build() {
      RedisSharedState state = new RedisSharedState(link, new SharedSettings(timeout.toNanos(), prefix,
          leaseFor.toNanos(), validity.toNanos(), idleExpiry.toMillis(), aliveWindow.toNanos() / 1000,
          retryEvery.toNanos(), connectWait, instanceId, callWaited));
      if (connectWait.isZero()) {
        state.connectInBackground();
      } else {
        state.connectNow();
      }
      return state;
    }

    private static Duration positive(Duration d, String name) {
      if (d.isNegative() || d.isZero()) {
        throw new IllegalArgumentException(name + " must be positive: " + d);
      }
      return d;
    }

    private static String randomId() {
      byte[] bytes = new byte[6];
      new SecureRandom().nextBytes(bytes);
      return HexFormat.of().formatHex(bytes);
    }
  }
}
