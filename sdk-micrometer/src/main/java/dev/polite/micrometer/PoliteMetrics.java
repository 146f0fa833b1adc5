package dev.polite.micrometer;

import dev.polite.CallContext;
import dev.polite.GiveUpReason;
import dev.polite.KeySnapshot;
import dev.polite.PoliteListener;
import dev.polite.RateLimitSignals;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.time.Duration;
import java.util.Arrays;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * Micrometer meters for polite, on any engine: it hears polite as a {@link PoliteListener} and
 * registers its meters as a {@link MeterBinder}.
 *
 * <pre>{@code
 * PoliteMetrics metrics = PoliteMetrics.create();
 * PoliteInterceptor polite = PoliteInterceptor.builder().addListener(metrics).build();
 * metrics.bindTo(registry);
 * }</pre>
 *
 * <h2>Meters</h2>
 * Every meter is tagged {@code key} (the key polite paces, as its key function made it; the
 * built-in key functions never put credentials in it), plus the tags given to
 * {@link Builder#tags(Iterable)}.
 * <table>
 *   <caption>The meters</caption>
 *   <tr><th>Name</th><th>Type</th><th>Other tags</th><th>What</th></tr>
 *   <tr><td>{@code polite.calls.wait}</td><td>timer (seconds)</td><td></td>
 *       <td>the wait of each attempt before it was sent (pause, gate and pace), zero included:
 *       its count is the attempts sent</td></tr>
 *   <tr><td>{@code polite.calls.rejected}</td><td>counter</td><td></td>
 *       <td>answers that were rate-limit rejections (429, a 403 reporting a spent quota)</td></tr>
 *   <tr><td>{@code polite.calls.retries}</td><td>counter</td><td></td>
 *       <td>retries scheduled, after a rejection or a failure</td></tr>
 *   <tr><td>{@code polite.calls.gave.up}</td><td>counter</td><td>{@code reason}</td>
 *       <td>calls polite stopped trying, by {@link GiveUpReason} in lower case
 *       ({@code wait_too_long}, {@code attempts_exhausted}, {@code budget_exhausted},
 *       {@code server_said_no})</td></tr>
 *   <tr><td>{@code polite.calls.would.wait}</td><td>timer (seconds)</td><td></td>
 *       <td>observation mode only: the wait each attempt sent at once would have had for its
 *       key's pause and pace, zero included (its count is the attempts enforcing would have sent;
 *       {@code polite.calls.wait} then records zero for every attempt)</td></tr>
 *   <tr><td>{@code polite.calls.would.retries}</td><td>counter</td><td></td>
 *       <td>observation mode only: retries polite would have made</td></tr>
 *   <tr><td>{@code polite.calls.would.gave.up}</td><td>counter</td><td>{@code reason}</td>
 *       <td>observation mode only: calls polite would have stopped trying, by reason;
 *       {@code wait_too_long} counts the calls it would have refused without sending</td></tr>
 *   <tr><td>{@code polite.key.pace}</td><td>gauge</td><td></td>
 *       <td>the pace, in requests (cost units) per second; NaN while the key is unpaced</td></tr>
 *   <tr><td>{@code polite.key.pause}</td><td>time gauge (seconds)</td><td></td>
 *       <td>how long every call to the key must still wait; zero when not paused</td></tr>
 *   <tr><td>{@code polite.key.tokens}</td><td>gauge</td><td></td>
 *       <td>the key's bucket now; negative while calls wait on reserved tokens, NaN when
 *       unpaced</td></tr>
 *   <tr><td>{@code polite.key.in.flight}</td><td>gauge</td><td></td>
 *       <td>calls sent and not yet answered, and calls holding a reservation</td></tr>
 * </table>
 * The gauges read the key's live state ({@link PoliteListener#keyAdded}'s supplier) each time
 * the registry asks, so they are never stale; the other events ({@code paused},
 * {@code policyLearned}) are not counted, since the gauges show their effect.
 *
 * <h2>The key tag is bounded</h2>
 * At most {@link Builder#maxKeyTags} keys ({@value #DEFAULT_MAX_KEY_TAGS} by default) have their
 * own {@code key} tag, so that a key function with many values (one key per tenant, per route)
 * cannot flood the monitoring system. A key gets its own tag, or not, once: when polite begins
 * keeping it, if fewer than that many are tagged. Every other key's events are counted under
 * {@code key="}{@value #OTHER}{@code "}, and it has no gauges (a sum of paces or pauses means
 * nothing). When polite forgets an idle key ({@link PoliteListener#keyForgotten}, past its
 * {@code maxKeys}), that key's meters are removed from the registry and its place is free for
 * the next new key; a forgotten key that comes back is a new key. Each tagged key costs 13
 * Prometheus series (the timer's count, sum and max; six counters, four of them the give-up
 * reasons; four gauges), so the default bound is about 1,300 series; a key of an observing
 * interceptor ({@link dev.polite.KeySnapshot#observing()}) costs 8 more, for the would-be timer
 * and five counters, which an enforcing interceptor's keys do not have.
 *
 * <p>To drop the {@code key} tag altogether, build with {@code maxKeyTags(0)} rather than a
 * {@code MeterFilter} that ignores the tag: every key is then counted as {@value #OTHER}, and no
 * gauge is made for a key that the filter would merge with every other.
 *
 * <p>Every counter of a tagged key, one per give-up reason included, is registered at zero when
 * the key is: a counter born at its first increment hides that increment from Prometheus'
 * {@code rate()} and {@code increase()}.
 *
 * <h2>Binding</h2>
 * Meters are made when a registry is bound and when a key is added after that; events heard
 * before the first {@link #bindTo} are not counted (there is nowhere to count them), but keys
 * added before it get their gauges at binding, since this listener holds each key's state from
 * the start. Binding to several registries is supported: each gets its own meters, and every
 * event is recorded in each. Binding the same registry twice does nothing the second time.
 *
 * <p>Add one {@code PoliteMetrics} to one interceptor. To bind two interceptors' metrics to one
 * registry, give each its own {@linkplain Builder#tags(String...) tags} (a {@code client} tag,
 * say); otherwise Micrometer hands both the same meters and one's forgotten key removes the
 * other's.
 *
 * <h2>Threads</h2>
 * Thread-safe. polite calls a listener on many threads at once, some holding a key's lock, so
 * the events it hears most ({@code sending}, {@code rateLimited}, {@code retryScheduled},
 * {@code gaveUp} and the would-be ones) take no lock and allocate nothing of their own: one lookup in a concurrent
 * map, then the meters' own atomic updates. Meters are registered and removed only when a key
 * is added or forgotten and when a registry is bound, under one lock of this object's inside
 * which nothing but the registry's own registering and removing is called; so no event waits on
 * a registry or on that lock, and a scrape (which reads the gauges, each taking its key's lock
 * for a moment) never waits on this object.
 *
 * <h2>Why it is built this way</h2>
 * Several registries are supported with meters of our own per registry rather than an inner
 * {@code CompositeMeterRegistry}: a composite warns when a registry is added after its meters
 * exist, and ours exist from the first key, which may well come before {@code bindTo}. A tag's
 * place is decided once per key, not re-decided as places free up, so that a key's series
 * never moves between its own tag and {@value #OTHER} while polite keeps it. polite can forget a
 * key and, on another thread, add it back before the forgetting reaches its listeners; so this
 * class counts the adds of each key not yet forgotten, and removes a key's meters only when the
 * count falls to zero, or the live key would lose its tag to the old one's forgetting. For that
 * count it keeps a small entry for every key polite holds, tagged or not.
 */
public final class PoliteMetrics implements PoliteListener, MeterBinder {
  /** The {@code key} tag of the keys past the bound: {@value}. */
  public static final String OTHER = "other";

  /** How many keys have their own {@code key} tag unless the builder says otherwise: {@value}. */
  public static final int DEFAULT_MAX_KEY_TAGS = 100;

  private static final KeyMeters[] NONE = new KeyMeters[0];

  private final int maxKeyTags;
  private final Tags tags;

  /** Guards every change to {@link #keys}, {@link #registries}, {@link #other} and meters. */
  private final Object structure = new Object();
  /**
   * Every key polite holds, tagged or not (as many as its {@code maxKeys}, one small entry each):
   * read without a lock, written under {@link #structure}.
   */
  private final ConcurrentHashMap<String, HeldKey> keys = new ConcurrentHashMap<>();
  /** How many keys have their own tag; guarded by {@link #structure}. */
  private int tagged;
  /** The bound registries, in binding order; replaced, never changed, under the lock. */
  private volatile MeterRegistry[] registries = new MeterRegistry[0];
  /** The meters of {@value #OTHER}, one per registry; replaced, never changed. */
  private volatile KeyMeters[] other = NONE;
  /**
   * Whether a key of an observing interceptor was added: from then on {@value #OTHER} has the
   * would-be meters too. Written under {@link #structure}.
   */
  private volatile boolean observing;

  private PoliteMetrics(Builder builder) {
    this.maxKeyTags = builder.maxKeyTags;
    this.tags = builder.tags;
  }

  /**
   * Metrics with every default: {@value #DEFAULT_MAX_KEY_TAGS} key tags, no extra tags.
   *
   * <pre>{@code PoliteMetrics metrics = PoliteMetrics.create();}</pre>
   */
  public static PoliteMetrics create() {
    return builder().build();
  }

  /**
   * Starts a configuration.
   *
   * <pre>{@code PoliteMetrics.builder().maxKeyTags(20).tags("client", "github").build()}</pre>
   */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * Registers this object's meters in {@code registry}: those of every key polite holds now,
   * and, from now on, of every key it adds. Events heard before the first binding are not
   * counted. Binding a second registry records every later event in both; binding the same one
   * again does nothing.
   *
   * <pre>{@code metrics.bindTo(registry);}</pre>
   */
  @Override
  public void bindTo(MeterRegistry registry) {
    Objects.requireNonNull(registry, "registry");
    synchronized (structure) {
      for (MeterRegistry bound : registries) {
        if (bound == registry) {
          return;
        }
      }
      registries = append(registries, registry);
      other = append(other, new KeyMeters(registry, OTHER, tags, null, observing));
      for (HeldKey key : keys.values()) {
        KeyMeters[] own = key.meters;
        if (own != null) {
          key.meters = append(own, new KeyMeters(registry, key.key, tags, key.live, key.observing));
        }
      }
    }
  }

  /**
   * Records the attempt's wait in {@code polite.calls.wait}.
   *
   * <pre>{@code metrics.sending(call, Duration.ofMillis(250)); // as polite calls it}</pre>
   */
  @Override
  public void sending(CallContext call, Duration waited) {
    for (KeyMeters m : metersOf(call.key())) {
      m.waited.record(waited);
    }
  }

  /**
   * Counts the rejection in {@code polite.calls.rejected}.
   *
   * <pre>{@code metrics.rateLimited(call, signals); // as polite calls it}</pre>
   */
  @Override
  public void rateLimited(CallContext call, RateLimitSignals signals) {
    for (KeyMeters m : metersOf(call.key())) {
      m.rejected.increment();
    }
  }

  /**
   * Counts the retry in {@code polite.calls.retries}.
   *
   * <pre>{@code metrics.retryScheduled(call, 1, Duration.ofSeconds(2)); // as polite calls it}</pre>
   */
  @Override
  public void retryScheduled(CallContext call, int attempt, Duration delay) {
    for (KeyMeters m : metersOf(call.key())) {
      m.retries.increment();
    }
  }

  /**
   * Counts the give-up in {@code polite.calls.gave.up}, tagged with its reason.
   *
   * <pre>{@code metrics.gaveUp(call, GiveUpReason.WAIT_TOO_LONG, wait); // as polite calls it}</pre>
   */
  @Override
  public void gaveUp(CallContext call, GiveUpReason reason, Duration requestedDelay) {
    for (KeyMeters m : metersOf(call.key())) {
      m.gaveUp[reason.ordinal()].increment();
    }
  }

  /**
   * Records what the attempt would have waited in {@code polite.calls.would.wait} (observation
   * mode).
   *
   * <pre>{@code metrics.wouldWait(call, Duration.ofMillis(250)); // as polite calls it}</pre>
   */
  @Override
  public void wouldWait(CallContext call, Duration wait) {
    for (KeyMeters m : metersOf(call.key())) {
      if (m.wouldWait != null) {
        m.wouldWait.record(wait);
      }
    }
  }

  /**
   * Counts the retry polite would have made in {@code polite.calls.would.retries} (observation
   * mode).
   *
   * <pre>{@code metrics.wouldRetry(call, 1, Duration.ofSeconds(2)); // as polite calls it}</pre>
   */
  @Override
  public void wouldRetry(CallContext call, int attempt, Duration delay) {
    for (KeyMeters m : metersOf(call.key())) {
      if (m.wouldRetry != null) {
        m.wouldRetry.increment();
      }
    }
  }

  /**
   * Counts the give-up polite would have made in {@code polite.calls.would.gave.up}, tagged with
   * its reason (observation mode).
   *
   * <pre>{@code metrics.wouldGiveUp(call, GiveUpReason.WAIT_TOO_LONG, wait); // as polite calls it}</pre>
   */
  @Override
  public void wouldGiveUp(CallContext call, GiveUpReason reason, Duration requestedDelay) {
    for (KeyMeters m : metersOf(call.key())) {
      if (m.wouldGiveUp != null) {
        m.wouldGiveUp[reason.ordinal()].increment();
      }
    }
  }

  /**
   * Gives the key its own tag and gauges if fewer than {@link Builder#maxKeyTags} keys have
   * one; else it is counted under {@value #OTHER}. Holds {@code state} for the key's gauges.
   *
   * <pre>{@code metrics.keyAdded(key, () -> snapshot); // as polite calls it}</pre>
   */
  @Override
  public void keyAdded(String key, Supplier<KeySnapshot> state) {
    Objects.requireNonNull(state, "state");
    boolean observes = state.get().observing(); // outside the lock: it reads the key's
    synchronized (structure) {
      if (observes && !observing) {
        observing = true; // OTHER gains the would-be meters, in every registry
        KeyMeters[] now = other;
        KeyMeters[] more = new KeyMeters[now.length];
        for (int i = 0; i < now.length; i++) {
          more[i] = new KeyMeters(now[i].registry, OTHER, tags, null, true);
        }
        other = more;
      }
      HeldKey held = keys.get(key);
      if (held != null) {
        // The key again, before its forgetting reached us: polite forgot it and a call brought
        // it straight back (or a second interceptor holds it). Its newest state is the live
        // one, and the forgetting on its way is for the old one.
        held.holds++;
        held.live.state = state;
        return;
      }
      held = new HeldKey(key, state, observes);
      // A key function may answer "other" itself; its own meters would be the shared ones,
      // which forgetting it would then remove.
      if (tagged < maxKeyTags && !OTHER.equals(key)) {
        MeterRegistry[] bound = registries;
        KeyMeters[] meters = new KeyMeters[bound.length];
        for (int i = 0; i < bound.length; i++) {
          meters[i] = new KeyMeters(bound[i], key, tags, held.live, observes);
        }
        held.meters = meters;
        tagged++;
      }
      keys.put(key, held);
    }
  }

  /**
   * Removes the key's meters from every registry and frees its tag for another key.
   *
   * <pre>{@code metrics.keyForgotten(key); // as polite calls it}</pre>
   */
  @Override
  public void keyForgotten(String key) {
    synchronized (structure) {
      HeldKey held = keys.get(key);
      if (held == null || --held.holds > 0) {
        return; // unknown, or added again since: still held
      }
      keys.remove(key);
      KeyMeters[] own = held.meters;
      if (own != null) {
        held.meters = null; // a late event for it counts under "other"
        for (KeyMeters m : own) {
          m.remove();
        }
        tagged--;
      }
    }
  }

  /** The meters an event for {@code key} goes to: its own, or those of {@value #OTHER}. */
  private KeyMeters[] metersOf(String key) {
    // A key without a tag, and a late event of a call that held a key just forgotten, count
    // under "other": never lost, and never a tag past the bound. (polite announces a key before
    // any of its calls can be heard, so no event comes before its key's keyAdded.)
    HeldKey held = keys.get(key);
    KeyMeters[] own = held != null ? held.meters : null;
    return own != null ? own : other;
  }

  @Override
  public String toString() {
    synchronized (structure) {
      return "PoliteMetrics{maxKeyTags=" + maxKeyTags + ", tags=" + tags + ", keys=" + keys.size()
          + ", tagged=" + tagged + ", registries=" + registries.length + '}';
    }
  }

  private static <T> T[] append(T[] array, T element) {
    T[] longer = Arrays.copyOf(array, array.length + 1);
    longer[array.length] = element;
    return longer;
  }

  /**
   * A key polite holds: its live state, how many times polite added it without forgetting it
   * yet, and, if it has its own tag, its meters in each bound registry.
   */
  private static final class HeldKey {
    final String key;
    /** Whether its interceptor only observes: its meters include the would-be ones. */
    final boolean observing;
    /** What its gauges read; held here, and so by the map of keys, for as long as they exist. */
    final LiveKey live;
    /** Null for a key counted under "other"; guarded by the structure lock when written. */
    volatile KeyMeters @Nullable [] meters;
    int holds = 1; // guarded by the structure lock

    HeldKey(String key, Supplier<KeySnapshot> state, boolean observing) {
      this.key = key;
      this.live = new LiveKey(state);
      this.observing = observing;
    }
  }

  /**
   * Configures a {@link PoliteMetrics}. Not thread-safe; the metrics it builds are.
   *
   * <pre>{@code PoliteMetrics metrics = PoliteMetrics.builder().maxKeyTags(20).build();}</pre>
   */
  public static final class Builder {
    private int maxKeyTags = DEFAULT_MAX_KEY_TAGS;
    private Tags tags = Tags.empty();

    private Builder() {}

    /**
     * The most keys with their own {@code key} tag; the others count under {@value #OTHER}.
     * Zero counts every key there. Default {@value #DEFAULT_MAX_KEY_TAGS}.
     *
     * <pre>{@code builder.maxKeyTags(20)}</pre>
     */
    public Builder maxKeyTags(int maxKeyTags) {
      if (maxKeyTags < 0) {
        throw new IllegalArgumentException("maxKeyTags must not be negative: " + maxKeyTags);
      }
      this.maxKeyTags = maxKeyTags;
      return this;
    }

    /**
     * Tags added to every meter, after those given before: to tell one interceptor's meters
     * from another's in one registry. Not {@code key} or {@code reason}, which are this
     * module's. Default none.
     *
     * <pre>{@code builder.tags(Tags.of("client", "github"))}</pre>
     */
    public Builder tags(Iterable<Tag> tags) {
      Tags more = Tags.of(Objects.requireNonNull(tags, "tags"));
      for (Tag tag : more) {
        if (tag.getKey().equals(KeyMeters.KEY) || tag.getKey().equals(KeyMeters.REASON)) {
          throw new IllegalArgumentException("the tag '" + tag.getKey()
              + "' is PoliteMetrics' own; name yours otherwise");
        }
      }
      this.tags = this.tags.and(more);
      return this;
    }

    /**
     * Tags added to every meter, as names and values in turn; see {@link #tags(Iterable)}.
     *
     * <pre>{@code builder.tags("client", "github")}</pre>
     */
    public Builder tags(String... keyValues) {
      return tags(Tags.of(keyValues));
    }

    /**
     * The metrics: add them to an interceptor, and bind them to a registry.
     *
     * <pre>{@code PoliteMetrics metrics = builder.build();}</pre>
     */
    public PoliteMetrics build() {
      return new PoliteMetrics(this);
    }

    @Override
    public String toString() {
      return "PoliteMetrics.Builder{maxKeyTags=" + maxKeyTags + ", tags=" + tags + '}';
    }
  }
}
