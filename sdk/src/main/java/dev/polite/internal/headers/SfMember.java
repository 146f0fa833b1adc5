package dev.polite.internal.headers;

import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * One structured-field member (RFC 9651): a List member, a Dictionary member (with its key), or a
 * parameter (with its key and no parameters of its own).
 *
 * <p>{@code value} is a {@link Long} (Integer), {@link Double} (Decimal), {@link String} (String or
 * Display String), {@link Token}, {@link Bytes}, {@link Boolean}, {@link Date} or, for an Inner
 * List, a {@code List<SfMember>}.
 */
record SfMember(@Nullable String key, Object value, List<SfMember> params) {

  /** An RFC 9651 Token, kept apart from a String because the drafts treat them differently. */
  record Token(String text) {}

  /** An RFC 9651 Byte Sequence, kept as the base64 text it was sent as. */
  record Bytes(String base64) {}

  /** An RFC 9651 Date: epoch seconds. */
  record Date(long epochSeconds) {}

  /**
   * The value of the parameter named {@code key}, or {@code null}. The parser keeps one parameter
   * per key, a duplicate's value in the first one's place (RFC 9651 section 4.2.3.2), so the first
   * found is the only one.
   */
  @Nullable Object param(String key) {
    int at = indexOf(key);
    return at < 0 ? null : params.get(at).value;
  }

  boolean hasParam(String key) {
    return indexOf(key) >= 0;
  }

  /**
   * Where the parameter {@code key} is among the parameters, or -1. Every number an IETF field
   * carries is looked up here, several per member, and most lookups miss (a member is asked for
   * {@code q}, {@code w}, {@code qu} and {@code pk} and has two of them): so by index, not an
   * iterator, and hashes first, which Strings keep once computed (a parameter's name is hashed
   * once per parse, a caller's literal once), so that a miss is an int comparison, not
   * {@code String.equals}.
   */
  private int indexOf(String key) {
    int hash = key.hashCode();
    for (int k = 0, n = params.size(); k < n; k++) {
      String name = params.get(k).key;
      if (name != null && name.hashCode() == hash && key.equals(name)) return k;
    }
    return -1;
  }

  /** The value as text when it is a String or a Token (a policy name), else {@code null}. */
  @Nullable String text() {
    if (value instanceof String) return (String) value;
    if (value instanceof Token) return ((Token) value).text();
    return null;
  }
}
