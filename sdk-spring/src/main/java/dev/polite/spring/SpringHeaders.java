package dev.polite.spring;

import dev.polite.HeaderLines;
import java.util.ArrayList;
import java.util.List;
import org.springframework.http.HttpHeaders;

/**
 * Spring's {@link HttpHeaders}, a map of names, laid out as polite's {@link HeaderLines}: each
 * name's values in the order they came, names in the map's order.
 */
final class SpringHeaders {
  private SpringHeaders() {}

  /** {@code headers} as lines, copied in one walk: an answer's headers are read a few times at most. */
  static HeaderLines lines(HttpHeaders headers) {
    List<String> lines = new ArrayList<>();
    headers.forEach((name, values) -> {
      for (String value : values) {
        lines.add(name);
        lines.add(value);
      }
    });
    return HeaderLines.of(lines.toArray(String[]::new));
  }
}
