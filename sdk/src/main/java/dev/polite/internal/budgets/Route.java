package dev.polite.internal.budgets;

import dev.polite.RequestView;
import org.jspecify.annotations.Nullable;

/**
 * A request's route: what a server's budgets are drawn by. Its {@code exact} form is the method
 * and the path, with every segment that names one thing rather than a kind of thing (a number, a
 * hex hash or a UUID) read as {@code {id}}, so that {@code GET /repos/1/issues/7} and
 * {@code GET /repos/2/issues/9} are one route, as discord.js and JDA draw them. For a route not
 * yet seen there are two guesses, the nearer first. Its {@code parent}, the method and the path
 * but its last segment, for a path of three segments or more: a name that is no id
 * ({@code GET /2/users/by/username/jack}, as X's API has it) is most likely one of many spending
 * the budget its siblings spend. Its {@code family}, the first segment alone ({@code /search/*}),
 * past the segments that only lead to an API's resources ({@code /api/v2/search/*},
 * {@code /{id}/tweets/*} for X's {@code /2/tweets}): a server that keeps {@code /search/code}
 * apart from {@code /repos/...} most likely keeps {@code /search/issues} apart as well.
 *
 * <p>Bounded: at most {@value #MAX_SEGMENTS} segments of at most {@value #MAX_SEGMENT} characters
 * are kept, so a hostile path cannot make a route, which is remembered, large.
 *
 * @param exact the method and templated path, such as {@code GET /repos/{id}/issues}
 * @param parent the method and templated path but the last segment, such as
 *     {@code GET /repos/{id}/*}; null for a path of fewer than three segments
 * @param family the first segment past an API's version and base, such as {@code /repos/*}
 */
record Route(String exact, @Nullable String parent, String family) {
  static final int MAX_SEGMENTS = 6;
  static final int MAX_SEGMENT = 48;
  static final int MAX_PREFIXES = 2;

  static Route of(RequestView request) {
    String path = request.encodedPath();
    StringBuilder exact = new StringBuilder(64).append(request.method()).append(' ');
    int pathAt = exact.length();
    String family = null;
    // The path's segments as OkHttp's encodedPathSegments() lists them: "/" is one empty
    // segment, and a trailing slash ends in one.
    int from = path.startsWith("/") ? 1 : 0;
    int segments = 0;
    int lastAt = exact.length();
    for (int i = 0; i < MAX_SEGMENTS && from <= path.length(); i++) {
      int end = path.indexOf('/', from);
      if (end < 0) {
        end = path.length();
      }
      String segment = template(path.substring(from, end));
      lastAt = exact.length();
      exact.append('/').append(segment);
      segments++;
      if (family == null && (i == MAX_PREFIXES || !isPrefix(segment))) {
        family = exact.substring(pathAt) + "/*";
      }
      from = end + 1;
    }
    if (family == null) {
      family = exact.substring(pathAt) + "/*"; // a path of prefixes alone: the whole of it
    }
    String parent = segments >= 3 ? exact.substring(0, lastAt) + "/*" : null;
    return new Route(exact.toString(), parent, family);
  }

  /**
   * Whether a segment only leads to the resources, as an API's version or base does ({@code api},
   * {@code rest}, {@code v1}, {@code 2} read as {@code {id}}, a dated version): a family drawn at
   * it would hold every route of the API ({@code /2/*} at X). At most {@value #MAX_PREFIXES} are
   * passed over.
   */
  static boolean isPrefix(String segment) {
    if (segment.equals("{id}") || segment.equals("api") || segment.equals("rest")) {
      return true;
    }
    if (segment.length() >= 2 && (segment.charAt(0) == 'v' || segment.charAt(0) == 'V')) {
      for (int i = 1; i < segment.length(); i++) {
        char c = segment.charAt(i);
        if ((c < '0' || c > '9') && c != '.') {
          return false;
        }
      }
      return true;
    }
    return false;
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
