package dev.polite;

import java.util.List;
import java.util.Optional;

/**
 * What every engine's adapter offers besides carrying calls (OkHttp's {@code PoliteInterceptor},
 * the JDK client's {@code PoliteHttpClient}, Spring's interceptor and filter, HttpClient 5's
 * handlers): the {@link Polite} it carries them to, and through it the configuration and what it
 * knows of its keys. Adapters over one {@code Polite} share its keys, so any of them answers for all.
 *
 * <pre>{@code
 * PoliteAdapter adapter = PoliteRequestInterceptor.create();
 * adapter.snapshots().forEach(k -> System.out.println(k.key() + " " + k.pace()));
 * }</pre>
 */
public interface PoliteAdapter {
  /** The polite caller this adapter carries its engine's calls to; its keys are this adapter's. */
  Polite polite();

  /**
   * The configuration of polite, read-only.
   *
   * <pre>{@code Duration patience = adapter.config().maxWait();}</pre>
   */
  default PoliteConfig config() {
    return polite().config();
  }

  /**
   * What polite knows about {@code key} now, if it holds the key.
   *
   * <pre>{@code adapter.snapshot("https://api.github.com:443").map(KeySnapshot::pace)}</pre>
   */
  default Optional<KeySnapshot> snapshot(String key) {
    return polite().snapshot(key);
  }

  /** What polite knows about every key it holds now, in no particular order. */
  default List<KeySnapshot> snapshots() {
    return polite().snapshots();
  }
}
