package dev.polite.internal;

import java.util.List;
import okhttp3.HttpUrl;
import okhttp3.Request;

/**
 * A request's route: what a server's budgets are drawn by. Its {@code exact} form is the method
 * and the path, with every segment that names one thing rather than a kind of thing (a number, a
 * hex hash or a UUID) read as {@code {id}}, so that {@code GET /repos/1/issues/7} and
 * {@code GET /repos/2/issues/9} are one route, as discord.js and JDA draw them. Its
 * {@code family} is the first segment alone ({@code /search/*}), for a route not yet seen: a
 * server that keeps {@code /search/code} apart from {@code /repos/...} most likely keeps
 * {@code /search/issues} apart as well.
 *
 * <p>Bounded: at most {@value #MAX_SEGMENTS} segments of at most {@value #MAX_SEGMENT} characters
 * are kept, so a hostile path cannot make a route, which is remembered, large.
 *
 * @param exact the method and templated path, such as {@code GET /repos/{id}/issues}
 * @param family the first segment, such as {@code /repos/*}
 */
record Route(String exact, String family) {
  static final int MAX_SEGMENTS = 6;
  static final int MAX_SEGMENT = 48;

  static Route of(Request request) {
    HttpUrl url = request.url();
    StringBuilder exact = new StringBuilder(64).append(request.method()).append(' ');
    String family = "/*";
    List<String> segments = url.encodedPathSegments();
    int kept = Math.min(segments.size(), MAX_SEGMENTS);
    for (int i = 0; i < kept; i++) {
      String segment = template(segments.get(i));
      exact.append('/').append(segment);
      if (i == 0) {
        family = "/" + segment + "/*";
      }
    }
    if (kept == 0) {
      exact.append('/');
    }
    return new Route(exact.toString(), family);
  }

  /** {@code {id}} for a segment that names one thing; else the segment, cut to its bound. */
  static String template(String segment) {
    if (segment.isEmpty()) {
      return segment;
    }
    boolean digits = true;
    boolean hex = true;
    for (int i = 0; i < segment.length(); i++) {
      char c = segment.charAt(i);
      boolean digit = c >= '0' && c <= '9';
      digits &= digit;
      hex &= digit || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F') || c == '-';
    }
    if (digits || (hex && segment.length() >= 16)) {
      return "{id}";
    }
    return segment.length() <= MAX_SEGMENT ? segment : segment.substring(0, MAX_SEGMENT);
  }
}
