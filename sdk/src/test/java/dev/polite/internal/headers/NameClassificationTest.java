package dev.polite.internal.headers;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import org.junit.jupiter.api.Test;

/**
 * {@link ResponseHeaders#kindOf} files a header name exactly as the plain reading of the rule
 * does: fold {@code A-Z} to lower case and nothing else, then compare with every field's name
 * and every family's prefix. The names tried are the known ones in random case, the same with
 * one character changed, added or removed (from ASCII and from the characters Unicode case
 * folding maps onto ASCII letters), random tokens and random Unicode text.
 */
class NameClassificationTest {
  /** Every field, every family's prefix alone (too short to be one) and with a name after it. */
  private static final List<String> KNOWN = known();

  /**
   * Characters an edit puts in a name: ASCII of every class, and those that Unicode's case
   * folding ({@link String#equalsIgnoreCase}) takes for an ASCII letter or whose low byte is one.
   */
  private static final String ODD = "aAzZmMsSkKiI-_09 \r\t\u0000\u007f\u00e9\u00ff"
      + "\u017f\u212a\u0131\u0130\u0161\u0178\u0141\u00cb\u0100\u2d2d\uff41";

  @Property(tries = 20_000)
  void filesANameAsTheReferenceDoes(@ForAll("names") String name) {
    assertThat(ResponseHeaders.kindOf(name)).as("%s", escaped(name)).isEqualTo(reference(name));
  }

  @Test
  void theKnownNamesAreFoundInMixedCase() {
    assertThat(Field.of("X-RateLimit-Limit")).isSameAs(Field.X_RATELIMIT_LIMIT);
    assertThat(Field.of("x-RateLimit-Limit")).as("begins in lower case, not all lower")
        .isSameAs(Field.X_RATELIMIT_LIMIT);
    assertThat(Field.of("ratelimit-policy")).isSameAs(Field.RATELIMIT_POLICY);
    assertThat(Field.of("Date")).isSameAs(Field.DATE);
    assertThat(Field.of("Vary")).isNull();
    assertThat(Field.of("Connection")).as("as long as x-retry-in, and ends as it does").isNull();
    assertThat(Field.of("")).isNull();
    assertThat(Field.of("x-hubspot-ratelimit-interval-milliseconds-")).isNull();
  }

  /**
   * Header names are ASCII tokens (RFC 9110 section 5.6.2), so only {@code A-Z} fold: the long s
   * and the Kelvin sign, which {@link String#equalsIgnoreCase} takes for {@code s} and {@code k},
   * name no field, as before the length-and-character table.
   */
  @Test
  void onlyAsciiLettersFold() {
    assertThat("x-ratelimit-re\u017fet".equalsIgnoreCase("x-ratelimit-reset")).isTrue();
    assertThat(Field.of("x-ratelimit-re\u017fet")).isNull();
    assertThat("x-ratelimit-bucket".equalsIgnoreCase("x-ratelimit-buc\u212aet")).isTrue();
    assertThat(Field.of("x-ratelimit-buc\u212aet")).isNull();
    assertThat(Prefix.of("x-m\u017f-ratelimit-remaining-reads")).isNull();
    assertThat(Prefix.of("zende\u017f\u212a-ratelimit-tickets")).isNull();
    assertThat(Field.of("x\rratelimit-reset")).as("CR is '-' with bit 5 set").isNull();
    assertThat(Field.of("x-ratelimit-re\u0173et")).as("low byte 's'").isNull();
  }

  /** The classification spelled out, over every name in turn. */
  private static int reference(String name) {
    StringBuilder b = new StringBuilder(name.length());
    for (int i = 0; i < name.length(); i++) {
      char c = name.charAt(i);
      b.append(c >= 'A' && c <= 'Z' ? (char) (c + ('a' - 'A')) : c);
    }
    String folded = b.toString();
    for (Field f : Field.values()) {
      if (folded.equals(f.wireName)) return f.ordinal();
    }
    for (Prefix p : Prefix.values()) {
      if (folded.length() > p.text.length() && folded.startsWith(p.text)) {
        return ResponseHeaders.PREFIXED + p.ordinal();
      }
    }
    return -1;
  }

  @Provide
  Arbitrary<String> names() {
    Arbitrary<String> cased = Combinators.combine(Arbitraries.of(KNOWN), Arbitraries.longs())
        .as(NameClassificationTest::recased);
    Arbitrary<String> edited = Combinators.combine(cased, Arbitraries.integers().between(0, 2),
            Arbitraries.integers().between(0, 63), Arbitraries.of(chars(ODD)))
        .as(NameClassificationTest::edited);
    Arbitrary<String> tokens = Arbitraries.strings()
        .withChars("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789!#$%&'*+-.^_`|~")
        .ofMaxLength(45);
    Arbitrary<String> unicode = Arbitraries.strings().all().ofMaxLength(45);
    return Arbitraries.frequencyOf(
        Tuple.of(3, cased),
        Tuple.of(4, edited),
        Tuple.of(2, tokens),
        Tuple.of(1, unicode));
  }

  /** {@code name} with the letters whose bit is set in {@code bits} in upper case. */
  private static String recased(String name, long bits) {
    char[] cs = name.toCharArray();
    for (int i = 0; i < cs.length; i++) {
      if ((bits >>> (i & 63) & 1) != 0 && cs[i] >= 'a' && cs[i] <= 'z') cs[i] -= 'a' - 'A';
    }
    return new String(cs);
  }

  /**
   * {@code name} with the character at {@code at} replaced by {@code c} (0) or removed (2), or
   * with {@code c} put before it (1).
   */
  private static String edited(String name, int op, int at, char c) {
    StringBuilder b = new StringBuilder(name);
    int i = at % (name.length() + (op == 1 ? 1 : 0));
    if (op == 0) b.setCharAt(i, c);
    else if (op == 1) b.insert(i, c);
    else b.deleteCharAt(i);
    return b.toString();
  }

  private static List<String> known() {
    List<String> names = new ArrayList<>();
    for (Field f : Field.values()) names.add(f.wireName);
    for (Prefix p : Prefix.values()) {
      names.add(p.text);
      names.add(p.text + "r");
      names.add(p.text + "requests-remaining");
    }
    names.add("x-ratelimit-limit-tokens");
    names.add("anthropic-ratelimit-input-tokens-reset");
    names.add("content-type");
    names.add("connection");
    return names;
  }

  private static List<Character> chars(String s) {
    List<Character> cs = new ArrayList<>();
    for (char c : s.toCharArray()) cs.add(c);
    return cs;
  }

  private static String escaped(String s) {
    StringBuilder b = new StringBuilder();
    for (char c : s.toCharArray()) {
      if (c >= 0x20 && c < 0x7f) b.append(c);
      else b.append(String.format("\\u%04x", (int) c));
    }
    return b.toString();
  }
}
