package dev.polite.internal;

import dev.polite.PoliteConfig;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;

/**
 * The keys one interceptor knows, bounded: past {@code maxKeys}, idle keys (none of their calls
 * in flight) are forgotten, least recently used first, down to nine tenths of the bound, so the
 * sweep's cost is spread over many new keys. A forgotten key starts again as a new one.
 *
 * <p>Thread-safe; lookups of known keys take no lock.
 */
public final class KeyStates {
  private final ConcurrentHashMap<String, KeyState> states = new ConcurrentHashMap<>();
  private final PoliteConfig config;
  private final int maxKeys;

  public KeyStates(PoliteConfig config) {
    this.config = config;
    this.maxKeys = config.maxKeys();
  }

  /** The state of {@code key}, made on first use. */
  public KeyState get(String key) {
    KeyState state = states.get(key);
    if (state != null) {
      return state;
    }
    KeyState made = new KeyState(key, config, config.ticker().read());
    state = states.putIfAbsent(key, made);
    if (state != null) {
      return state; // another thread made it first; ours was never seen
    }
    config.listener().keyAdded(key, made::snapshot);
    if (states.size() > maxKeys) {
      evictIdle();
    }
    return made;
  }

  /** The state of {@code key} if it is held; null otherwise. */
  public @Nullable KeyState find(String key) {
    return states.get(key);
  }

  /** Every key held now. */
  public List<KeyState> all() {
    return List.copyOf(states.values());
  }

  /** How many keys are held. */
  public int size() {
    return states.size();
  }

  private synchronized void evictIdle() {
    if (states.size() <= maxKeys) {
      return;
    }
    List<KeyState> idle = new ArrayList<>();
    for (KeyState s : states.values()) {
      if (s.isIdle()) {
        idle.add(s);
      }
    }
    idle.sort(Comparator.comparingLong(KeyState::lastUsed));
    int excess = states.size() - maxKeys * 9 / 10;
    for (int i = 0; i < idle.size() && i < excess; i++) {
      KeyState s = idle.get(i);
      if (states.remove(s.key(), s)) {
        s.leave();
        config.listener().keyForgotten(s.key());
      }
    }
  }
}
