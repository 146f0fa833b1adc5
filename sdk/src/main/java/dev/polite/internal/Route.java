package dev.polite.internal;

import dev.polite.RequestView;

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

  static Route of(RequestView request) {
    String path = request.encodedPath();
    StringBuilder exact = new StringBuilder(64).append(request.method()).append(' ');
    String family = "/*";
    // The path's segments as OkHttp's encodedPathSegments() lists them: "/" is one empty
    // segment, and a trailing slash ends in one.
    int from = path.startsWith("/") ? 1 : 0;
    for (int i = 0; i < MAX_SEGMENTS && from <= path.length(); i++) {
      int end = path.indexOf('/', from);
      if (end < 0) {
        end = path.length();
      }
      String segment = template(path.substring(from, end));
      exact.append('/').append(segment);
      if (i == 0) {
        family = "/" + segment + "/*";
      }
      from = end + 1;
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
