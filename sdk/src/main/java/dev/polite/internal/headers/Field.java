package dev.polite.internal.headers;

import org.jspecify.annotations.Nullable;

/**
 * Every header field a built-in dialect reads by its exact name, with a case-insensitive,
 * allocation-free lookup from the name on the wire (HTTP/1.1 sends {@code X-RateLimit-Limit},
 * HTTP/2 {@code x-ratelimit-limit}; RFC 9110 section 5.1 makes them the same field). Families whose
 * names carry a variable part ({@code x-ratelimit-limit-tokens}, {@code anthropic-ratelimit-*})
 * are matched by {@link Prefix} instead.
 */
enum Field {
  DATE("date"),
  AGE("age"),
  RETRY_AFTER("retry-after"),
  RETRY_AFTER_MS("retry-after-ms"),
  X_MS_RETRY_AFTER_MS("x-ms-retry-after-ms"),
  X_RETRY_IN("x-retry-in"),
  X_RATELIMIT_RETRY_AFTER("x-ratelimit-retry-after"),
  STRIPE_SHOULD_RETRY("stripe-should-retry"),
  X_SHOULD_RETRY("x-should-retry"),

  RATELIMIT("ratelimit"),
  RATELIMIT_POLICY("ratelimit-policy"),
  BETA_RATELIMIT("beta-ratelimit"),
  BETA_RATELIMIT_POLICY("beta-ratelimit-policy"),
  RATELIMIT_LIMIT("ratelimit-limit"),
  RATELIMIT_REMAINING("ratelimit-remaining"),
  RATELIMIT_RESET("ratelimit-reset"),
  RATELIMIT_OBSERVED("ratelimit-observed"),
  RATELIMIT_RESETTIME("ratelimit-resettime"),
  RATELIMIT_NAME("ratelimit-name"),
  RATELIMIT_REASON("ratelimit-reason"),

  X_RATELIMIT_LIMIT("x-ratelimit-limit"),
  X_RATELIMIT_REMAINING("x-ratelimit-remaining"),
  X_RATELIMIT_RESET("x-ratelimit-reset"),
  X_RATELIMIT_USED("x-ratelimit-used"),
  X_RATELIMIT_RESOURCE("x-ratelimit-resource"),
  X_RATELIMIT_RESET_AFTER("x-ratelimit-reset-after"),
  X_RATELIMIT_BUCKET("x-ratelimit-bucket"),
  X_RATELIMIT_GLOBAL("x-ratelimit-global"),
  X_RATELIMIT_SCOPE("x-ratelimit-scope"),
  X_RATELIMIT_NEARLIMIT("x-ratelimit-nearlimit"),
  X_RATELIMIT_REPLENISH_RATE("x-ratelimit-replenish-rate"),
  X_RATELIMIT_BURST_CAPACITY("x-ratelimit-burst-capacity"),
  X_RATELIMIT_REQUESTED_TOKENS("x-ratelimit-requested-tokens"),
  X_BETA_RATELIMIT_REASON("x-beta-ratelimit-reason"),
  X_BETA_RATELIMIT_NEARLIMIT("x-beta-ratelimit-nearlimit"),
  X_BETA_RATELIMIT_RESET("x-beta-ratelimit-reset"),

  X_RATE_LIMIT("x-rate-limit"),
  X_RATE_LIMIT_LIMIT("x-rate-limit-limit"),
  X_RATE_LIMIT_REMAINING("x-rate-limit-remaining"),
  X_RATE_LIMIT_RESET("x-rate-limit-reset"),
  X_RATE_LIMIT_POLICY("x-rate-limit-policy"),

  X_SHOPIFY_SHOP_API_CALL_LIMIT("x-shopify-shop-api-call-limit"),
  SFORCE_LIMIT_INFO("sforce-limit-info"),
  X_MS_USER_QUOTA_REMAINING("x-ms-user-quota-remaining"),
  X_MS_USER_QUOTA_RESETS_AFTER("x-ms-user-quota-resets-after"),
  X_HUBSPOT_RATELIMIT_DAILY("x-hubspot-ratelimit-daily"),
  X_HUBSPOT_RATELIMIT_DAILY_REMAINING("x-hubspot-ratelimit-daily-remaining"),
  X_HUBSPOT_RATELIMIT_SECONDLY("x-hubspot-ratelimit-secondly"),
  X_HUBSPOT_RATELIMIT_SECONDLY_REMAINING("x-hubspot-ratelimit-secondly-remaining"),
  X_HUBSPOT_RATELIMIT_MAX("x-hubspot-ratelimit-max"),
  X_HUBSPOT_RATELIMIT_REMAINING("x-hubspot-ratelimit-remaining"),
  X_HUBSPOT_RATELIMIT_INTERVAL_MILLISECONDS("x-hubspot-ratelimit-interval-milliseconds");

  static final int COUNT = values().length;
  private static final int MIN_LENGTH = 3;
  private static final int MAX_LENGTH = 41;
  private static final Field[] TABLE = new Field[256];
  /**
   * Per name length, the bits ({@link #bit}) of the first characters of the fields that long
   * (low 32 bits) and of their last characters (high 32 bits). Most names on the wire
   * ({@code Content-Type}, {@code Server}, OpenAI's and Anthropic's prefixed ones) fail this test,
   * so they cost two loads instead of a hash and a comparison.
   */
  private static final long[] ENDS = new long[MAX_LENGTH + 1];

  static {
    for (Field f : values()) {
      int len = f.wireName.length();
      int slot = hash(f.wireName, len) & 255;
      while (TABLE[slot] != null) slot = (slot + 1) & 255;
      TABLE[slot] = f;
      ENDS[len] |= ends(f.wireName, len);
    }
  }

  final String wireName;

  Field(String wireName) {
    this.wireName = wireName;
  }

  /** The field named {@code name} (any case), or {@code null} when no dialect reads it by name. */
  static @Nullable Field of(String name) {
    int len = name.length();
    if (len < MIN_LENGTH || len > MAX_LENGTH) return null;
    long ends = ends(name, len);
    if ((ENDS[len] & ends) != ends) return null;
    int slot = hash(name, len) & 255;
    for (Field f; (f = TABLE[slot]) != null; slot = (slot + 1) & 255) {
      if (Ascii.regionEquals(name, 0, len, f.wireName)) return f;
    }
    return null;
  }

  /** The first character's bit in the low word, the last one's in the high word. */
  private static long ends(String name, int len) {
    return bit(name.charAt(0)) | bit(name.charAt(len - 1)) << 32;
  }

  /**
   * One of 32 bits for {@code c}, the same for both cases of a letter ({@code 'a'} and
   * {@code 'A'} give 1). Other characters share bits with letters: a false positive only costs
   * the exact lookup that follows.
   */
  private static long bit(char c) {
    return 1L << ((c | 0x20) & 31);
  }

  /**
   * A hash of the length and four characters (first, middle, last two), case-folded. The Field
   * names differ there all but once (one pair shares a slot chain, costing a second comparison),
   * and reading four characters instead of twenty is most of a lookup's cost; the comparison
   * that follows decides, so the hash only needs to spread the names.
   */
  private static int hash(String s, int len) {
    int h = len;
    h = 31 * h + lower(s.charAt(0));
    h = 31 * h + lower(s.charAt(len >>> 1));
    h = 31 * h + lower(s.charAt(len - 2));
    h = 31 * h + lower(s.charAt(len - 1));
    return h ^ (h >>> 16) ^ (h >>> 8);
  }

  private static char lower(char c) {
    return c >= 'A' && c <= 'Z' ? (char) (c + 32) : c;
  }
}
