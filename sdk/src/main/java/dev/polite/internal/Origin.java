package dev.polite.internal;

/**
 * A URL's origin as key text, {@code scheme://host:port}, the same String each time for the last
 * few origins seen.
 *
 * <p>Why remember it: the default key is computed on every call. Built afresh, it was a string
 * concatenation per call (the port formatted, two arrays and a String: about 70 bytes), and being
 * a new String each time it made every later comparison of the call's key with its key state's
 * ({@code String.equals}, several per call) a scan of its characters. The same instance makes
 * them identity checks.
 *
 * <p>{@link #SLOTS} origins are remembered, each in the slot its host's hash and port pick; an
 * origin that meets another in its slot takes the slot, so a client of more origins than that
 * costs at worst what it did before: one concatenation a call. Thread-safe without locks: a slot
 * holds an immutable entry (final fields, so a racing reader sees it whole or not at all), and a
 * race costs a rebuild, never a wrong text.
 */
public final class Origin {
  /** Origins remembered: more than a client of one API talks to, a power of two. */
  static final int SLOTS = 16;
  private static final Origin[] REMEMBERED = new Origin[SLOTS];

  private final String scheme;
  private final String host;
  private final int port;
  private final String text;

  private Origin(String scheme, String host, int port) {
    this.scheme = scheme;
    this.host = host;
    this.port = port;
    this.text = scheme + "://" + host + ":" + port;
  }

  /** {@code scheme://host:port}. */
  public static String of(String scheme, String host, int port) {
    int slot = (host.hashCode() * 31 + port) & (SLOTS - 1);
    Origin seen = REMEMBERED[slot];
    if (seen != null && seen.port == port && seen.host.equals(host) && seen.scheme.equals(scheme)) {
      return seen.text;
    }
    Origin made = new Origin(scheme, host, port);
    REMEMBERED[slot] = made;
    return made.text;
  }
}
