package dev.polite.internal.headers;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** The value parsers on their own: numbers, dates, durations, structured fields, the field table. */
class ValueShapesTest {

  @ParameterizedTest
  @CsvSource({
    "'Sun, 06 Nov 1994 08:49:37 GMT', 1994-11-06T08:49:37Z",
    "'Sunday, 06-Nov-94 08:49:37 GMT', 1994-11-06T08:49:37Z",
    "'Sun Nov  6 08:49:37 1994', 1994-11-06T08:49:37Z",
    "'Tue Feb 16 2021 09:02:42 GMT+0100 (Central European Standard Time)', 2021-02-16T08:02:42Z",
    "'Tue, 15 Nov 1994 08:12:31 GMT', 1994-11-15T08:12:31Z",
    "'Thu, 29 Feb 2024 23:59:60 GMT', 2024-02-29T23:59:59Z",
    "'Wed, 01 Jan 2025 00:00:00 UTC', 2025-01-01T00:00:00Z",
  })
  void httpDates(String text, String instant) {
    assertThat(HttpDates.parse(text, 2025)).isEqualTo(Instant.parse(instant).toEpochMilli());
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "GMT", "Sun, 31 Feb 1994 08:49:37 GMT", "Sun, 06 Nov 1994 25:49:37 GMT",
      "Sun, 06 Nov 1994", "tomorrow", "Sun, 06 Foo 1994 08:49:37 GMT", "06 Nov 1994 08:49:37 1995"})
  void notHttpDates(String text) {
    assertThat(HttpDates.parse(text, 2025)).isEqualTo(HttpDates.INVALID);
  }

  @Test
  void rfc850TwoDigitYearsFollowTheFiftyYearRule() {
    assertThat(HttpDates.parse("Sunday, 06-Nov-94 08:49:37 GMT", 2025))
        .isEqualTo(Instant.parse("1994-11-06T08:49:37Z").toEpochMilli());
    assertThat(HttpDates.parse("Friday, 06-Nov-26 08:49:37 GMT", 2025))
        .isEqualTo(Instant.parse("2026-11-06T08:49:37Z").toEpochMilli());
  }

  @ParameterizedTest
  @CsvSource({
    "2025-08-21T12:40:59Z, 2025-08-21T12:40:59Z",
    "2026-03-26T16:00Z, 2026-03-26T16:00:00Z",
    "2025-08-21t12:40:59.250z, 2025-08-21T12:40:59.250Z",
    "2025-08-21 12:40:59+02:00, 2025-08-21T10:40:59Z",
    "2025-08-21T12:40:59.0001-0100, 2025-08-21T13:40:59.001Z",
    "2025-08-21T12:40:59, 2025-08-21T12:40:59Z",
  })
  void isoTimes(String text, String instant) {
    assertThat(IsoTimes.parse(text)).isEqualTo(Instant.parse(instant).toEpochMilli());
  }

  @ParameterizedTest
  @ValueSource(strings = {"2025-13-21T12:40:59Z", "2025-08-21", "2025-08-21T12:4Z", "2025-08-21T12:40:59Q",
      "2025-08-21T12:40:59.Z"})
  void notIsoTimes(String text) {
    assertThat(IsoTimes.parse(text)).isEqualTo(IsoTimes.INVALID);
  }

  @ParameterizedTest
  @CsvSource({"6m0s, 360000", "547ms, 547", "2m52.8s, 172800", "105.712425ms, 106", "1h, 3600000",
      "12ms, 12", "1m12s, 72000", "0, 0", "1.5h, 5400000", "300us, 1", "7µs, 1", "1ns, 1", "33.023s, 33023"})
  void goDurations(String text, long millis) {
    assertThat(GoDuration.millis(text)).isEqualTo(millis);
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "6", "s", "6x", "-5s", "1.s.", "m5", "5 s"})
  void notGoDurations(String text) {
    assertThat(GoDuration.millis(text)).isEqualTo(GoDuration.INVALID);
  }

  @ParameterizedTest
  @CsvSource({"00:00:03, 3000", "01:02:03, 3723000", "1.00:00:00, 86400000", "00:00:00.5, 500", "-00:00:02, -2000"})
  void timeSpans(String text, long millis) {
    assertThat(TimeSpan.millis(text)).isEqualTo(millis);
  }

  @ParameterizedTest
  @CsvSource({"42, 42000", "598.0, 598000", "-1, -1000", "0.0005, 1", "1470173023.123, 1470173023123", "' 7 ', 7000"})
  void numbersRoundUp(String text, long milli) {
    assertThat(Numbers.milli(text, true)).isEqualTo(milli);
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "-", ".", "1,0", "0x10", "1.2.3", "+1", "1e", "e5", "1e+", "Nano", "in"})
  void notNumbers(String text) {
    assertThat(Numbers.milli(text, true)).isEqualTo(Numbers.INVALID);
  }

  /** Numbers, but none a field truthfully carries: told apart from garbage so that they can be flagged. */
  @ParameterizedTest
  @ValueSource(strings = {"99999999999999999999999", "-99999999999999999999", "9223372036854775807",
      "1000000000000000", "1e3", "1e400", "-1e400", "2.5E-3", "NaN", "nan", "Infinity", "-Infinity", "+Inf", "inf"})
  void implausibleNumbers(String text) {
    assertThat(Numbers.milli(text, true)).isEqualTo(Numbers.IMPLAUSIBLE);
  }

  @Test
  void fifteenDigitsAreStillANumber() {
    assertThat(Numbers.milli("999999999999999", true)).isEqualTo(999_999_999_999_999_000L);
  }

  @Test
  void structuredListWithParametersAndEveryBareType() {
    List<SfMember> list = StructuredFields.list(
        "\"a\";q=1;w=2, tok;x=?1, 4.5, :aGVsbG8=:, (1 2);p, @1659578233, %\"caf%c3%a9\", \"es\\\"c\"");
    assertThat(list).hasSize(8);
    assertThat(list.get(0).text()).isEqualTo("a");
    assertThat(list.get(0).param("w")).isEqualTo(2L);
    assertThat(list.get(1).value()).isEqualTo(new SfMember.Token("tok"));
    assertThat(list.get(1).param("x")).isEqualTo(Boolean.TRUE);
    assertThat(list.get(2).value()).isEqualTo(4.5);
    assertThat(list.get(3).value()).isEqualTo(new SfMember.Bytes("aGVsbG8="));
    assertThat(list.get(4).value()).isInstanceOf(List.class);
    assertThat(list.get(5).value()).isEqualTo(new SfMember.Date(1659578233));
    assertThat(list.get(7).value()).isEqualTo("es\"c");
  }

  @ParameterizedTest
  @ValueSource(strings = {"a,", ",a", "\"unterminated", "a;Q=1", "1234567890123456", "1.2345", "a b", "(1 2",
      ":not base64!:", "\"\\n\"", "?2", "a;=1"})
  void malformedStructuredLists(String text) {
    assertThat(StructuredFields.list(text)).isNull();
  }

  @Test
  void structuredDictionary() {
    List<SfMember> dict = StructuredFields.dictionary("limit=100, remaining=50, reset=5, flag;x=1, limit=90");
    // RFC 9651 section 4.2.2: a duplicate key's value overwrites the first one's, in its place
    assertThat(dict).extracting(SfMember::key).containsExactly("limit", "remaining", "reset", "flag");
    assertThat(dict.get(0).value()).isEqualTo(90L);
    assertThat(dict.get(3).value()).isEqualTo(Boolean.TRUE);
    assertThat(StructuredFields.list("limit=100")).isNull();
    assertThat(StructuredFields.list("")).isEmpty();
  }

  @Test
  void everyFieldIsFoundInAnyCase() {
    for (Field f : Field.values()) {
      assertThat(Field.of(f.wireName)).isSameAs(f);
      assertThat(Field.of(f.wireName.toUpperCase(java.util.Locale.ROOT))).isSameAs(f);
    }
    assertThat(Field.of("content-type")).isNull();
    assertThat(Field.of("x-ratelimit-limit-requests")).isNull();
    assertThat(Prefix.of("X-RateLimit-Limit-Requests")).isSameAs(Prefix.X_RATELIMIT);
  }
}
