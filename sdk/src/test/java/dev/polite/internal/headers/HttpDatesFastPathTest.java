package dev.polite.internal.headers;

import static org.assertj.core.api.Assertions.assertThat;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

/**
 * {@link HttpDates#parse}'s fixed-position reading of IMF-fixdates must agree with the general
 * scanner on every string, valid or not: it is a shortcut, never a second grammar.
 */
class HttpDatesFastPathTest {
  private static final String[] DAYS = {"Mon", "tue", "WED", "Thu", "Fri", "Sat", "Sun", "Nov", "Xyz", "GMT"};
  private static final String[] MONTHS = {"Jan", "feb", "MAR", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct",
      "Nov", "Dec", "Tue", "Foo", "GMT"};
  private static final String[] ZONES = {"GMT", "gmt", "UTC", "Z  ", "PST", "GMU"};

  @Test
  void readsTheDateOfEveryResponse() {
    assertThat(HttpDates.parse("Tue, 14 Nov 2023 22:13:20 GMT", 2023)).isEqualTo(1_700_000_000_000L);
    assertThat(HttpDates.parse("Thu, 29 Feb 2024 00:00:60 GMT", 2024)).isEqualTo(HttpDates.scan("Thu, 29 Feb 2024 00:00:60 GMT", 2024));
    assertThat(HttpDates.parse("Thu, 30 Feb 2024 00:00:00 GMT", 2024)).isEqualTo(HttpDates.INVALID);
  }

  @Property(tries = 3_000)
  void agreesWithTheScanner(@ForAll("fixdates") String s) {
    assertThat(HttpDates.parse(s, 2023)).isEqualTo(HttpDates.scan(s, 2023));
  }

  @Provide
  Arbitrary<String> fixdates() {
    Arbitrary<String> day = Arbitraries.of(DAYS);
    Arbitrary<String> month = Arbitraries.of(MONTHS);
    Arbitrary<String> zone = Arbitraries.of(ZONES);
    Arbitrary<String> two = Arbitraries.integers().between(0, 99).map(v -> String.format("%02d", v));
    Arbitrary<String> four = Arbitraries.integers().between(0, 9999).map(v -> String.format("%04d", v));
    Arbitrary<String> wellFormed = net.jqwik.api.Combinators.combine(day, two, month, four, two, two, two, zone)
        .as((w, d, m, y, hh, mm, ss, z) -> w + ", " + d + " " + m + " " + y + " " + hh + ":" + mm + ":" + ss + " " + z);
    // one character replaced, to cover the shapes the fast path must hand back to the scanner
    Arbitrary<String> mutated = net.jqwik.api.Combinators.combine(wellFormed, Arbitraries.integers().between(0, 28),
            Arbitraries.of(' ', ',', ':', '-', '0', '9', 'a', 'G', '+', 'x'))
        .as((s, i, c) -> s.substring(0, i) + c + s.substring(i + 1));
    return Arbitraries.oneOf(wellFormed, mutated);
  }
}
