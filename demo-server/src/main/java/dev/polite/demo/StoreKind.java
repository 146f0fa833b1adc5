package dev.polite.demo;

import java.net.URI;
import java.time.Duration;
import java.util.Locale;

/**
 * Where the limiter state lives and who decides, as {@code --store} and {@code --sync-interval}
 * say together. {@link DemoServerConfig#storeKind()} works it out once, from the two settings, and
 * the server picks its store by it; {@code GET /stats} shows it as {@code "store"}.
 *
 * <p>Usage: {@code if (server.config().storeKind() == StoreKind.SYNCED) { ... }}
 */
public enum StoreKind {
  /** This process's memory ({@code memory}): each node counts alone. */
  MEMORY,
  /**
   * One shared Redis deciding every request in one Lua script ({@code redis://HOST:PORT}, or
   * {@code synced:redis://HOST:PORT} with a sync interval of 0).
   */
  REDIS,
  /** Each node counts locally and syncs with Redis every sync interval ({@code synced:redis://HOST:PORT}). */
  SYNCED;

  /** The {@code --store} text of the memory store. */
  static final String MEMORY_TEXT = "memory";

  /** The synced store's prefix: {@code synced:redis://HOST:PORT}. */
  private static final String SYNCED_PREFIX = "synced:";

  /** The kind a {@code --store} text that {@link #accepts} names, given the sync interval. */
  static StoreKind of(String store, Duration syncInterval) {
    if (store.equals(MEMORY_TEXT)) {
      return MEMORY;
    }
    return store.startsWith(SYNCED_PREFIX) && !syncInterval.isZero() ? SYNCED : REDIS;
  }

  /** The Redis address in a {@code --store} text, {@code redis://HOST:PORT}: the text less any {@code synced:}. */
  static String redisUri(String store) {
    return store.startsWith(SYNCED_PREFIX) ? store.substring(SYNCED_PREFIX.length()) : store;
  }

  /** Whether {@code --store} takes {@code store}: {@code memory}, {@code redis://HOST:PORT} or {@code synced:redis://HOST:PORT}. */
  static boolean accepts(String store) {
    if (store.equals(MEMORY_TEXT)) {
      return true;
    }
    try {
      URI uri = URI.create(redisUri(store));
      return "redis".equals(uri.getScheme()) && uri.getHost() != null && uri.getPort() > 0;
    } catch (IllegalArgumentException e) {
      return false;
    }
  }

  /** As {@code GET /stats} shows it: {@code memory}, {@code redis} or {@code synced}. */
  @Override
  public String toString() {
    return name().toLowerCase(Locale.ROOT);
  }
}
