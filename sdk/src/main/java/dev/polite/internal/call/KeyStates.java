package dev.polite.internal.call;

import dev.polite.PoliteConfig;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;

/**
 * The keys one interceptor knows, bounded. Past {@code maxKeys}, idle keys are forgotten, least
 * recently used first, down to nine tenths of the bound, so the sweep's cost is spread over many
 * new keys. A forgotten key starts again as a new one.
 *
 * <h2>What counts as idle</h2>
 * A key with a call in flight or waiting (blocking, at its gate, or asleep on a reservation) is
 * never forgotten: its callers would keep the old state while new calls got a fresh one, two
 * buckets for one key. A paused key is kept too, since a fresh state would send at once what the
 * server just refused; only when the paused keys alone pass twice the bound are the least
 * recently used of them forgotten, so that a flood of paused keys (each a distinct tenant
 * refused) cannot grow memory without end. A key is {@linkplain KeyState#retireIfIdle retired}
 * under its own lock as it leaves, so a call that still held it looks it up again.
 *
 * <p>When nothing could be forgotten, the next sweep waits for a tenth of the bound more keys:
 * a sweep reads every key, and one per new key would make a run of busy keys quadratic.
 *
 * <p>Thread-safe; lookups of known keys take no lock.
 */
public final class KeyStates {
  private final ConcurrentHashMap<String, KeyState> states = new ConcurrentHashMap<>();
  private final PoliteConfig config;
  private final int maxKeys;
  /** The size at which the next sweep is due. Guarded by this. */
  private int sweepAt;

  public KeyStates(PoliteConfig config) {
    this.config = config;
    this.maxKeys = config.maxKeys();
    this.sweepAt = maxKeys + 1;
  }

  /** The state of {@code key}, made on first use. */
  public KeyState get(String key) {
    KeyState state = states.get(key);
    if (state != null && !state.isRetired()) {
      return state;
    }
    KeyState[] made = {null};
    // A key retires and leaves the map in one step, so an entry here is live. The new state is
    // announced inside the map's step that publishes it: a call on another thread that found it
    // in the map first would otherwise send, and be heard, before its key was (counted under
    // "other" by the meters: one call in fourteen, when 100 went at once to a new key).
    state = states.computeIfAbsent(key, k -> {
      KeyState fresh = new KeyState(k, config, config.ticker().read());
      config.listener().keyAdded(k, fresh::snapshot);
      made[0] = fresh;
      return fresh;
    });
    if (made[0] != null && states.size() >= sweepAt) {
      sweep(made[0]);
    }
    return state;
  }

  /** The state of {@code key} if it is held; null otherwise. */
  public @Nullable KeyState find(String key) {
    KeyState state = states.get(key);
    return state == null || state.isRetired() ? null : state;
  }

  /** Every key held now. */
  public List<KeyState> all() {
    List<KeyState> live = new ArrayList<>(states.size());
    for (KeyState state : states.values()) {
      if (!state.isRetired()) {
        live.add(state);
      }
    }
    return live;
  }

  /** Forgets idle keys but {@code made}, the key just made for a call about to use it. */
  private synchronized void sweep(KeyState made) {
    if (states.size() < sweepAt) {
      return;
    }
    // Sorted on a copy of each key's last use: calls rewrite it meanwhile, and a sort whose keys
    // change under it may throw ("Comparison method violates its general contract").
    List<Aged> aged = new ArrayList<>(states.size());
    for (KeyState state : states.values()) {
      if (state != made) {
        aged.add(new Aged(state, state.lastUsed()));
      }
    }
    aged.sort(Comparator.comparingLong(Aged::lastUsed));
    int excess = states.size() - maxKeys * 9 / 10;
    excess -= forget(aged, excess, false);
    if (excess > 0 && states.size() > 2 * maxKeys) {
      forget(aged, states.size() - 2 * maxKeys, true);
    }
    sweepAt = Math.max(maxKeys, states.size()) + Math.max(1, maxKeys / 10);
  }

  /** Forgets up to {@code count} of {@code byAge}'s idle keys, oldest first; how many it forgot. */
  private int forget(List<Aged> byAge, int count, boolean evenIfPaused) {
    int forgotten = 0;
    for (int i = 0; i < byAge.size() && forgotten < count; i++) {
      KeyState s = byAge.get(i).state();
      boolean[] retired = {false};
      // Retired and removed at once, as one step on the map's key: a new call for the key then
      // finds the live state or none, never a retired one, and makes the next state itself.
      states.computeIfPresent(s.key(), (key, held) -> {
        retired[0] = held == s && s.retireIfIdle(evenIfPaused);
        return retired[0] ? null : held;
      });
      if (retired[0]) {
        s.leave();
        config.listener().keyForgotten(s.key());
        forgotten++;
      }
    }
    return forgotten;
  }

  /** A key and its last use, read once. */
  private record Aged(KeyState state, long lastUsed) {}
}
