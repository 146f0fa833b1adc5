package dev.polite.internal.headers;

import dev.polite.HeaderLines;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * One pass over a response's header lines, filing each line a dialect cares about under its
 * {@link Field} (or, for name families, its {@link Prefix}); every other line is skipped after a
 * cheap test. Dialects then ask for a field by a bit test (and a scan of the few fields filed)
 * instead of scanning the headers again, and a response without rate-limit headers costs one loop.
 *
 * <p>Repeated lines are kept apart, in order: singleton fields read them one by one (a date holds
 * a comma of its own), structured fields join them with {@code ", "} (RFC 9651 section 3.1).
 */
final class ResponseHeaders {
  private static final Prefix[] PREFIXES = Prefix.values();

  static {
    if (Field.COUNT > Long.SIZE) throw new IllegalStateException("one bit per Field no longer fits a long");
    if (PREFIXES.length > 4) throw new IllegalStateException("a Prefix ordinal no longer fits two bits");
  }

  private final HeaderLines headers;
  /** Bit {@code f.ordinal()} is set for every field filed (Date and Age are kept apart). */
  private long present;
  /**
   * The first line of each field filed, in arrival order, and its field's ordinal: a response
   * has a handful of them, so a short scan finds one, and the arrays stay small (a table indexed
   * by every Field was 224 bytes per parse). Allocated at the first rate-limit line.
   */
  private String @Nullable [] values;
  /**
   * The ordinals of the first eight fields filed, a byte each, in a long: a response rarely
   * files more, and this way it makes no array for them (a parse happens on every answer).
   */
  private long packedOrdinals;
  /** Every field's ordinal, once more than eight are filed. */
  private byte @Nullable [] ordinals;
  private int filed;
  private @Nullable List<String> @Nullable [] more;
  /** Per prefixed line: its index among the headers, shifted left 2, or'ed with its Prefix's ordinal. */
  private int @Nullable [] prefixed;
  private int prefixedCount;
  private @Nullable String date;
  private @Nullable String age;

  private ResponseHeaders(HeaderLines headers) {
    this.headers = headers;
  }

  /**
   * Files the lines of {@code headers}; {@code null} when no line but Date and Age concerns a
   * dialect (the most common response) unless {@code always}. Returning {@code null} rather than
   * an empty filing means a plain response allocates nothing, whatever the JIT inlines.
   */
  static @Nullable ResponseHeaders of(HeaderLines headers, boolean always) {
    if (!headers.indexed()) {
      Filing filing = new Filing(headers, always);
      headers.forEachLine(filing);
      return filing.done();
    }
    ResponseHeaders h = always ? new ResponseHeaders(headers) : null;
    String date = null;
    String age = null;
    for (int i = 0, n = headers.size(); i < n; i++) {
      int kind = kindOf(headers.name(i));
      if (kind < 0) continue;
      if (kind == DATE) {
        if (date == null) date = headers.value(i);
      } else if (kind == AGE) {
        if (age == null) age = headers.value(i);
      } else {
        if (h == null) h = new ResponseHeaders(headers);
        if (kind >= PREFIXED) h.addPrefixed(i, kind - PREFIXED);
        else h.add(FIELDS[kind], headers.value(i));
      }
    }
    if (h != null) {
      h.date = date;
      h.age = age;
    }
    return h;
  }

  /**
   * The same pass as {@link #of}'s, over lines handed over one by one ({@link
   * HeaderLines#forEachLine}) by a view that does not hold them by index: each line a dialect
   * cares about is filed, made at the first such line.
   */
  private static final class Filing implements HeaderLines.LineReader {
    private final HeaderLines headers;
    @Nullable ResponseHeaders filed;
    @Nullable String date;
    @Nullable String age;

    Filing(HeaderLines headers, boolean always) {
      this.headers = headers;
      this.filed = always ? new ResponseHeaders(headers) : null;
    }

    @Override
    public void line(int index, String name, String value) {
      int kind = kindOf(name);
      if (kind < 0) return;
      if (kind == DATE) {
        if (date == null) date = value;
      } else if (kind == AGE) {
        if (age == null) age = value;
      } else {
        ResponseHeaders h = filed;
        if (h == null) filed = h = new ResponseHeaders(headers);
        if (kind >= PREFIXED) h.addPrefixed(index, kind - PREFIXED);
        else h.add(FIELDS[kind], value);
      }
    }

    @Nullable ResponseHeaders done() {
      ResponseHeaders h = filed;
      if (h != null) {
        h.date = date;
        h.age = age;
      }
      return h;
    }
  }

  private static final Field[] FIELDS = Field.values();
  /** {@link #kindOf}'s answer for a prefixed name: this plus its Prefix's ordinal. */
  static final int PREFIXED = 64;

  private static final int DATE = Field.DATE.ordinal();
  private static final int AGE = Field.AGE.ordinal();

  /** What the dialects know {@code name} as: a Field's ordinal, PREFIXED plus a Prefix's ordinal, or -1. */
  static int kindOf(String name) {
    Field f = Field.of(name);
    if (f != null) return f.ordinal();
    Prefix p = Prefix.of(name);
    return p == null ? -1 : PREFIXED + p.ordinal();
  }

  private void addPrefixed(int index, int prefixOrdinal) {
    if (prefixed == null) {
      prefixed = new int[8];
    } else if (prefixedCount == prefixed.length) {
      prefixed = Arrays.copyOf(prefixed, prefixedCount * 2);
    }
    prefixed[prefixedCount++] = index << 2 | prefixOrdinal;
  }

  /** Files a line of {@code f}, which is neither Date nor Age. */
  private void add(Field f, String value) {
    if (has(f)) addRepeated(f, value);
    else addFirst(f, value);
  }

  private void addFirst(Field f, String value) {
    if (values == null) {
      // Four: a response rarely carries more rate-limit lines (an IETF pair, a Retry-After), and
      // the array grows for one that does.
      values = new String[4];
    } else if (filed == values.length) {
      values = Arrays.copyOf(values, filed * 2);
    }
    values[filed] = value;
    if (filed < Long.BYTES) {
      packedOrdinals |= (long) f.ordinal() << (Byte.SIZE * filed);
    } else {
      if (ordinals == null) {
        ordinals = new byte[2 * Long.BYTES];
        for (int j = 0; j < Long.BYTES; j++) ordinals[j] = (byte) ordinalAt(j);
      } else if (filed == ordinals.length) {
        ordinals = Arrays.copyOf(ordinals, filed * 2);
      }
      ordinals[filed] = (byte) f.ordinal();
    }
    filed++;
    present |= 1L << f.ordinal();
  }

  @SuppressWarnings("unchecked")
  private void addRepeated(Field f, String value) {
    int k = f.ordinal();
    if (more == null) more = (List<String>[]) new List<?>[Field.COUNT];
    List<String> rest = more[k];
    if (rest == null) more[k] = rest = new ArrayList<>(2);
    rest.add(value);
  }

  /** The ordinal of the {@code j}th field filed. */
  private int ordinalAt(int j) {
    return j < Long.BYTES ? (int) (packedOrdinals >>> (Byte.SIZE * j)) & 0xFF : ordinals[j];
  }

  /** The first line of a field known to be present. */
  private String firstOf(int ordinal) {
    int j = 0;
    while (ordinalAt(j) != ordinal) j++;
    return values[j];
  }

  boolean has(Field f) {
    return (present & 1L << f.ordinal()) != 0;
  }

  /** The first line of {@code f}, or {@code null}. */
  @Nullable String first(Field f) {
    if (f == Field.DATE) return date;
    if (f == Field.AGE) return age;
    return has(f) ? firstOf(f.ordinal()) : null;
  }

  /** How many lines of {@code f} the response had. */
  int lineCount(Field f) {
    if (!has(f)) return 0;
    List<String> rest = more == null ? null : more[f.ordinal()];
    return rest == null ? 1 : 1 + rest.size();
  }

  /** Line {@code i} of {@code f}. */
  String line(Field f, int i) {
    int k = f.ordinal();
    if (i == 0) return firstOf(k);
    return more[k].get(i - 1);
  }

  /** Every line of {@code f} joined with {@code ", "}, as RFC 9651 combines list fields; {@code null} if absent. */
  @Nullable String joined(Field f) {
    if (!has(f)) return null;
    int k = f.ordinal();
    String v = firstOf(k);
    List<String> rest = more == null ? null : more[k];
    if (rest == null) return v;
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
      if (prefixedKind(i) == p) return true;
    }
    return false;
  }

  Prefix prefixedKind(int i) {
    return PREFIXES[prefixed[i] & 3];
  }

  String prefixedName(int i) {
    return headers.name(prefixed[i] >>> 2);
  }

  String prefixedValue(int i) {
    return headers.value(prefixed[i] >>> 2);
  }
}
