package dev.polite.internal.headers;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import okhttp3.Headers;
import org.jspecify.annotations.Nullable;

/**
 * One pass over a response's header lines, filing each line a dialect cares about under its
 * {@link Field} (or, for name families, its {@link Prefix}); every other line is skipped after a
 * hash lookup. Dialects then ask for a field in O(1) instead of scanning the headers again, and a
 * response without rate-limit headers costs one loop.
 *
 * <p>Repeated lines are kept apart, in order: singleton fields read them one by one (a date holds
 * a comma of its own), structured fields join them with {@code ", "} (RFC 9651 section 3.1).
 */
final class ResponseHeaders {
  private final Headers headers;
  private static final String[] NONE = new String[Field.COUNT];
  /** Allocated at the first rate-limit line, so that a plain response costs no array. */
  private @Nullable String[] first = NONE;
  private @Nullable List<String> @Nullable [] more;
  private int @Nullable [] prefixed;
  private @Nullable Prefix @Nullable [] prefixKinds;
  private int prefixedCount;
  private int known;
  private @Nullable String date;
  private @Nullable String age;

  ResponseHeaders(Headers headers) {
    this.headers = headers;
    for (int i = 0, n = headers.size(); i < n; i++) {
      String name = headers.name(i);
      Field f = Field.of(name);
      if (f != null) {
        add(f, headers.value(i));
      } else {
        Prefix p = Prefix.of(name);
        if (p != null) addPrefixed(i, p);
      }
    }
  }

  private void addPrefixed(int index, Prefix p) {
    if (prefixed == null) {
      prefixed = new int[8];
      prefixKinds = new Prefix[8];
    } else if (prefixedCount == prefixed.length) {
      prefixed = Arrays.copyOf(prefixed, prefixedCount * 2);
      prefixKinds = Arrays.copyOf(prefixKinds, prefixedCount * 2);
    }
    prefixed[prefixedCount] = index;
    prefixKinds[prefixedCount++] = p;
  }

  @SuppressWarnings("unchecked")
  private void add(Field f, String value) {
    if (f == Field.DATE || f == Field.AGE) {
      // on every response, so kept apart: a plain response allocates no array at all
      if (f == Field.DATE && date == null) date = value;
      if (f == Field.AGE && age == null) age = value;
      return;
    }
    int k = f.ordinal();
    if (first == NONE) first = new String[Field.COUNT];
    if (first[k] == null) {
      first[k] = value;
      known++;
      return;
    }
    if (more == null) more = (List<String>[]) new List<?>[Field.COUNT];
    List<String> rest = more[k];
    if (rest == null) more[k] = rest = new ArrayList<>(2);
    rest.add(value);
  }

  /** Whether any line other than Date or Age was filed: the fast path for plain responses. */
  boolean hasSignals() {
    return known > 0 || prefixedCount > 0;
  }

  boolean has(Field f) {
    return first[f.ordinal()] != null;
  }

  /** The first line of {@code f}, or {@code null}. */
  @Nullable String first(Field f) {
    if (f == Field.DATE) return date;
    if (f == Field.AGE) return age;
    return first[f.ordinal()];
  }

  /** How many lines of {@code f} the response had. */
  int lineCount(Field f) {
    int k = f.ordinal();
    if (first[k] == null) return 0;
    List<String> rest = more == null ? null : more[k];
    return rest == null ? 1 : 1 + rest.size();
  }

  /** Line {@code i} of {@code f}. */
  String line(Field f, int i) {
    int k = f.ordinal();
    if (i == 0) return first[k];
    return more[k].get(i - 1);
  }

  /** Every line of {@code f} joined with {@code ", "}, as RFC 9651 combines list fields; {@code null} if absent. */
  @Nullable String joined(Field f) {
    int k = f.ordinal();
    String v = first[k];
    List<String> rest = more == null ? null : more[k];
    if (v == null || rest == null) return v;
    StringBuilder b = new StringBuilder(v);
    for (String r : rest) b.append(", ").append(r);
    return b.toString();
  }

  int prefixedCount() {
    return prefixedCount;
  }

  /** Whether any line of the family {@code p} was seen. */
  boolean has(Prefix p) {
    for (int i = 0; i < prefixedCount; i++) {
      if (prefixKinds[i] == p) return true;
    }
    return false;
  }

  Prefix prefixedKind(int i) {
    return prefixKinds[i];
  }

  String prefixedName(int i) {
    return headers.name(prefixed[i]);
  }

  String prefixedValue(int i) {
    return headers.value(prefixed[i]);
  }
}
