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
  private static final int MAX_LENGTH = 41;
  /**
   * Per name length, the position of the character that tells apart the fields that long, or -1
   * when no field is that long. Searched from the end: the names share their beginnings
   * ({@code x-ratelimit-}, {@code ratelimit-}), so they differ near the end.
   */
  private static final byte[] AT = new byte[MAX_LENGTH + 1];
  /**
   * The field of each length and character at {@link #AT}, by {@code length << 5 | (c & 31)}:
   * {@code c & 31} is the same for both cases of a letter, so a name in any case finds its field
   * with one character read; 42 lengths times 32 slots. A name no field has (most of them:
   * {@code Content-Type}, {@code Server}) mostly finds an empty slot, or a field whose comparison
   * fails at its first character.
   */
  private static final Field[] TABLE = new Field[(MAX_LENGTH + 1) << 5];

  static {
    Field[] fields = values();
    for (int len = 0; len <= MAX_LENGTH; len++) {
      AT[len] = -1;
      for (int at = len - 1; at >= 0 && AT[len] < 0; at--) {
        if (tellsApart(fields, len, at)) AT[len] = (byte) at;
      }
    }
    for (Field f : fields) {
      int len = f.wireName.length();
      if (len > MAX_LENGTH || AT[len] < 0) {
        throw new IllegalStateException(
            "no one character tells apart the names as long as " + f.wireName);
      }
      TABLE[len << 5 | (f.wireName.charAt(AT[len]) & 31)] = f;
    }
  }

  /**
   * Whether there are fields {@code len} long and their characters at {@code at} are distinct,
   * folded to five bits ({@code -} and {@code m} share a slot, so they count as the same).
   */
  private static boolean tellsApart(Field[] fields, int len, int at) {
    int seen = 0;
    for (Field f : fields) {
      if (f.wireName.length() != len) continue;
      int bit = 1 << (f.wireName.charAt(at) & 31);
      if ((seen & bit) != 0) return false;
      seen |= bit;
    }
    return seen != 0;
  }

  final String wireName;

  Field(String wireName) {
    this.wireName = wireName;
  }

  /**
   * The field named {@code name} in any ASCII case ({@link Ascii}'s fold: the long s, U+017F, is
   * not {@code s}, nor the Kelvin sign {@code k}), or {@code null} when no dialect reads it by
   * name. The character at {@link #AT} picks the one field the name can be, so a name is compared
   * with one field at most.
   */
  static @Nullable Field of(String name) {
    int len = name.length();
    if (len > MAX_LENGTH || AT[len] < 0) return null;
    Field f = TABLE[len << 5 | (name.charAt(AT[len]) & 31)];
    return f != null && f.isNamed(name) ? f : null;
  }

  /**
   * Whether {@code name}, as long as this field's, is its name in any case. A name that begins
   * in lower case is most likely all lower case (HTTP/2 allows no other, and many HTTP/1.1
   * servers send it), and {@link String#equals} compares that many bytes at a time (a JIT
   * intrinsic) where the case-folding comparison reads one character at a time; a name that is
   * not equal is still folded, so {@code x-RateLimit-Limit} is found too.
   */
  private boolean isNamed(String name) {
    return name.charAt(0) == wireName.charAt(0) && name.equals(wireName)
        || Ascii.regionMatches(name, 0, wireName);
  }
}
