package dev.polite.internal.headers;

import static org.assertj.core.api.Assertions.assertThat;

import dev.polite.HeaderLines;
import dev.polite.RateLimitPolicy;
import dev.polite.RateLimitSignals;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple.Tuple2;
import net.jqwik.api.Tuple;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;

/**
 * Properties over generated and mutated header values: the parser never throws, and nothing it
 * returns is negative, NaN, infinite, over a year, or a remaining above its limit. 131,000 tries in
 * all.
 */
class ParserPropertiesTest {
  private static final Duration YEAR = Duration.ofDays(365);
  private static final SignalsReader PARSER = SignalsReader.standard();

  /** Real header lines from the vendors' documented examples, the seeds for mutation. */
  static final String[][] REAL = {
    {"Retry-After", "120"}, {"Retry-After", "Fri, 31 Dec 1999 23:59:59 GMT"},
    {"Retry-After", "Sunday, 06-Nov-94 08:49:37 GMT"}, {"Retry-After", "Sun Nov  6 08:49:37 1994"},
    {"Retry-After", "2.0"}, {"retry-after-ms", "500"}, {"x-ms-retry-after-ms", "250"},
    {"Retry-After", "-1484742195"}, {"X-Retry-In", "105.712425ms"}, {"Date", "Fri, 31 Dec 1999 23:59:00 GMT"},
    {"Age", "10"}, {"Stripe-Should-Retry", "false"}, {"x-should-retry", "true"},
    {"RateLimit", "\"default\";r=50;t=30"}, {"RateLimit", "\"100-in-1min\"; r=0; t=42"},
    {"RateLimit-Policy", "\"peruser\";q=65535;qu=\"content-bytes\";w=10;pk=:sdfjLJUOUH==:"},
    {"RateLimit-Policy", "\"burst\";q=100;w=60,\"daily\";q=1000;w=86400"},
    {"RateLimit", "limit=100, remaining=50, reset=5"}, {"RateLimit-Policy", "10;w=1, 50;w=60"},
    {"RateLimit-Limit", "10, 10;w=1, 50;w=60"}, {"RateLimit-Limit", "10, 10;window=1;burst=1000"},
    {"RateLimit-Remaining", "1"}, {"RateLimit-Reset", "7"}, {"RateLimit-Reset", "1609844400"},
    {"RateLimit-Observed", "67"}, {"RateLimit-ResetTime", "Tue, 05 Jan 2021 11:00:00 GMT"},
    {"RateLimit-Reset", "Tue, 15 Nov 1994 08:12:31 GMT"}, {"RateLimit", "quota;t=1"},
    {"Beta-RateLimit", "\"tenant-app-quota\";r=17842;t=2107"},
    {"Beta-RateLimit-Policy", "\"tenant-app-quota\";q=100100;w=3600"},
    {"x-ratelimit-reset", "1655120964"}, {"x-ratelimit-used", "16"}, {"x-ratelimit-resource", "search"},
    {"X-RateLimit-Reset", "1470173023.123"}, {"X-RateLimit-Reset-After", "64.57"},
    {"X-RateLimit-Bucket", "abcd1234"}, {"X-RateLimit-Global", "true"}, {"X-RateLimit-Scope", "shared"},
    {"x-ratelimit-remaining", "991, 98"}, {"X-Ratelimit-Remaining", "598.0"}, {"X-Ratelimit-Reset", "372"},
    {"x-ratelimit-reset-tokens", "6m0s"}, {"x-ratelimit-reset-requests", "2m52.8s"},
    {"x-ratelimit-limit-requests", "60"}, {"x-ratelimit-remaining-tokens", "-27689"},
    {"anthropic-ratelimit-requests-reset", "2025-08-21T12:40:59Z"},
    {"anthropic-ratelimit-tokens-remaining", "96000"}, {"X-RateLimit-Reset", "2026-03-26T16:00Z"},
    {"X-Shopify-Shop-Api-Call-Limit", "39/40"}, {"Sforce-Limit-Info", "api-usage=10018/100000; api-bursts=1/750"},
    {"Sforce-Limit-Info", "api-usage=25/5000; per-app-api-usage=17/250(appName=sample-connected-app)"},
    {"x-ms-user-quota-resets-after", "00:00:03"}, {"x-ms-user-quota-remaining", "10"},
    {"x-ms-ratelimit-remaining-resource", "Microsoft.Compute/GetVMScaleSet3Min;197,Microsoft.Compute/GetVMScaleSet30Min;1297"},
    {"x-ms-ratelimit-remaining-subscription-reads", "11999"}, {"X-RateLimit-Remaining", "-1"},
    {"X-RateLimit-Reset", "Tue Feb 16 2021 09:02:42 GMT+0100 (Central European Standard Time)"},
    {"X-Rate-Limit-Reset", "600000"}, {"x-ratelimit-limit", "10, 10;w=60;name=\"per-ip\""},
    {"X-RateLimit-Limit-Minute", "10"}, {"zendesk-ratelimit-tickets-index", "total=100; remaining=99; resets=41"},
    {"X-HubSpot-RateLimit-Daily", "250000"}, {"X-HubSpot-RateLimit-Interval-Milliseconds", "10000"},
    {"X-RateLimit-Replenish-Rate", "10"}, {"X-RateLimit-Burst-Capacity", "20"}, {"x-rate-limit", "700"},
  };

  @Property(tries = 40_000)
  void mutatedRealHeadersNeverBreakTheParser(@ForAll("mutatedResponses") List<Tuple2<String, String>> lines,
      @ForAll("statuses") int status) {
    assertSane(parse(status, lines));
  }

  @Property(tries = 30_000)
  void generatedHeadersNeverBreakTheParser(@ForAll("generatedResponses") List<Tuple2<String, String>> lines,
      @ForAll("statuses") int status) {
    assertSane(parse(status, lines));
  }

  @Property(tries = 5_000)
  void linesHandedOverOneByOneReadAsLinesReadByIndex(
      @ForAll("generatedResponses") List<Tuple2<String, String>> lines, @ForAll("statuses") int status) {
    HeaderLines indexed = lines(lines);
    HeaderLines walked = new HeaderLines() { // as the JDK client's view: a walk, not an index
      @Override public int size() { return indexed.size(); }
      @Override public String name(int index) { return indexed.name(index); }
      @Override public String value(int index) { return indexed.value(index); }
      @Override public boolean indexed() { return false; }
    };
    assertThat(PARSER.readUnguarded(status, walked, Responses.NOW))
        .isEqualTo(PARSER.readUnguarded(status, indexed, Responses.NOW));
  }

  @Property(tries = 20_000)
  void numbersAreReadExactlyOrDropped(@ForAll("numericFields") String name, @ForAll("numbers") String value) {
    RateLimitSignals s = parse(200, List.of(Tuple.of(name, value)));
    assertSane(s);
  }

  @Property(tries = 10_000)
  void delaySecondsRoundTrip(@ForAll @LongRange(min = 0, max = 31_536_000) long seconds) {
    assertThat(parse(429, List.of(Tuple.of("Retry-After", Long.toString(seconds)))).retryAfter())
        .isEqualTo(Duration.ofSeconds(seconds));
    assertThat(parse(200, List.of(Tuple.of("X-RateLimit-Remaining", Long.toString(seconds)))).remaining())
        .hasValue(seconds);
  }

  @Property(tries = 10_000)
  void httpDatesInEveryFormMeanTheSameInstant(@ForAll @LongRange(min = 0, max = 4_102_444_800L) long epochSeconds,
      @ForAll @IntRange(min = 0, max = 2) int form) {
    Instant t = Instant.ofEpochSecond(epochSeconds);
    String text = DateTimeFormatter.ofPattern(FORMS[form], Locale.ROOT).withZone(ZoneOffset.UTC).format(t);
    int reference = t.atZone(ZoneOffset.UTC).getYear();
    assertThat(HttpDates.parse(text, reference)).as(text).isEqualTo(t.toEpochMilli());
  }

  private static final String[] FORMS = {
    "EEE, dd MMM yyyy HH:mm:ss 'GMT'", "EEEE, dd-MMM-yy HH:mm:ss 'GMT'", "EEE MMM ppd HH:mm:ss yyyy"
  };

  @Property(tries = 10_000)
  void eraEPoliciesRoundTrip(@ForAll("eraE") List<long[]> policies, @ForAll boolean spaces) {
    StringBuilder policy = new StringBuilder();
    StringBuilder limit = new StringBuilder();
    String sep = spaces ? "; " : ";";
    for (int i = 0; i < policies.size(); i++) {
      long[] p = policies.get(i);
      if (i > 0) {
        policy.append(", ");
        limit.append(", ");
      }
      policy.append("\"p").append(i).append('"').append(sep).append("q=").append(p[0]).append(sep).append("w=").append(p[1]);
      limit.append("p").append(i).append(sep).append("r=").append(p[2]).append(sep).append("t=").append(p[3]);
    }
    RateLimitSignals s = parse(200, List.of(Tuple.of("RateLimit-Policy", policy.toString()),
        Tuple.of("RateLimit", limit.toString())));
    assertSane(s);
    assertThat(s.policies()).hasSize(policies.size());
    long minRemaining = policies.stream().mapToLong(p -> p[2]).min().orElseThrow();
    assertThat(s.remaining()).hasValue(minRemaining);
    for (int i = 0; i < policies.size(); i++) {
      RateLimitPolicy p = s.policies().get(i);
      assertThat(p.quota()).hasValue(policies.get(i)[0]);
      assertThat(p.window()).isEqualTo(Duration.ofSeconds(policies.get(i)[1]));
      assertThat(p.remaining()).hasValue(policies.get(i)[2]);
    }
  }

  @Property(tries = 11_000)
  void bodiesNeverBreakTheParser(@ForAll("bodies") String body) {
    RateLimitSignals base = PARSER.parse(429, HeaderLines.of("Retry-After", "3"), Responses.NOW);
    assertSane(PARSER.withBody(base, "application/json", body));
  }

  // ---- generators

  @Provide
  Arbitrary<Integer> statuses() {
    return Arbitraries.of(200, 403, 429, 503, 301);
  }

  @Provide
  Arbitrary<List<Tuple2<String, String>>> mutatedResponses() {
    Arbitrary<Tuple2<String, String>> line = Combinators.combine(
        Arbitraries.of(REAL), mutations(), Arbitraries.of(true, false))
        .as((real, ops, upper) -> Tuple.of(upper ? real[0].toUpperCase(Locale.ROOT) : real[0], mutate(real[1], ops)));
    return line.list().ofMinSize(1).ofMaxSize(10);
  }

  @Provide
  Arbitrary<List<Tuple2<String, String>>> generatedResponses() {
    Arbitrary<String> names = Arbitraries.oneOf(
        Arbitraries.of(Field.values()).map(f -> f.wireName),
        Arbitraries.of("x-ratelimit-limit-requests", "x-ratelimit-reset-tokens", "X-RateLimit-Remaining-Hour",
            "anthropic-ratelimit-input-tokens-reset", "anthropic-ratelimit-x-", "x-ms-ratelimit-remaining-resource",
            "zendesk-ratelimit-", "x-ratelimit-", "x-ratelimit-limit-", "anthropic-ratelimit--limit"));
    Arbitrary<String> values = Arbitraries.oneOf(
        Arbitraries.strings().ofMaxLength(40),
        Arbitraries.strings().withChars("0123456789.,;:=-\"?() /abcdeghmnpqrstuwzTZ*").ofMaxLength(40),
        numbers());
    return Combinators.combine(names, values).as(Tuple::of).list().ofMaxSize(12);
  }

  @Provide
  Arbitrary<String> numericFields() {
    return Arbitraries.of("Retry-After", "retry-after-ms", "X-RateLimit-Reset", "X-RateLimit-Remaining",
        "X-RateLimit-Limit", "RateLimit-Reset", "X-Rate-Limit-Reset", "x-ratelimit-reset-tokens",
        "X-RateLimit-Reset-After", "anthropic-ratelimit-tokens-reset", "x-ms-user-quota-resets-after", "Age");
  }

  @Provide
  Arbitrary<String> numbers() {
    return Arbitraries.oneOf(
        Arbitraries.longs().map(l -> Long.toString(l)),
        Arbitraries.longs().between(-2, 2_000_000_000_000L).map(l -> Long.toString(l)),
        Arbitraries.doubles().map(d -> Double.toString(d)),
        Arbitraries.bigDecimals().ofScale(4).map(b -> b.toPlainString()),
        Arbitraries.strings().numeric().ofMinLength(1).ofMaxLength(30),
        Arbitraries.of("NaN", "Infinity", "-Infinity", "1e308", "-0", "0.", ".5", "00:00:00", "99:99:99",
            "1h1h1h", "999999999999h", "0.000000001ns"));
  }

  @Provide
  Arbitrary<List<long[]>> eraE() {
    // r at or below q, w up to a year: a remaining above its quota, or a longer window, cannot be true and is dropped
    Arbitrary<long[]> one = Combinators.combine(
        Arbitraries.longs().between(0, 999_999_999_999_999L),
        Arbitraries.longs().between(1, 31_536_000L),
        Arbitraries.doubles().between(0, 1),
        Arbitraries.longs().between(0, 999_999_999_999_999L))
        .as((q, w, share, t) -> new long[] {q, w, (long) Math.floor(q * share), t});
    return one.list().ofMinSize(1).ofMaxSize(4);
  }

  @Provide
  Arbitrary<String> bodies() {
    Arbitrary<String> json = Arbitraries.of(
        "{\"message\": \"You are being rate limited.\", \"retry_after\": 64.57, \"global\": false}",
        "{\"retry_after_ms\": 2000}", "{\"a\": {\"retry_after\": 1}, \"retry_after\": [1,2]}");
    return Arbitraries.oneOf(Arbitraries.strings().ofMaxLength(80),
        Combinators.combine(json, mutations()).as(ParserPropertiesTest::mutate));
  }

  /** A few random edits: (operation, position, character). */
  private static Arbitrary<List<int[]>> mutations() {
    return Combinators.combine(Arbitraries.integers().between(0, 5), Arbitraries.integers().between(0, 1000),
        Arbitraries.of("0123456789-.,;:=\" ?()\t/eEzZ\u00b5\u0000\u00ff".chars().boxed().toArray(Integer[]::new)))
        .as((op, pos, ch) -> new int[] {op, pos, ch}).list().ofMaxSize(4);
  }

  private static String mutate(String value, List<int[]> ops) {
    StringBuilder b = new StringBuilder(value);
    for (int[] op : ops) {
      int at = b.length() == 0 ? 0 : op[1] % (b.length() + 1);
      switch (op[0]) {
        case 0: b.insert(at, (char) op[2]); break;
        case 1: if (at < b.length()) b.deleteCharAt(at); break;
        case 2: if (at < b.length()) b.setCharAt(at, (char) op[2]); break;
        case 3: b.setLength(at); break;
        case 4: b.append(", ").append(value); break;
        default: b.insert(at, '-'); break;
      }
    }
    return b.toString();
  }

  // ---- checks

  private static RateLimitSignals parse(int status, List<Tuple2<String, String>> lines) {
    return PARSER.readUnguarded(status, lines(lines), Responses.NOW); // parse() would hide a bug as none()
  }

  private static HeaderLines lines(List<Tuple2<String, String>> lines) {
    List<String> h = new java.util.ArrayList<>();
    for (Tuple2<String, String> l : lines) {
      h.add(l.get1());
      h.add(l.get2());
    }
    return HeaderLines.of(h.toArray(new String[0]));
  }

  static void assertSane(RateLimitSignals s) {
    assertDelay(s.retryAfter());
    assertDelay(s.reset());
    assertWindow(s.window());
    s.limit().ifPresent(v -> assertThat(v).isNotNegative());
    s.remaining().ifPresent(v -> assertThat(v).isNotNegative());
    if (s.limit().isPresent() && s.remaining().isPresent()) {
      assertThat(s.remaining().getAsLong()).isLessThanOrEqualTo(s.limit().getAsLong());
    }
    if (s.advertisesRate()) {
      assertThat(s.advertisedRatePerSecond()).isFinite().isPositive();
    }
    List<RateLimitPolicy> seen = new ArrayList<>(s.policies());
    for (RateLimitPolicy p : seen) {
      assertDelay(p.reset());
      assertWindow(p.window());
      p.quota().ifPresent(v -> assertThat(v).isNotNegative());
      p.remaining().ifPresent(v -> assertThat(v).isNotNegative());
      if (p.quota().isPresent() && p.remaining().isPresent()) {
        assertThat(p.remaining().getAsLong()).isLessThanOrEqualTo(p.quota().getAsLong());
      }
      double rate = p.ratePerSecond();
      if (p.quota().isPresent() && p.window() != null) assertThat(rate).isFinite().isNotNegative();
    }
    assertThat(s.dialect()).isNotEmpty();
  }

  private static void assertDelay(Duration d) {
    if (d != null) assertThat(d).isBetween(Duration.ZERO, YEAR);
  }

  private static void assertWindow(Duration d) {
    if (d != null) assertThat(d).isPositive().isLessThanOrEqualTo(YEAR);
  }
}
