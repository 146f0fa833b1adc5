package dev.polite.okhttp;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * Generates what a server might answer, for {@link InterceptorFuzzTest}: a status, a header set
 * drawn from every dialect of {@code reference/header-dialects.md} (often two or three at once,
 * as gateways stack them) with plausible values measured from the response's own {@code Date},
 * then mutated (values replaced by hostile ones, numbers inside them swapped, lines repeated,
 * comma-joined, re-cased, padded, cut, deleted, made giant or non-ASCII), and a body (none, text,
 * the JSON retry hints of Discord and Matrix with their values mutated too, Shopify's GraphQL
 * cost, malformed or deep JSON, one past the interceptor's 16 KiB peek, or one that fails when
 * read). Sometimes no answer at all: the connection fails.
 *
 * <p>Not thread-safe: each caller has its own, on its own seeded {@link Random}.
 */
final class FuzzAnswers {
  /** A generated answer; {@code headers} holds names and values in turn. */
  record Answer(int status, List<String> headers, @Nullable String body, @Nullable String contentType,
      int bodyFailsAfter, boolean networkFailure, String dialects) {

    /** The answer as a reader can paste it into a test: status, header lines, body. */
    String describe() {
      if (networkFailure) {
        return "(no answer: the connection failed)";
      }
      StringBuilder s = new StringBuilder().append(status).append(" [").append(dialects).append("]\n");
      for (int i = 0; i < headers.size(); i += 2) {
        s.append("  ").append(headers.get(i)).append(": ").append(shown(headers.get(i + 1))).append('\n');
      }
      if (contentType != null) {
        s.append("  (body type ").append(contentType).append(")\n");
      }
      if (body != null) {
        s.append("  body: ").append(shown(body));
        if (bodyFailsAfter >= 0) {
          s.append(" (read fails after ").append(bodyFailsAfter).append(" bytes)");
        }
        s.append('\n');
      }
      return s.toString();
    }

    /** Java source for the header pairs, for a repro test. */
    String headersAsJava() {
      StringBuilder s = new StringBuilder();
      for (int i = 0; i < headers.size(); i++) {
        if (i > 0) s.append(", ");
        s.append(java(headers.get(i)));
      }
      return s.toString();
    }

    private static String shown(String v) {
      String escaped = java(v);
      return v.length() <= 300 ? escaped : escaped.substring(0, 200) + "... (" + v.length() + " chars)";
    }

    private static String java(String v) {
      StringBuilder s = new StringBuilder("\"");
      for (int i = 0; i < v.length(); i++) {
        char c = v.charAt(i);
        if (c == '"' || c == '\\') s.append('\\').append(c);
        else if (c >= 0x20 && c < 0x7f) s.append(c);
        else s.append(String.format("\\u%04x", (int) c));
      }
      return s.append('"').toString();
    }
  }

  private static final DateTimeFormatter IMF =
      DateTimeFormatter.ofPattern("EEE, dd MMM yyyy HH:mm:ss 'GMT'", Locale.ROOT).withZone(ZoneOffset.UTC);
  private static final DateTimeFormatter RFC850 =
      DateTimeFormatter.ofPattern("EEEE, dd-MMM-yy HH:mm:ss 'GMT'", Locale.ROOT).withZone(ZoneOffset.UTC);
  private static final DateTimeFormatter ASCTIME =
      DateTimeFormatter.ofPattern("EEE MMM ppd HH:mm:ss yyyy", Locale.ROOT).withZone(ZoneOffset.UTC);
  private static final DateTimeFormatter JS_DATE = DateTimeFormatter
      .ofPattern("EEE MMM dd yyyy HH:mm:ss 'GMT+0100 (Central European Standard Time)'", Locale.ROOT)
      .withZone(ZoneOffset.ofHours(1));
  private static final DateTimeFormatter ISO_MINUTE =
      DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm'Z'", Locale.ROOT).withZone(ZoneOffset.UTC);
  private static final long YEAR_SECONDS = 365L * 24 * 3600;

  /** Values of every hostile kind: huge, overflowing, negative, NaN-ish, far dates, empty, garbage. */
  static final String[] HOSTILE = {
    "99999999999999999999", "9223372036854775807", "9223372036854775808", "-9223372036854775808",
    "18446744073709551616", "4102444800", "4102444800000", "4102444800000000", "31536001", "31536000",
    "1000000000", "999999999999", "999999999999999", "1000000000000000", "-1", "-2", "-3", "-0", "+5",
    "-0.5", "0.0000001", "-27689", "-1484742195", "1e400", "-1e400", "1e3", "1E-400", "1e9", "NaN",
    "-NaN", "nan", "Infinity", "-Infinity", "+Inf", "inf", "", " ", "  ", "\t", ",", ";", ", ,", ";;;",
    "=", "\"", "\"\"", "garbage", "soon", "never", "null", "undefined", "true", "false", "0x7fffffff",
    "1.7976931348623157E309", "4.9e-324", "00000000000000000000000000000005", "5.", ".5", "5..5",
    "1,000", "1_000", "1 000", "10/0", "0/0", "1/0", "-3/40", "40/-3", "99999999999999999999/40",
    "Fri, 01 Jan 5000 00:00:00 GMT", "Thu, 01 Jan 1970 00:00:00 GMT", "Mon, 01 Jan 0001 00:00:00 GMT",
    "Fri, 31 Dec 9999 23:59:59 GMT", "Sun, 31 Feb 2026 25:61:61 GMT", "Friday, 01-Jan-5000 00:00:00 GMT",
    "Sat Jan  1 00:00:00 5000", "Sat Jan 99 00:00:00 2026", "5000-01-01T00:00:00Z", "0001-01-01T00:00Z",
    "9999-12-31T23:59:59.999+18:00", "1970-01-01T00:00:00Z", "2026-13-45T99:99:99Z", "-2026-01-01T00:00:00Z",
    "+292278994-08-17T07:12:55.807Z", "999999999h", "9223372036854775807ns", "-5s", "1h1h1h1h1h", "5x",
    "1.5.5s", "ms", "s", "h", "99999999.23:59:59", "-00:00:02", "-99999999.00:00:00", "99:99:99", "::",
    "\"x\";r=-3;t=99999999999999999999", "\"x\";r=0;t=4102444800", "\"x\";r=0;t=999999999999999",
    "\"x\";r=0;t=31536001", "10;w=0", "10;w=-5", "10;w=1.5", "\"p\";q=1;w=999999999999999", "\"p\";q=-1;w=60",
    "\"p\";q=0;w=1", "limit=-3, remaining=-3, reset=-3", "limit=10, remaining=99, reset=999999999999999",
    "limit=0, remaining=0, reset=0", "total=-3; remaining=99999999999999999999; resets=4102444800",
    "api-usage=99999999999999999999/0", "Microsoft.Compute/X;-5,Microsoft.Compute/Y;99999999999999999999",
    "\u0663\u0660", "\uff11\uff12", "\u22125", "\u00bd", "\ud83d\ude42", "\ufeff12", "12\u0000", "1\u00a02",
    "\u0000", "\u007f", "\u00e9t\u00e9", "\u202e0", "\u0661e9", "١٢٣٤٥٦٧٨٩٠١٢٣٤٥٦٧٨٩",
    "PT5S", "P1D", "5 s", "5s", "5sec", "in 5 seconds", "05", "5e", "e5", ".", "-", "+", "0.", "-.5",
  };

  /** Structured-field values of every type, valid or not, for the IETF fields' parameters and members. */
  static final String[] SF = {
    "?1", "?0", "?2", "@1767225600", "@-1", "@99999999999999999", "%\"caf%c3%a9\"", "%\"%zz\"", ":AAA=:",
    ":not base64:", "::", "(1 2 3)", "(\"a\" b);r=1", "()", "*tok", "1.5", "-0.0", "1.2345", "12345678901234567",
    "123456789012345", "-123456789012345", "\"esc\\\"aped\"", "\"\\x\"", "\"unterminated", "a;b;c;d;e",
    "r", "r=", "=1", ";;r=1", "\"x\";r=1;r=2;r=0", "\"x\";t=1;t=99999", "x;R=0", "x;r=0 ;t=5", "x ;r=0",
    "\"x\";r=0;t=5, \"x\";r=9;t=1", "\"\";r=0;t=5", "\"x\";r=0;t=5;pk=:YQ==:, \"x\";r=5;t=5;pk=:Yg==:",
  };

  private static final String[] BUCKETS = {"core", "search", "graphql", "code_search", "integration_manifest",
    "abcd1234", "0a1b2c3d4e5f", "default", "burst", "daily"};
  private static final String[] NOISE = {"Content-Type", "application/json", "Server", "nginx", "Cache-Control",
    "no-store", "Vary", "Accept-Encoding", "X-Request-Id", "3f2a", "Via", "1.1 google", "Connection", "keep-alive",
    "Set-Cookie", "a=b; Path=/", "Strict-Transport-Security", "max-age=31536000", "ETag", "\"abc\""};

  private final Random r;
  private long wall;
  private final List<String> lines = new ArrayList<>();
  private final StringBuilder dialects = new StringBuilder();
  private boolean spent;
  private @Nullable String bodyHint;

  FuzzAnswers(Random random) {
    this.r = random;
  }

  /** A plain 200 that says nothing about limits. */
  static Answer plainOk() {
    return new Answer(200, List.of("Content-Type", "text/plain"), "ok", "text/plain", -1, false, "none");
  }

  /**
   * The next answer, as a server whose clock reads {@code wallMillis} would send it; one that
   * {@code namesBudget} names the budget it counts against, as GitHub's do.
   */
  Answer next(long wallMillis, boolean namesBudget) {
    if (r.nextInt(100) < 2) {
      return new Answer(0, List.of(), null, null, -1, true, "network failure");
    }
    lines.clear();
    dialects.setLength(0);
    spent = false;
    bodyHint = null;
    // The server's clock: usually ours, sometimes skewed, as Date headers are.
    wall = wallMillis + (r.nextInt(10) == 0 ? (long) (r.nextGaussian() * 30_000) : 0);
    int n = pick(5, 70, 18, 5, 2); // dialects in one answer: 0 to 4
    for (int i = 0; i < n; i++) {
      dialect(r.nextInt(40));
    }
    if (namesBudget) github();
    date();
    if (r.nextInt(20) == 0) add("Age", r.nextInt(4) == 0 ? hostile() : String.valueOf(r.nextInt(120)));
    noise();
    int mutations = pick(45, 30, 15, 7, 3);
    for (int i = 0; i < mutations && !lines.isEmpty(); i++) {
      mutate();
    }
    if (r.nextInt(500) == 0) giant();
    int status = status();
    String[] body = body(status);
    String contentType = body[1];
    int failsAfter = body[0] != null && r.nextInt(40) == 0 ? r.nextInt(Math.max(1, body[0].length())) : -1;
    return new Answer(status, List.copyOf(lines), body[0], contentType, failsAfter, false,
        dialects.length() == 0 ? "none" : dialects.toString());
  }

  // ---- status

  private int status() {
    int p = r.nextInt(100);
    if (p < 38) return 200;
    if (p < 40) return r.nextBoolean() ? 201 : 204;
    if (p < 62) return 429;
    if (p < 70) return 403;
    if (p < 78) return 503;
    if (p < 84) return new int[] {500, 502, 504}[r.nextInt(3)];
    if (p < 88) return spent ? 429 : 200;
    if (p < 92) return new int[] {301, 302, 304, 307, 308}[r.nextInt(5)];
    if (p < 96) return new int[] {400, 401, 404, 409, 413, 418, 420, 499}[r.nextInt(8)];
    return 100 + r.nextInt(500); // any code at all
  }

  // ---- dialects, each a real header set with values measured from the server's Date

  private void dialect(int which) {
    switch (which) {
      case 0, 1, 2 -> retryAfter();
      case 3 -> retryAfterMs();
      case 4 -> ietfA();
      case 5 -> ietfB();
      case 6 -> ietfC();
      case 7 -> ietfD();
      case 8, 9, 10 -> ietfE();
      case 11, 12 -> github();
      case 13 -> twitter();
      case 14 -> okta();
      case 15, 16 -> discord();
      case 17 -> shopify();
      case 18 -> reddit();
      case 19, 20 -> openAi();
      case 21 -> anthropic();
      case 22 -> atlassian();
      case 23 -> stripe();
      case 24 -> zendesk();
      case 25 -> hubspot();
      case 26 -> azure();
      case 27 -> salesforce();
      case 28 -> gitlab();
      case 29 -> kong();
      case 30 -> envoy();
      case 31 -> spring();
      case 32 -> express();
      case 33 -> fastify();
      case 34 -> lemlist();
      case 35 -> prisjakt();
      case 36 -> misc();
      case 37 -> cloudflare();
      case 38 -> ibm();
      default -> ietfE();
    }
  }

  private void retryAfter() {
    tag("retry-after");
    long s = delaySeconds();
    switch (r.nextInt(7)) {
      case 0, 1, 2 -> add(cased("Retry-After"), String.valueOf(s));
      case 3 -> add("Retry-After", IMF.format(instant(s)));
      case 4 -> add("Retry-After", RFC850.format(instant(s)));
      case 5 -> add("Retry-After", ASCTIME.format(instant(s)));
      default -> add("Retry-After", s + "." + r.nextInt(10) + (r.nextBoolean() ? "" : String.valueOf(r.nextInt(100))));
    }
  }

  private void retryAfterMs() {
    tag("retry-after-ms");
    long ms = delaySeconds() * 1000 + r.nextInt(1000);
    switch (r.nextInt(6)) {
      case 0 -> add("retry-after-ms", String.valueOf(ms));
      case 1 -> {
        add("retry-after-ms", ms + "." + r.nextInt(1000));
        add("Retry-After", String.valueOf(ms / 1000 + 1));
      }
      case 2 -> add("x-ms-retry-after-ms", String.valueOf(ms));
      case 3 -> {
        add("Retry-After", "0");
        add("X-Retry-In", goDuration(ms));
      }
      case 4 -> add("X-RateLimit-Retry-After", String.valueOf(ms / 1000));
      default -> add(r.nextBoolean() ? "x-ratelimit-after" : "X-RateLimit-RetryAfter", String.valueOf(ms / 1000));
    }
  }

  private void ietfA() {
    tag("ietf-A");
    long limit = limit();
    add("RateLimit-Limit", limit + ", " + limit + ";window=" + window() + ", " + (limit * 5) + ";window=" + window());
    add("RateLimit-Remaining", String.valueOf(remaining(limit)));
    long reset = delaySeconds();
    add("RateLimit-Reset", r.nextBoolean() ? String.valueOf(reset) : IMF.format(instant(reset)));
  }

  private void ietfB() {
    tag("ietf-B");
    long limit = limit();
    StringBuilder v = new StringBuilder().append(limit);
    int policies = r.nextInt(4);
    for (int i = 0; i < policies; i++) {
      v.append(", ").append(i == 0 ? limit : limit * (i + 2)).append(";w=").append(window());
      if (r.nextInt(4) == 0) v.append(";burst=").append(r.nextInt(2000));
      if (r.nextInt(6) == 0) v.append(";comment=\"fixed window\"");
    }
    add("RateLimit-Limit", v.toString());
    add("RateLimit-Remaining", String.valueOf(remaining(limit)));
    add("RateLimit-Reset", String.valueOf(delaySeconds()));
  }

  private void ietfC() {
    tag("ietf-C");
    long limit = limit();
    add("RateLimit-Limit", String.valueOf(limit));
    add("RateLimit-Remaining", String.valueOf(remaining(limit)));
    add("RateLimit-Reset", String.valueOf(delaySeconds()));
    StringBuilder p = new StringBuilder().append(limit).append(";w=").append(window());
    for (int i = r.nextInt(3); i > 0; i--) {
      p.append(", ").append(limit * (i + 3)).append(";w=").append(window());
    }
    add("RateLimit-Policy", p.toString());
  }

  private void ietfD() {
    tag("ietf-D");
    long limit = limit();
    String v = "limit=" + limit + (r.nextInt(4) == 0 ? "" : ", remaining=" + remaining(limit)) + ", reset=" + delaySeconds();
    add("RateLimit", v);
    if (r.nextBoolean()) add("RateLimit-Policy", limit + ";w=" + window());
  }

  private void ietfE() {
    tag("ietf-E");
    ietfE(r.nextInt(5) == 0 ? "Beta-" : "", r.nextInt(8) == 0 ? "Ratelimit" : "RateLimit");
  }

  private void ietfE(String prefix, String field) {
    int n = 1 + pick(0, 60, 25, 15);
    String sep = r.nextInt(3) == 0 ? "; " : ";";
    List<String> policy = new ArrayList<>();
    List<String> limit = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      String name = policyName();
      // a String as the draft says, or a Token as its own examples write it
      String quoted = r.nextInt(5) == 0 ? "p" + name.replaceAll("[^a-z0-9_-]", "x") : "\"" + name + "\"";
      long q = limit();
      long w = window();
      StringBuilder p = new StringBuilder(quoted).append(sep).append("q=").append(q);
      if (r.nextInt(6) == 0) p.append(sep).append("qu=\"").append(unit()).append('"');
      if (r.nextInt(8) != 0) p.append(sep).append("w=").append(w);
      String pk = r.nextInt(6) == 0 ? ":" + Base64.getEncoder().encodeToString(("k" + r.nextInt(50)).getBytes()) + ":" : null;
      if (pk != null) p.append(sep).append("pk=").append(pk);
      if (r.nextInt(10) == 0) p.append(sep).append("acme-burst=").append(r.nextInt(100));
      policy.add(p.toString());
      StringBuilder l = new StringBuilder(quoted);
      if (r.nextInt(10) != 0) l.append(sep).append("r=").append(remaining(q));
      if (r.nextInt(8) != 0) l.append(sep).append("t=").append(delaySeconds());
      if (pk != null) l.append(sep).append("pk=").append(pk);
      if (r.nextInt(20) == 0) l.append(sep).append("q=").append(q);
      limit.add(l.toString());
    }
    if (r.nextInt(5) != 0) lists(prefix + field + "-Policy", policy);
    lists(prefix + field, limit);
  }

  /** Writes a structured-field list on one line, or split over several. */
  private void lists(String name, List<String> members) {
    if (members.size() > 1 && r.nextInt(3) == 0) {
      for (String m : members) add(name, m);
    } else {
      add(name, String.join(r.nextBoolean() ? ", " : ",", members));
    }
  }

  private void github() {
    tag("github");
    long limit = r.nextBoolean() ? 5000 : limit();
    long remaining = remaining(limit);
    add("x-ratelimit-limit", String.valueOf(limit));
    add("x-ratelimit-remaining", String.valueOf(remaining));
    add("x-ratelimit-used", String.valueOf(limit - remaining));
    add("x-ratelimit-reset", String.valueOf(epochSeconds(delaySeconds())));
    add("x-ratelimit-resource", bucket());
    if (r.nextInt(4) == 0) add("retry-after", String.valueOf(delaySeconds()));
  }

  private void twitter() {
    tag("twitter");
    long limit = limit();
    add("x-rate-limit-limit", String.valueOf(limit));
    add("x-rate-limit-remaining", String.valueOf(remaining(limit)));
    add("x-rate-limit-reset", String.valueOf(epochSeconds(delaySeconds())));
    if (r.nextInt(3) == 0) {
      add("x-app-limit-24hour-limit", "17");
      add("x-app-limit-24hour-remaining", String.valueOf(r.nextInt(18)));
      add("x-app-limit-24hour-reset", String.valueOf(epochSeconds(r.nextInt(86_400))));
    }
  }

  private void okta() {
    tag("okta");
    long limit = limit();
    add("X-Rate-Limit-Limit", String.valueOf(limit));
    add("X-Rate-Limit-Remaining", String.valueOf(remaining(limit)));
    add("X-Rate-Limit-Reset", String.valueOf(epochSeconds(delaySeconds())));
  }

  private void discord() {
    tag("discord");
    long limit = limit();
    long remaining = remaining(limit);
    double after = delaySeconds() + r.nextInt(1000) / 1000.0;
    add("X-RateLimit-Limit", String.valueOf(limit));
    add("X-RateLimit-Remaining", String.valueOf(remaining));
    add("X-RateLimit-Reset", String.format(Locale.ROOT, "%.3f", wall / 1000.0 + after));
    add("X-RateLimit-Reset-After", String.format(Locale.ROOT, "%.2f", after));
    add("X-RateLimit-Bucket", r.nextInt(3) == 0 ? Long.toHexString(r.nextLong()) : bucket());
    if (r.nextInt(4) == 0) {
      add("Retry-After", String.valueOf((long) Math.ceil(after)));
      String scope = new String[] {"user", "global", "shared"}[r.nextInt(3)];
      add("X-RateLimit-Scope", scope);
      if (scope.equals("global")) add("X-RateLimit-Global", "true");
      bodyHint = "{\"message\": \"You are being rate limited.\", \"retry_after\": "
          + String.format(Locale.ROOT, "%.2f", after) + ", \"global\": " + scope.equals("global") + "}";
    }
  }

  private void shopify() {
    tag("shopify");
    long limit = r.nextBoolean() ? 40 : limit();
    long used = limit - remaining(limit);
    add("X-Shopify-Shop-Api-Call-Limit", used + "/" + limit);
    if (used >= limit || r.nextInt(4) == 0) add("Retry-After", delaySeconds() + ".0");
  }

  private void reddit() {
    tag("reddit");
    long limit = limit();
    long remaining = remaining(limit);
    add("X-Ratelimit-Used", String.valueOf(limit - remaining));
    add("X-Ratelimit-Remaining", remaining + (r.nextBoolean() ? ".0" : ""));
    add("X-Ratelimit-Reset", String.valueOf(delaySeconds()));
  }

  private void openAi() {
    tag("openai");
    for (String kind : new String[] {"requests", "tokens"}) {
      if (r.nextInt(4) == 0) continue;
      long limit = kind.equals("tokens") ? 150_000 + r.nextInt(1_000_000) : limit();
      add("x-ratelimit-limit-" + kind, String.valueOf(limit));
      add("x-ratelimit-remaining-" + kind, String.valueOf(remaining(limit)));
      long ms = delaySeconds() * 1000 + r.nextInt(1000);
      add("x-ratelimit-reset-" + kind, r.nextInt(10) == 0 ? String.valueOf(ms / 1000) : goDuration(ms));
    }
    if (r.nextInt(3) == 0) add("retry-after-ms", String.valueOf(delaySeconds() * 1000 + r.nextInt(1000)));
    if (r.nextInt(4) == 0) add("x-should-retry", r.nextBoolean() ? "true" : "false");
  }

  private void anthropic() {
    tag("anthropic");
    for (String kind : new String[] {"requests", "tokens", "input-tokens", "output-tokens"}) {
      if (r.nextInt(3) == 0) continue;
      long limit = kind.equals("requests") ? limit() : 10_000 + r.nextInt(400_000);
      long remaining = remaining(limit);
      if (!kind.equals("requests")) remaining = remaining / 1000 * 1000;
      add("anthropic-ratelimit-" + kind + "-limit", String.valueOf(limit));
      add("anthropic-ratelimit-" + kind + "-remaining", String.valueOf(remaining));
      Instant at = Instant.ofEpochMilli(wall + delaySeconds() * 1000 + (r.nextBoolean() ? r.nextInt(1000) : 0)
          - (r.nextInt(8) == 0 ? 1000 : 0));
      add("anthropic-ratelimit-" + kind + "-reset", at.toString());
    }
    if (r.nextInt(3) == 0) add("retry-after", String.valueOf(delaySeconds()));
    if (r.nextInt(8) == 0) add("anthropic-ratelimit-unified-reset", String.valueOf(epochSeconds(delaySeconds())));
  }

  private void atlassian() {
    tag("atlassian");
    long limit = limit();
    add("X-RateLimit-Limit", String.valueOf(limit));
    add("X-RateLimit-Remaining", String.valueOf(remaining(limit)));
    add("X-RateLimit-Reset", ISO_MINUTE.format(instant(delaySeconds() + 60)));
    if (r.nextBoolean()) add("X-RateLimit-NearLimit", "true");
    if (r.nextBoolean()) add("RateLimit-Reason", r.nextBoolean() ? "jira-burst-based" : "jira-quota-global-based");
    if (r.nextBoolean()) add("Retry-After", String.valueOf(delaySeconds()));
    if (r.nextInt(3) == 0) ietfE("Beta-", "RateLimit");
    if (r.nextInt(4) == 0) add("X-Beta-RateLimit-Reset", ISO_MINUTE.format(instant(delaySeconds() + 60)));
  }

  private void stripe() {
    tag("stripe");
    add("Stripe-Should-Retry", r.nextBoolean() ? "true" : "false");
    if (r.nextBoolean()) add("Stripe-Rate-Limited-Reason", r.nextBoolean() ? "global-rate" : "endpoint-concurrency");
  }

  private void zendesk() {
    tag("zendesk");
    long limit = limit();
    switch (r.nextInt(3)) {
      case 0 -> {
        add("ratelimit-limit", String.valueOf(limit));
        add("ratelimit-remaining", String.valueOf(remaining(limit)));
        add("ratelimit-reset", String.valueOf(delaySeconds()));
      }
      case 1 -> add("zendesk-ratelimit-tickets-index",
          "total=" + limit + "; remaining=" + remaining(limit) + "; resets=" + delaySeconds());
      default -> {
        add("X-Rate-Limit", String.valueOf(limit));
        add("X-Rate-Limit-Remaining", String.valueOf(remaining(limit)));
      }
    }
  }

  private void hubspot() {
    tag("hubspot");
    long daily = 250_000;
    add("X-HubSpot-RateLimit-Daily", String.valueOf(daily));
    add("X-HubSpot-RateLimit-Daily-Remaining", String.valueOf(remaining(daily)));
    long max = limit();
    add("X-HubSpot-RateLimit-Max", String.valueOf(max));
    add("X-HubSpot-RateLimit-Remaining", String.valueOf(remaining(max)));
    add("X-HubSpot-RateLimit-Interval-Milliseconds", String.valueOf(1000 * window()));
    if (r.nextBoolean()) {
      add("X-HubSpot-RateLimit-Secondly", "10");
      add("X-HubSpot-RateLimit-Secondly-Remaining", String.valueOf(r.nextInt(11)));
    }
  }

  private void azure() {
    tag("azure");
    switch (r.nextInt(3)) {
      case 0 -> {
        add("x-ms-ratelimit-remaining-subscription-reads", String.valueOf(r.nextInt(12_000)));
        add("x-ms-ratelimit-remaining-subscription-writes", String.valueOf(r.nextInt(1_200)));
      }
      case 1 -> add("x-ms-ratelimit-remaining-resource", "Microsoft.Compute/GetVMScaleSet3Min;" + r.nextInt(200)
          + ",Microsoft.Compute/GetVMScaleSet30Min;" + r.nextInt(1300));
      default -> {
        add("x-ms-user-quota-remaining", String.valueOf(r.nextInt(16)));
        long s = delaySeconds();
        add("x-ms-user-quota-resets-after", String.format(Locale.ROOT, "%02d:%02d:%02d", s / 3600, s / 60 % 60, s % 60));
      }
    }
    if (r.nextInt(3) == 0) add("retry-after-ms", String.valueOf(delaySeconds() * 1000));
  }

  private void salesforce() {
    tag("salesforce");
    long limit = r.nextBoolean() ? 5000 : 100_000;
    StringBuilder v = new StringBuilder("api-usage=").append(limit - remaining(limit)).append('/').append(limit);
    if (r.nextBoolean()) v.append("; api-bursts=").append(r.nextInt(751)).append("/750");
    if (r.nextInt(3) == 0) v.append("; per-app-api-usage=").append(r.nextInt(251)).append("/250(appName=sample-connected-app)");
    add("Sforce-Limit-Info", v.toString());
  }

  private void gitlab() {
    tag("gitlab");
    long limit = limit();
    long remaining = remaining(limit);
    long reset = delaySeconds();
    add("RateLimit-Limit", String.valueOf(limit));
    add("RateLimit-Name", "throttle_authenticated_web");
    add("RateLimit-Observed", String.valueOf(limit - remaining));
    add("RateLimit-Remaining", String.valueOf(remaining));
    add("RateLimit-Reset", String.valueOf(epochSeconds(reset)));
    add("RateLimit-ResetTime", IMF.format(instant(reset)));
    if (remaining == 0) add("Retry-After", String.valueOf(reset));
  }

  private void kong() {
    tag("kong");
    long limit = limit();
    String unit = new String[] {"Second", "Minute", "Hour", "Day", "Month", "Year"}[r.nextInt(6)];
    add("X-RateLimit-Limit-" + unit, String.valueOf(limit));
    add("X-RateLimit-Remaining-" + unit, String.valueOf(remaining(limit)));
    if (r.nextBoolean()) {
      add("RateLimit-Limit", String.valueOf(limit));
      add("RateLimit-Remaining", String.valueOf(remaining(limit)));
      add("RateLimit-Reset", String.valueOf(Math.max(1, delaySeconds())));
    }
    if (spent) add("Retry-After", String.valueOf(delaySeconds()));
  }

  private void envoy() {
    tag("envoy");
    long limit = limit();
    add("x-ratelimit-limit", limit + ", " + limit + ";w=" + window() + (r.nextBoolean() ? ";name=\"per-ip\"" : ""));
    add("x-ratelimit-remaining", String.valueOf(remaining(limit)));
    add("x-ratelimit-reset", String.valueOf(delaySeconds()));
  }

  private void spring() {
    tag("spring");
    add("X-RateLimit-Remaining", r.nextInt(4) == 0 ? "-1" : String.valueOf(r.nextInt(20)));
    add("X-RateLimit-Replenish-Rate", String.valueOf(1 + r.nextInt(20)));
    add("X-RateLimit-Burst-Capacity", String.valueOf(1 + r.nextInt(40)));
    add("X-RateLimit-Requested-Tokens", String.valueOf(1 + r.nextInt(3)));
  }

  private void express() {
    tag("express");
    long limit = limit();
    add("X-RateLimit-Limit", String.valueOf(limit));
    add("X-RateLimit-Remaining", String.valueOf(remaining(limit)));
    add("X-RateLimit-Reset", String.valueOf((long) Math.ceil((wall + delaySeconds() * 1000) / 1000.0)));
  }

  private void fastify() {
    tag("fastify");
    long limit = limit();
    add("x-ratelimit-limit", String.valueOf(limit));
    add("x-ratelimit-remaining", String.valueOf(remaining(limit)));
    long reset = delaySeconds();
    add("x-ratelimit-reset", String.valueOf(reset));
    if (spent) add("retry-after", String.valueOf(r.nextInt(4) == 0 ? reset * 1000 : reset)); // 8.0.0's ms bug
  }

  private void lemlist() {
    tag("lemlist");
    add("X-RateLimit-Reset", JS_DATE.format(instant(delaySeconds())));
    add("X-RateLimit-Remaining", String.valueOf(remaining(limit())));
  }

  private void prisjakt() {
    tag("prisjakt");
    add("X-Rate-Limit-Reset", String.valueOf(delaySeconds() * 1000));
    add("X-Rate-Limit-Remaining", String.valueOf(remaining(limit())));
  }

  private void misc() {
    tag("misc");
    switch (r.nextInt(4)) {
      case 0 -> add("X-RateLimit-Next", instant(delaySeconds()).toString());
      case 1 -> add("X-Toast-RateLimit-Reset", String.valueOf(epochSeconds(delaySeconds())));
      case 2 -> add("X-RateLimit-Reset", ISO_MINUTE.format(instant(delaySeconds())));
      default -> {
        add("x-ratelimit-reset", String.valueOf((wall + delaySeconds() * 1000))); // epoch milliseconds
        add("x-ratelimit-limit", String.valueOf(limit()));
        add("x-ratelimit-remaining", String.valueOf(remaining(limit())));
      }
    }
  }

  private void cloudflare() {
    tag("cloudflare");
    ietfE("", "Ratelimit");
    if (spent || r.nextBoolean()) add("retry-after", String.valueOf(delaySeconds()));
  }

  private void ibm() {
    tag("ibm");
    add("X-Rate-Limit-Policy", "per-client");
    add("X-Rate-Limit-Remaining", String.valueOf(remaining(limit())));
    add("X-Rate-Limit-Reset", String.valueOf(epochSeconds(delaySeconds())));
  }

  private void date() {
    int p = r.nextInt(100);
    String d;
    if (p < 75) d = IMF.format(Instant.ofEpochMilli(wall));
    else if (p < 85) return; // no Date: read against our clock
    else if (p < 88) d = RFC850.format(Instant.ofEpochMilli(wall));
    else if (p < 91) d = ASCTIME.format(Instant.ofEpochMilli(wall));
    else d = hostile();
    add(r.nextInt(5) == 0 ? "date" : "Date", d);
  }

  private void noise() {
    for (int i = r.nextInt(4); i > 0; i--) {
      int k = r.nextInt(NOISE.length / 2) * 2;
      add(NOISE[k], NOISE[k + 1]);
    }
  }

  // ---- mutation

  private static final Pattern NUMBER = Pattern.compile("-?\\d+(\\.\\d+)?");

  private void mutate() {
    int line = r.nextInt(lines.size() / 2) * 2;
    String name = lines.get(line);
    String value = lines.get(line + 1);
    switch (r.nextInt(14)) {
      case 0, 1 -> lines.set(line + 1, hostile());
      case 2, 3 -> lines.set(line + 1, replaceOneNumber(value, hostileNumber()));
      case 4 -> lines.set(line + 1, value + (r.nextBoolean() ? ", " : ",") + hostile());
      case 5 -> add(name, hostile()); // the field again, on a line of its own
      case 6 -> add(name, value);
      case 7 -> lines.set(line, cased(name));
      case 8 -> lines.set(line + 1, new String[] {" ", "\t", "  "}[r.nextInt(3)] + value + (r.nextBoolean() ? " " : ""));
      case 9 -> {
        lines.remove(line + 1);
        lines.remove(line);
      }
      case 10 -> lines.set(line + 1, value.isEmpty() ? value : value.substring(0, r.nextInt(value.length())));
      case 11 -> {
        int at = value.isEmpty() ? 0 : r.nextInt(value.length());
        lines.set(line + 1, value.substring(0, at) + unicode() + value.substring(at));
      }
      case 12 -> lines.set(line + 1, r.nextBoolean() ? replaceOneNumber(value, reshape(value)) : sf(value));
      default -> {
        int n = lines.size();
        for (int i = 0; i < n; i++) lines.add(lines.get(i)); // the whole set twice
      }
    }
  }

  /** A value so large that only a bound keeps it cheap: many members, many digits, many lines. */
  private void giant() {
    tag("giant");
    int size = 1024 << r.nextInt(5); // 1 to 16 KiB
    StringBuilder v = new StringBuilder(size + 64);
    switch (r.nextInt(5)) {
      case 0 -> {
        for (int i = 0; v.length() < size; i++) v.append(i == 0 ? "" : ", ").append("\"p").append(i).append("\";r=").append(i).append(";t=").append(i % 60);
        add("RateLimit", v.toString());
      }
      case 1 -> {
        for (int i = 0; v.length() < size; i++) v.append(i == 0 ? "" : ", ").append("\"p").append(i).append("\";q=").append(i + 1).append(";w=").append(1 + i % 60);
        add("RateLimit-Policy", v.toString());
      }
      case 2 -> {
        while (v.length() < size) v.append('9');
        add(new String[] {"Retry-After", "X-RateLimit-Reset", "x-ratelimit-remaining"}[r.nextInt(3)], v.toString());
      }
      case 3 -> {
        for (int i = 0; i < size / 64; i++) add("Retry-After", String.valueOf(r.nextInt(120)));
      }
      default -> {
        while (v.length() < size) v.append("1, ");
        add("x-ratelimit-remaining", v.toString());
      }
    }
  }

  /** {@code value} with one structured-field part swapped: a parameter's value, or a whole member. */
  private String sf(String value) {
    String odd = SF[r.nextInt(SF.length)];
    int eq = value.indexOf('=', r.nextInt(Math.max(1, value.length())));
    if (eq < 0 || r.nextInt(3) == 0) {
      return r.nextBoolean() ? odd : value + ", " + odd;
    }
    int end = eq + 1;
    while (end < value.length() && value.charAt(end) != ';' && value.charAt(end) != ',') end++;
    return value.substring(0, eq + 1) + odd + value.substring(end);
  }

  private String replaceOneNumber(String value, String replacement) {
    Matcher m = NUMBER.matcher(value);
    List<int[]> found = new ArrayList<>();
    while (m.find()) found.add(new int[] {m.start(), m.end()});
    if (found.isEmpty()) return replacement;
    int[] at = found.get(r.nextInt(found.size()));
    return value.substring(0, at[0]) + replacement + value.substring(at[1]);
  }

  /** One number of {@code value} written another way: signs, zeros, exponents, fractions. */
  private String reshape(String value) {
    Matcher m = NUMBER.matcher(value);
    String n = m.find() ? m.group() : "5";
    return switch (r.nextInt(7)) {
      case 0 -> "+" + n;
      case 1 -> "000" + n;
      case 2 -> n + "e3";
      case 3 -> n + ".999";
      case 4 -> "-" + n;
      case 5 -> n + n + n + n + n;
      default -> n.length() > 1 ? n.substring(1) : n + "0";
    };
  }

  private String hostile() {
    return switch (r.nextInt(9)) {
      case 0, 1 -> HOSTILE[r.nextInt(HOSTILE.length)];
      case 2 -> SF[r.nextInt(SF.length)];
      case 3 -> String.valueOf(r.nextLong());
      case 4 -> String.valueOf(31_536_001L + (long) (r.nextDouble() * 999_999_999_999_999L));
      case 5 -> String.valueOf(r.nextDouble() * Math.pow(10, r.nextInt(25)) * (r.nextBoolean() ? 1 : -1));
      case 6 -> IMF.format(Instant.ofEpochSecond(-62_135_596_800L + (long) (r.nextDouble() * 315_537_897_599L)));
      case 7 -> Instant.ofEpochSecond(-62_135_596_800L + (long) (r.nextDouble() * 315_537_897_599L)).toString();
      default -> randomText(1 + r.nextInt(20));
    };
  }

  private String hostileNumber() {
    return switch (r.nextInt(6)) {
      case 0 -> String.valueOf(r.nextLong());
      case 1 -> "9".repeat(1 + r.nextInt(30));
      case 2 -> "-" + r.nextInt(100_000);
      case 3 -> new String[] {"NaN", "Infinity", "-Infinity", "1e400", "-0", "0x10", ""}[r.nextInt(7)];
      case 4 -> String.valueOf(r.nextDouble() * 1e12);
      default -> HOSTILE[r.nextInt(HOSTILE.length)];
    };
  }

  private String randomText(int length) {
    StringBuilder s = new StringBuilder(length);
    for (int i = 0; i < length; i++) {
      int p = r.nextInt(10);
      if (p < 6) s.append((char) (0x20 + r.nextInt(0x5f)));
      else if (p < 8) s.append("0123456789;=,\"-.:/ ".charAt(r.nextInt(19)));
      else s.append(unicode());
    }
    return s.toString();
  }

  private String unicode() {
    String[] u = {"\u0663", "\uff15", "\u2212", "\u00e9", "\ud83d\ude42", "\ufeff", "\u0000", "\u007f", "\u00a0",
      "\u202e", "\u0085", "\u2028", "\u00ff", "\ud800", "\u0301"};
    return u[r.nextInt(u.length)];
  }

  private String cased(String name) {
    return switch (r.nextInt(4)) {
      case 0 -> name.toLowerCase(Locale.ROOT);
      case 1 -> name.toUpperCase(Locale.ROOT);
      case 2 -> {
        StringBuilder s = new StringBuilder(name.length());
        for (char c : name.toCharArray()) s.append(r.nextBoolean() ? Character.toUpperCase(c) : Character.toLowerCase(c));
        yield s.toString();
      }
      default -> name;
    };
  }

  // ---- bodies

  /** The body text and its Content-Type, either of which may be null. */
  private String[] body(int status) {
    String type = switch (r.nextInt(10)) {
      case 0, 1, 2, 3, 4 -> "application/json";
      case 5 -> "application/problem+json";
      case 6 -> "APPLICATION/JSON; charset=utf-8";
      case 7 -> "text/plain";
      case 8 -> null;
      default -> randomText(8);
    };
    if (type != null && !type.isEmpty()) add("Content-Type", type);
    int p = r.nextInt(100);
    String body;
    if (p < 25) body = null;
    else if (p < 30) body = "";
    else if (p < 38) body = status == 429 ? "Too Many Requests" : "ok";
    else if (p < 55 && bodyHint != null) body = bodyHint;
    else if (p < 68) body = "{\"message\": \"You are being rate limited.\", \"retry_after\": " + jsonNumber()
        + ", \"global\": " + r.nextBoolean() + "}";
    else if (p < 76) body = "{\"errcode\": \"M_LIMIT_EXCEEDED\", \"error\": \"Too many requests\", \"retry_after_ms\": "
        + jsonNumber() + "}";
    else if (p < 80) body = "{\"errors\":[{\"message\":\"Throttled\",\"extensions\":{\"code\":\"THROTTLED\"}}],"
        + "\"extensions\":{\"cost\":{\"requestedQueryCost\":752,\"actualQueryCost\":null,\"throttleStatus\":"
        + "{\"maximumAvailable\":1000.0,\"currentlyAvailable\":" + r.nextInt(1000) + ",\"restoreRate\":50.0}}}}";
    else if (p < 86) body = malformedJson();
    else if (p < 90) body = "[".repeat(1 + r.nextInt(20_000)) + "{\"retry_after\": 5}";
    else if (p < 94) body = "{\"pad\": \"" + "x".repeat(16_000 + r.nextInt(20_000)) + "\", \"retry_after\": 3}";
    else body = randomText(r.nextInt(200));
    return new String[] {body, type};
  }

  private String jsonNumber() {
    return switch (r.nextInt(8)) {
      case 0, 1, 2 -> String.format(Locale.ROOT, "%.2f", delaySeconds() + r.nextDouble());
      case 3 -> String.valueOf(delaySeconds() * 1000);
      case 4 -> "\"" + delaySeconds() + "\"";
      case 5 -> new String[] {"NaN", "Infinity", "-Infinity", "null", "true", "-1", "-5", "1e308", "1e400"}[r.nextInt(9)];
      case 6 -> hostileNumber();
      default -> String.valueOf(delaySeconds());
    };
  }

  private String malformedJson() {
    String[] m = {"{", "{\"retry_after\"", "{\"retry_after\":", "{\"retry_after\": }", "{\"retry_after\": 5",
      "{\"retry_after\": 5,,}", "{\"a\": \"\\\"}\", \"retry_after\": 7}", "{\"retry_after\": 5, \"retry_after\": 99999999}",
      "{\"x\": {\"retry_after\": 99999}, \"retry_after\": 2}", "{\"retry_after\"\u0000: 5}", "{\"\\u0072etry_after\": 5}",
      "{'retry_after': 5}", "{\"retry_after\": [1,2,3]}", "{\"retry_after\": {\"s\": 1}}", "\"retry_after\": 5",
      "{\"retry_after\": 5}garbage{", "{\"global\": true, \"retry_after\": -0}", "{\"retry_after_ms\": 1.5e3}"};
    return m[r.nextInt(m.length)];
  }

  // ---- values

  /** A delay in seconds: mostly short, sometimes long, now and then past any plausible bound. */
  private long delaySeconds() {
    int p = r.nextInt(100);
    if (p < 50) return r.nextInt(6);
    if (p < 75) return r.nextInt(121);
    if (p < 88) return r.nextInt(7201);
    if (p < 97) return (long) (r.nextDouble() * 400 * 86_400);
    return (long) (r.nextDouble() * 2 * YEAR_SECONDS);
  }

  private long limit() {
    long[] common = {1, 2, 5, 10, 30, 60, 100, 900, 1000, 5000};
    return r.nextInt(5) == 0 ? 1 + r.nextInt(200_000) : common[r.nextInt(common.length)];
  }

  private long remaining(long limit) {
    long v = r.nextInt(3) == 0 ? 0 : (long) (r.nextDouble() * (limit + 1));
    if (v == 0) spent = true;
    return v;
  }

  private long window() {
    long[] common = {1, 1, 10, 60, 60, 3600, 86400};
    return r.nextInt(6) == 0 ? 1 + r.nextInt(100_000) : common[r.nextInt(common.length)];
  }

  private String policyName() {
    String[] names = {"default", "burst", "daily", "100-in-1min", "1000-in-1hr", "permin", "perhr", "peruser",
      "tenant-app-quota", "quota", "sliding", "hour", "day"};
    return r.nextInt(4) == 0 ? "p" + r.nextInt(40) : names[r.nextInt(names.length)];
  }

  private String unit() {
    return new String[] {"requests", "request", "content-bytes", "bytes", "concurrent-requests", "tokens"}[r.nextInt(6)];
  }

  private String bucket() {
    return r.nextInt(3) == 0 ? "b" + r.nextInt(64) : BUCKETS[r.nextInt(BUCKETS.length)];
  }

  private long epochSeconds(long delaySeconds) {
    return (wall + 999) / 1000 + delaySeconds;
  }

  private Instant instant(long delaySeconds) {
    return Instant.ofEpochMilli(wall + delaySeconds * 1000).plusMillis(999).truncatedTo(java.time.temporal.ChronoUnit.SECONDS);
  }

  private static String goDuration(long ms) {
    long h = ms / 3_600_000;
    long m = ms / 60_000 % 60;
    long s = ms / 1000 % 60;
    long frac = ms % 1000;
    if (ms < 1000) return ms + "ms";
    StringBuilder d = new StringBuilder();
    if (h > 0) d.append(h).append('h');
    if (h > 0 || m > 0) d.append(m).append('m');
    d.append(s);
    if (frac > 0) d.append('.').append(String.format(Locale.ROOT, "%03d", frac).replaceAll("0+$", ""));
    return d.append('s').toString();
  }

  // ---- plumbing

  private void add(String name, String value) {
    lines.add(name);
    lines.add(value);
  }

  private void tag(String dialect) {
    if (dialects.length() > 0) dialects.append('+');
    dialects.append(dialect);
  }

  /** An index drawn with the given weights. */
  private int pick(int... weights) {
    int total = 0;
    for (int w : weights) total += w;
    int p = r.nextInt(total);
    for (int i = 0; i < weights.length; i++) {
      p -= weights[i];
      if (p < 0) return i;
    }
    return weights.length - 1;
  }
}
