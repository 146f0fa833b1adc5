package dev.polite;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A response's header lines as polite reads them, whichever HTTP engine received them: each line
 * a name and a value, in the order they came, repeated names kept apart. Each engine's adapter
 * gives its own headers this shape (OkHttp's {@code Headers} is read as it is; the JDK client's
 * {@code HttpHeaders} map is laid out line by line), so the dialects and
 * {@link RateLimitHeaders} read one type on every engine.
 *
 * <pre>{@code
 * HeaderLines headers = HeaderLines.of("Retry-After", "3", "RateLimit", "\"default\";r=0;t=3");
 * RateLimitSignals s = RateLimitHeaders.standard().parse(429, headers, System.currentTimeMillis());
 * }</pre>
 *
 * <p>Names compare without regard to case, as HTTP's do. Implementations are read by one thread
 * at a time and must not change while read.
 */
public interface HeaderLines {
  /** How many lines there are. */
  int size();

  /** The name of line {@code index}, from 0, as it came. */
  String name(int index);

  /** The value of line {@code index}, from 0. */
  String value(int index);

  /**
   * The value of the first line named {@code name} (any case), or null.
   *
   * <pre>{@code String left = headers.first("X-RateLimit-Remaining");}</pre>
   */
  default @Nullable String first(String name) {
    for (int i = 0, n = size(); i < n; i++) {
      if (name(i).equalsIgnoreCase(name)) {
        return value(i);
      }
    }
    return null;
  }

  /**
   * Whether the lines are at hand by index, cheaply (true by default): polite then reads them by
   * index. A view whose engine keeps its headers otherwise (a map of names, as the JDK's) answers
   * false, and polite reads them once each through {@link #forEachLine}, so that they need not be
   * laid out one by one.
   */
  default boolean indexed() {
    return true;
  }

  /**
   * Hands every line to {@code reader}, in order, with the index {@link #name} and {@link #value}
   * answer for it. The default walks the indices; a view that is not {@link #indexed} walks what
   * its engine holds instead.
   */
  default void forEachLine(LineReader reader) {
    for (int i = 0, n = size(); i < n; i++) {
      reader.line(i, name(i), value(i));
    }
  }

  /** What reads the lines {@link #forEachLine} hands it. */
  @FunctionalInterface
  interface LineReader {
    /** Line {@code index}: its name, as it came, and its value. */
    void line(int index, String name, String value);
  }

  /** The values of every line named {@code name} (any case), in order; empty when none. */
  default List<String> values(String name) {
    List<String> values = null;
    for (int i = 0, n = size(); i < n; i++) {
      if (name(i).equalsIgnoreCase(name)) {
        if (values == null) {
          values = new ArrayList<>(2);
        }
        values.add(value(i));
      }
    }
    return values == null ? List.of() : List.copyOf(values);
  }

  /**
   * Lines of names and values taken in pairs: {@code of("A", "1", "B", "2")}. For tests, and for
   * engines whose headers are not lines already.
   *
   * @throws IllegalArgumentException when an odd number is given
   */
  static HeaderLines of(String... namesAndValues) {
    Objects.requireNonNull(namesAndValues, "namesAndValues");
    if (namesAndValues.length % 2 != 0) {
      throw new IllegalArgumentException("names and values come in pairs: " + namesAndValues.length);
    }
    String[] lines = namesAndValues.clone();
    for (String line : lines) {
      Objects.requireNonNull(line, "a header name or value");
    }
    return new ListedHeaderLines(lines);
  }

  /** No lines at all. */
  static HeaderLines empty() {
    return ListedHeaderLines.EMPTY;
  }
}

/** Lines held as names and values in one array, taken in pairs. */
final class ListedHeaderLines implements HeaderLines {
  static final ListedHeaderLines EMPTY = new ListedHeaderLines(new String[0]);

  private final String[] lines;

  ListedHeaderLines(String[] lines) {
    this.lines = lines;
  }

  @Override
  public int size() {
    return lines.length / 2;
  }

  @Override
  public String name(int index) {
    return lines[2 * index];
  }

  @Override
  public String value(int index) {
    return lines[2 * index + 1];
  }

  @Override
  public String toString() {
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < size(); i++) {
      b.append(name(i).toLowerCase(Locale.ROOT)).append(": ").append(value(i)).append('\n');
    }
    return b.toString();
  }
}
