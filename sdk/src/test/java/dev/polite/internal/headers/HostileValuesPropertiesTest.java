package dev.polite.internal.headers;

import static org.assertj.core.api.Assertions.assertThat;

import dev.polite.HeaderLines;
import dev.polite.RateLimitSignals;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Arrays;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * No single header value can make the parser report an absurd number. Real header sets from the
 * documented examples and the dialect tests have one value at a time turned hostile (huge, negative,
 * overflowing, NaN, dates centuries away, empty, garbage): replaced whole, one number inside it
 * replaced, comma-joined to it, or repeated on a second line. Whatever comes out, the parser
 * never throws; every delay and window it reports, headline and per policy, is non-negative and
 * at most a year; every count is non-negative; no remaining exceeds its limit
 * ({@link ParserPropertiesTest#assertSane}). This is the parser half of "nothing a server sends
 * pauses a key for longer than a year"; the key's own bound is tested with the key.
 */
class HostileValuesPropertiesTest {
  private static final SignalsReader PARSER = SignalsReader.standard();

  /**
   * Whole responses' rate-limit headers, name/value pairs, from the documented examples and the
   * dialect tests.
   */
  static final String[][] SETS = {
    {"Retry-After", "120"},
    {"Retry-After", "Fri, 31 Dec 1999 23:59:59 GMT", "Date", "Fri, 31 Dec 1999 23:59:00 GMT"},
    {"Retry-After", "Sunday, 06-Nov-94 08:49:37 GMT", "Date", "Sun, 06 Nov 1994 08:49:00 GMT"},
    {"Retry-After", "Sun Nov  6 08:49:37 1994", "Date", "Sun, 06 Nov 1994 08:49:00 GMT"},
    {"Retry-After", "2.0", "X-Shopify-Shop-Api-Call-Limit", "40/40"},
    {"retry-after-ms", "500", "Retry-After", "1"},
    {"x-ms-retry-after-ms", "250", "Retry-After", "3"},
    {"Retry-After", "0", "X-Retry-In", "105.712425ms"},
    {"X-RateLimit-Retry-After", "12"},
    {"Stripe-Should-Retry", "false", "Retry-After", "1"},
    {"Retry-After", "30", "Age", "10", "RateLimit", "\"default\";r=0;t=30"},
    {"RateLimit", "\"default\";r=50;t=30"},
    {"RateLimit", "\"100-in-1min\"; r=0; t=42", "RateLimit", "\"1000-in-1hr\"; r=10; t=900"},
    {"RateLimit-Policy", "\"peruser\";q=65535;qu=\"content-bytes\";w=10;pk=:sdfjLJUOUH==:"},
    {"RateLimit-Policy", "\"req\";q=100;w=60, \"bytes\";q=65535;qu=\"content-bytes\";w=10",
        "RateLimit", "\"req\";r=80;t=40, \"bytes\";r=0;t=7"},
    {"RateLimit", "limit=100, remaining=50, reset=5"},
    {"RateLimit", "limit=10, remaining=2, reset=1", "RateLimit-Policy", "10;w=1, 50;w=60"},
    {"RateLimit-Limit", "10, 10;w=1, 50;w=60", "RateLimit-Remaining", "1", "RateLimit-Reset", "7"},
    {"RateLimit-Limit", "10, 10;window=1;burst=1000", "RateLimit-Remaining", "1",
        "RateLimit-Reset", "Tue, 15 Nov 1994 08:12:31 GMT", "Date", "Tue, 15 Nov 1994 08:12:01 GMT"},
    {"RateLimit-Limit", "60", "RateLimit-Remaining", "0", "RateLimit-Reset", "1609844400", "RateLimit-Observed", "67",
        "RateLimit-Name", "throttle_authenticated_web", "Date", "Tue, 05 Jan 2021 10:59:00 GMT"},
    {"RateLimit-Limit", "60", "RateLimit-ResetTime", "Tue, 05 Jan 2021 11:00:00 GMT", "Date", "Tue, 05 Jan 2021 10:59:00 GMT"},
    {"Beta-RateLimit-Policy", "\"tenant-app-quota\";q=100100;w=3600", "Beta-RateLimit", "\"tenant-app-quota\";r=0;t=2788",
        "X-RateLimit-Limit", "350", "X-RateLimit-Remaining", "349", "X-Beta-RateLimit-Reset", "2026-03-26T16:00Z"},
    {"x-ratelimit-limit", "5000", "x-ratelimit-remaining", "0", "x-ratelimit-used", "5000",
        "x-ratelimit-reset", "1735693200", "x-ratelimit-resource", "core", "Date", "Wed, 01 Jan 2025 00:00:00 GMT"},
    {"Retry-After", "65", "X-RateLimit-Limit", "10", "X-RateLimit-Remaining", "0", "X-RateLimit-Reset", "1470173023.123",
        "X-RateLimit-Reset-After", "64.57", "X-RateLimit-Bucket", "abcd1234", "X-RateLimit-Scope", "user"},
    {"X-Ratelimit-Used", "2", "X-Ratelimit-Remaining", "598.0", "X-Ratelimit-Reset", "372"},
    {"x-ratelimit-used", "9, 2", "x-ratelimit-remaining", "991, 98", "x-ratelimit-reset", "300"},
    {"X-RateLimit-Limit", "100", "X-RateLimit-Remaining", "99", "X-RateLimit-Reset", "1735689660",
        "Date", "Wed, 01 Jan 2025 00:00:00 GMT"},
    {"x-ratelimit-limit", "10", "x-ratelimit-remaining", "0", "x-ratelimit-reset", "1735689605000"},
    {"X-RateLimit-Remaining", "19", "X-RateLimit-Replenish-Rate", "10", "X-RateLimit-Burst-Capacity", "20",
        "X-RateLimit-Requested-Tokens", "1"},
    {"Retry-After", "5", "X-RateLimit-Limit", "350", "X-RateLimit-Remaining", "0", "RateLimit-Reason", "jira-burst-based",
        "X-RateLimit-Reset", "2026-03-26T16:00Z", "Date", "Thu, 26 Mar 2026 15:59:55 GMT"},
    {"x-ratelimit-limit", "10, 10;w=1, 1000;w=3600", "x-ratelimit-remaining", "0", "x-ratelimit-reset", "1"},
    {"x-ratelimit-limit", "3, 3;w=60;name=\"per-user\"", "x-ratelimit-remaining", "0", "x-ratelimit-reset", "37"},
    {"X-RateLimit-Reset", "Tue Feb 16 2021 09:02:42 GMT+0100 (Central European Standard Time)",
        "X-RateLimit-Remaining", "0", "Date", "Tue, 16 Feb 2021 08:02:00 GMT"},
    {"x-rate-limit-limit", "900", "x-rate-limit-remaining", "847", "x-rate-limit-reset", "1705420800",
        "date", "Tue, 16 Jan 2024 15:50:00 GMT"},
    {"X-Rate-Limit-Reset", "600000", "X-Rate-Limit-Remaining", "0", "X-Rate-Limit-Policy", "per-client"},
    {"x-rate-limit", "700", "x-rate-limit-remaining", "699"},
    {"zendesk-ratelimit-tickets-index", "total=100; remaining=99; resets=41"},
    {"x-ratelimit-limit-requests", "60", "x-ratelimit-remaining-requests", "59", "x-ratelimit-reset-requests", "1s",
        "x-ratelimit-limit-tokens", "150000", "x-ratelimit-remaining-tokens", "0", "x-ratelimit-reset-tokens", "2m52.8s"},
    {"X-RateLimit-Limit-Minute", "10", "X-RateLimit-Remaining-Minute", "0", "Retry-After", "12"},
    {"date", "Thu, 21 Aug 2025 12:41:00 GMT", "retry-after", "20", "anthropic-ratelimit-requests-limit", "1000",
        "anthropic-ratelimit-requests-remaining", "500", "anthropic-ratelimit-requests-reset", "2025-08-21T12:41:01Z",
        "anthropic-ratelimit-input-tokens-remaining", "0", "anthropic-ratelimit-input-tokens-reset", "2025-08-21T12:41:20.5Z"},
    {"Sforce-Limit-Info", "api-usage=25/5000; per-app-api-usage=17/250(appName=sample-connected-app)"},
    {"x-ms-user-quota-remaining", "10", "x-ms-user-quota-resets-after", "00:00:03"},
    {"x-ms-ratelimit-remaining-resource",
        "Microsoft.Compute/GetVMScaleSet3Min;197,Microsoft.Compute/GetVMScaleSet30Min;1297",
        "x-ms-ratelimit-remaining-subscription-reads", "11999", "retry-after-ms", "1500"},
    {"X-HubSpot-RateLimit-Daily", "250000", "X-HubSpot-RateLimit-Daily-Remaining", "249999", "X-HubSpot-RateLimit-Max", "100",
        "X-HubSpot-RateLimit-Remaining", "99", "X-HubSpot-RateLimit-Interval-Milliseconds", "10000"},
    // the report of 2026-11-30, with a sane reset to start from
    {"X-RateLimit-Limit", "60", "X-RateLimit-Remaining", "0", "X-RateLimit-Reset", "1796040060",
        "Date", "Mon, 30 Nov 2026 12:00:00 GMT"},
  };

  /** Hostile values of every kind the brief names, the user's among them. */
  private static final String[] FIXED = {
    "99999999999999999999", "9223372036854775807", "9223372036854775808", "-9223372036854775808", "4102444800",
    "4102444800000", "4102444800000000", "31536001", "31536000", "1000000000", "999999999999", "-1", "-3", "-0",
    "-0.5", "-27689", "-1484742195", "1e400", "-1e400", "1e3", "1E-400", "NaN", "-NaN", "Infinity", "-Infinity", "+Inf",
    "", " ", ",", ";", ", ,", "garbage", "soon", "\"", "0x7fffffff", "1.7976931348623157E309",
    "Fri, 01 Jan 5000 00:00:00 GMT", "Thu, 01 Jan 1970 00:00:00 GMT", "Mon, 01 Jan 0001 00:00:00 GMT",
    "Fri, 31 Dec 9999 23:59:59 GMT", "Friday, 01-Jan-5000 00:00:00 GMT", "Sat Jan  1 00:00:00 5000",
    "5000-01-01T00:00:00Z", "0001-01-01T00:00Z", "9999-12-31T23:59:59.999+18:00", "1970-01-01T00:00:00Z",
    "999999999h", "9223372036854775807ns", "-5s", "1h1h1h1h1h", "99999999.23:59:59", "-00:00:02", "-99999999.00:00:00",
    "\"x\";r=-3;t=99999999999999999999", "\"x\";r=0;t=4102444800", "\"x\";r=0;t=999999999999999", "10;w=0",
    "10;w=-5", "\"p\";q=1;w=999999999999999", "\"p\";q=-1;w=60", "limit=-3, remaining=-3, reset=-3",
    "limit=10, remaining=99, reset=999999999999999", "-3/40", "40/-3", "99999999999999999999/40", "1/0",
    "total=-3; remaining=99999999999999999999; resets=4102444800",
  };

  @Property(tries = 20_000)
  void oneHostileValueNeverProducesAnAbsurdReading(@ForAll("sets") String[] set, @ForAll("lineIndex") int line,
      @ForAll("mode") int mode, @ForAll("hostile") String hostile, @ForAll("statuses") int status) {
    String[] mutated = mutate(set, line % (set.length / 2), mode, hostile);
    RateLimitSignals s = PARSER.readUnguarded(status, headers(mutated), Responses.NOW);
    ParserPropertiesTest.assertSane(s);
    RateLimitSignals guarded = PARSER.parse(status, headers(mutated), Responses.NOW);
    assertThat(guarded).as("the guard had nothing to catch").isEqualTo(s);
  }

  @Property(tries = 5_000)
  void oneHostileJsonHintNeverProducesAnAbsurdDelay(@ForAll("sets") String[] set, @ForAll("hostile") String hostile,
      @ForAll boolean millisField) {
    RateLimitSignals base = PARSER.readUnguarded(429, headers(set), Responses.NOW);
    String body = "{\"message\": \"slow down\", \"" + (millisField ? "retry_after_ms" : "retry_after") + "\": "
        + hostile + ", \"global\": false}";
    ParserPropertiesTest.assertSane(PARSER.withBody(base, "application/json", body));
  }

  // ---- generators

  @Provide
  Arbitrary<String[]> sets() {
    return Arbitraries.of(SETS);
  }

  @Provide
  Arbitrary<Integer> lineIndex() {
    return Arbitraries.integers().between(0, 15);
  }

  /** 0 replace the value, 1 replace one number inside it, 2 comma-join to it, 3 repeat the field. */
  @Provide
  Arbitrary<Integer> mode() {
    return Arbitraries.integers().between(0, 3);
  }

  @Provide
  Arbitrary<Integer> statuses() {
    return Arbitraries.of(200, 403, 429, 503);
  }

  @Provide
  Arbitrary<String> hostile() {
    return Arbitraries.oneOf(
        Arbitraries.of(FIXED),
        Arbitraries.longs().map(String::valueOf),
        Arbitraries.longs().between(31_536_001L, 999_999_999_999_999L).map(String::valueOf),
        Arbitraries.longs().between(-999_999_999_999_999L, -2).map(String::valueOf),
        Arbitraries.strings().numeric().ofMinLength(16).ofMaxLength(40),
        Arbitraries.doubles().map(String::valueOf),
        Arbitraries.longs().between(-62_135_596_800L, 253_402_300_799L).map(HostileValuesPropertiesTest::httpDate),
        Arbitraries.longs().between(-62_135_596_800L, 253_402_300_799L).map(e -> Instant.ofEpochSecond(e).toString()),
        Arbitraries.strings().ofMaxLength(20));
  }

  // ---- mutation

  private static final Pattern NUMBER = Pattern.compile("-?\\d+(\\.\\d+)?");

  /** {@code set} with its {@code line}th value made hostile in the way {@code mode} says. */
  static String[] mutate(String[] set, int line, int mode, String hostile) {
    String[] out = Arrays.copyOf(set, set.length);
    int at = line * 2 + 1;
    String value = out[at];
    switch (mode) {
      case 0:
        out[at] = hostile;
        return out;
      case 1:
        out[at] = replaceOneNumber(value, hostile, line);
        return out;
      case 2:
        out[at] = value + ", " + hostile;
        return out;
      default:
        String[] more = Arrays.copyOf(out, out.length + 2);
        more[out.length] = out[at - 1];
        more[out.length + 1] = hostile;
        return more;
    }
  }

  private static String replaceOneNumber(String value, String hostile, int seed) {
    Matcher m = NUMBER.matcher(value);
    int count = 0;
    while (m.find()) count++;
    if (count == 0) return hostile;
    m.reset();
    int pick = seed % count;
    for (int i = 0; i <= pick; i++) m.find();
    return value.substring(0, m.start()) + hostile + value.substring(m.end());
  }

  private static String httpDate(long epochSecond) {
    return DateTimeFormatter.ofPattern("EEE, dd MMM yyyy HH:mm:ss 'GMT'", Locale.ROOT).withZone(ZoneOffset.UTC)
        .format(Instant.ofEpochSecond(epochSecond));
  }

  private static HeaderLines headers(String[] namesAndValues) {
    return HeaderLines.of(namesAndValues);
  }
}
