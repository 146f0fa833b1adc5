package dev.polite.spring;

import dev.polite.HeaderLines;
import java.util.List;
import org.springframework.http.HttpHeaders;

/**
 * Spring's {@link HttpHeaders}, a map of names, laid out as polite's {@link HeaderLines}: each
 * name's values in the order they came, names in the map's order.
 */
final class SpringHeaders {
  private SpringHeaders() {}

  /** {@code headers} as lines, copied once: an answer's headers are read a few times at most. */
  static HeaderLines lines(HttpHeaders headers) {
    int count = 0;
    for (String name : headers.headerNames()) {
      List<String> values = headers.get(name);
      count += values == null ? 0 : values.size();
    }
    String[] lines = new String[2 * count];
    int[] at = {0};
    headers.forEach((name, values) -> {
      for (String value : values) {
        lines[at[0]++] = name;
        lines[at[0]++] = value;
      }
    });
    return HeaderLines.of(lines);
  }
}
