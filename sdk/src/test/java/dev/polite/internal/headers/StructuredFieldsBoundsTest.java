package dev.polite.internal.headers;

import static dev.polite.internal.headers.Responses.parse;
import static org.assertj.core.api.Assertions.assertThat;

import dev.polite.RateLimitPolicy;
import dev.polite.RateLimitSignals;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntFunction;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Assume;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

/**
 * Issue 27, item 3: a server's structured fields cost linear time and leave bounded signals,
 * whatever it sends. Duplicates resolve as RFC 9651 says (the last value, in the first one's place),
 * whether the parser finds them by scanning or by its index; a field past the caps RFC 9651
 * section 3 sets as minimums is malformed, so ignored (a 250 KiB field of distinct members, the
 * most OkHttp lets through, among them); and the dialect's lookups past the scan pair items with
 * policies as the scan did. No clock here: the CPU time is {@code bench/HostileHeaderBench}'s to
 * measure; what the signals keep is {@link KeptSignalsBoundsTest}'s.
 */
class StructuredFieldsBoundsTest {
  /** OkHttp's HTTP/1 reader takes 256 KiB of header lines per response; a hostile field fills it. */
  static final int HOSTILE = 250 * 1024;

  // ---- duplicates: RFC 9651 sections 4.2.2 and 4.2.3.2, the httpwg structured-field-tests vectors

  @Test
  void duplicateDictionaryKeyTakesTheLastValueInTheFirstPlace() {
    // "duplicate key dictionary": a=1,b=2,a=3 is a=3, b=2
    List<SfMember> dict = StructuredFields.dictionary("a=1,b=2,a=3");
    assertThat(dict).extracting(SfMember::key).containsExactly("a", "b");
    assertThat(dict).extracting(SfMember::value).containsExactly(3L, 2L);
  }

  @Test
  void duplicateDictionaryKeyPastTheScanIsFoundByTheIndex() {
    String field = members(20, k -> "k" + k + "=" + k) + ", k0=100, k19=119, k9";
    List<SfMember> dict = StructuredFields.dictionary(field);
    assertThat(dict).hasSize(20);
    assertThat(dict.get(0).key()).isEqualTo("k0");
    assertThat(dict.get(0).value()).isEqualTo(100L);
    assertThat(dict.get(9).value()).isEqualTo(Boolean.TRUE);
    assertThat(dict.get(19).value()).isEqualTo(119L);
  }

  @Test
  void duplicateParameterTakesTheLastValueInTheFirstPlace() {
    // "duplicate parameter with different positions": a;b=1;c=2;b=3 is a;b=3;c=2
    List<SfMember> list = StructuredFields.list("a;b=1;c=2;b=3");
    assertThat(list).hasSize(1);
    assertThat(list.get(0).params()).extracting(SfMember::key).containsExactly("b", "c");
    assertThat(list.get(0).params()).extracting(SfMember::value).containsExactly(3L, 2L);
    assertThat(list.get(0).param("b")).isEqualTo(3L);
  }

  @Property(tries = 2_000)
  void dictionaryIsAnOrderedMap(@ForAll("entries") List<int[]> entries) {
    Map<String, Long> model = new LinkedHashMap<>();
    StringBuilder field = new StringBuilder();
    for (int[] e : entries) {
      if (field.length() > 0) field.append(", ");
      field.append('k').append(e[0]).append('=').append(e[1]);
      model.put("k" + e[0], (long) e[1]);
    }
    List<SfMember> dict = StructuredFields.dictionary(field.toString());
    assertThat(dict).extracting(SfMember::key).containsExactlyElementsOf(model.keySet());
    assertThat(dict).extracting(SfMember::value).containsExactlyElementsOf(model.values());
  }

  @Property(tries = 2_000)
  void parametersAreAnOrderedMap(@ForAll("entries") List<int[]> entries) {
    Map<String, Long> model = new LinkedHashMap<>();
    StringBuilder field = new StringBuilder("\"item\"");
    for (int[] e : entries) {
      field.append(";k").append(e[0]).append('=').append(e[1]);
      model.put("k" + e[0], (long) e[1]);
    }
    List<SfMember> list = StructuredFields.list(field.toString());
    assertThat(list).hasSize(1);
    assertThat(list.get(0).params()).extracting(SfMember::key).containsExactlyElementsOf(model.keySet());
    assertThat(list.get(0).params()).extracting(SfMember::value).containsExactlyElementsOf(model.values());
    for (Map.Entry<String, Long> e : model.entrySet()) {
      assertThat(list.get(0).param(e.getKey())).isEqualTo(e.getValue());
    }
  }

  /** Up to 40 (key, value) pairs over 16 keys: duplicates, and more distinct keys than the scan takes. */
  @Provide
  Arbitrary<List<int[]>> entries() {
    Arbitrary<int[]> entry = Combinators.combine(Arbitraries.integers().between(0, 15),
        Arbitraries.integers().between(0, 999)).as((k, v) -> new int[] {k, v});
    return entry.list().ofMinSize(1).ofMaxSize(40);
  }

  // ---- caps: RFC 9651 section 3's minimums are read; one more is malformed

  @Test
  void theMinimumsRfc9651AsksForAreRead() {
    assertThat(StructuredFields.list(members(1024, k -> String.valueOf(k)))).hasSize(1024);
    assertThat(StructuredFields.dictionary(members(1024, k -> "k" + k + "=1"))).hasSize(1024);
    StringBuilder params = new StringBuilder("a");
    for (int k = 0; k < 256; k++) params.append(";k").append(k);
    assertThat(StructuredFields.list(params.toString()).get(0).params()).hasSize(256);
    StringBuilder inner = new StringBuilder("(");
    for (int k = 0; k < 256; k++) inner.append(k == 0 ? "" : " ").append(k);
    assertThat((List<?>) StructuredFields.list(inner.append(')').toString()).get(0).value()).hasSize(256);
  }

  @Test
  void oneMemberPastEachCapMakesTheFieldMalformed() {
    assertThat(StructuredFields.list(members(1025, k -> String.valueOf(k)))).isNull();
    assertThat(StructuredFields.dictionary(members(1025, k -> "k" + k + "=1"))).isNull();
    // a member is a member, duplicate or not: the work is bounded, not just the result
    assertThat(StructuredFields.dictionary(members(1025, k -> "k=" + k))).isNull();
    StringBuilder params = new StringBuilder("a");
    for (int k = 0; k < 257; k++) params.append(";k").append(k);
    assertThat(StructuredFields.list(params.toString())).isNull();
    StringBuilder sameParam = new StringBuilder("a");
    for (int k = 0; k < 257; k++) sameParam.append(";r=").append(k);
    assertThat(StructuredFields.list(sameParam.toString())).isNull();
    StringBuilder inner = new StringBuilder("(");
    for (int k = 0; k < 257; k++) inner.append(k == 0 ? "" : " ").append(k);
    assertThat(StructuredFields.list(inner.append(')').toString())).isNull();
  }

  // ---- a hostile server's 250 KiB fields, through the whole parser

  @Test
  void hostileRateLimitOfDistinctNamesIsIgnored() {
    RateLimitSignals s = parse("RateLimit", hostile(k -> "\"p" + k + "\";r=1;t=1"));
    assertThat(s.policies()).isEmpty();
    assertThat(s.bucket()).isNull();
    assertThat(s.isAnomalous()).isTrue();
  }

  @Test
  void hostileRateLimitPolicyOfDistinctNamesIsIgnored() {
    RateLimitSignals s = parse("RateLimit-Policy", hostile(k -> "\"p" + k + "\";q=1;w=1"));
    assertThat(s.policies()).isEmpty();
    assertThat(s.isAnomalous()).isTrue();
  }

  @Test
  void hostileDictionaryOfDistinctKeysIsIgnored() {
    RateLimitSignals s = parse("RateLimit", hostile(k -> "k" + k + "=1"));
    assertThat(s.policies()).isEmpty();
    assertThat(s.isAnomalous()).isTrue();
  }

  // ---- the dialect's lookups past the scan give the scan's answers

  /**
   * Era E items pair with the first policy of their name whose partition key is theirs or absent
   * (any, when they have none), or start a policy of their own: the rule the dialect scanned for
   * and now looks up once there are more than {@link StructuredFields#SCAN} policies.
   */
  @Property(tries = 3_000)
  void eraEPairingIsTheScansPairing(@ForAll("policies") List<String[]> policies, @ForAll("items") List<String[]> items) {
    List<Object[]> model = new ArrayList<>(); // name, pk, quota, remaining, reset
    StringBuilder policyField = new StringBuilder();
    for (String[] p : policies) {
      if (policyField.length() > 0) policyField.append(", ");
      policyField.append('"').append(p[0]).append("\";q=").append(p[2]).append(";w=60");
      if (p[1] != null) policyField.append(";pk=:").append(p[1]).append(':');
      model.add(new Object[] {p[0], p[1], Long.parseLong(p[2]), -1L, -1L});
    }
    StringBuilder limitField = new StringBuilder();
    for (String[] item : items) {
      if (limitField.length() > 0) limitField.append(", ");
      limitField.append('"').append(item[0]).append("\";r=").append(item[2]).append(";t=").append(item[3]);
      if (item[1] != null) limitField.append(";pk=:").append(item[1]).append(':');
      Object[] found = null;
      for (Object[] q : model) {
        if (q[0].equals(item[0]) && (item[1] == null || q[1] == null || item[1].equals(q[1]))) {
          found = q;
          break;
        }
      }
      if (found == null) {
        found = new Object[] {item[0], item[1], -1L, -1L, -1L};
        model.add(found);
      }
      found[3] = Long.parseLong(item[2]);
      found[4] = Long.parseLong(item[3]);
    }
    Assume.that(!items.isEmpty());
    RateLimitSignals s = parse("RateLimit-Policy", policyField.toString(), "RateLimit", limitField.toString());
    assertThat(s.policies()).hasSize(model.size());
    for (int k = 0; k < model.size(); k++) {
      RateLimitPolicy p = s.policies().get(k);
      Object[] q = model.get(k);
      assertThat(p.name()).isEqualTo(q[0]);
      assertThat(p.partitionKey()).isEqualTo(q[1]);
      assertThat(p.quota().orElse(-1)).isEqualTo(q[2]);
      assertThat(p.remaining().orElse(-1)).isEqualTo(q[3]);
      long reset = (Long) q[4];
      assertThat(p.reset()).isEqualTo(reset < 0 ? null : Duration.ofSeconds(reset));
    }
  }

  /** 0 to 10 policies over 6 names and 3 partition keys (or none), quotas 1,000 up. */
  @Provide
  Arbitrary<List<String[]>> policies() {
    return Combinators.combine(names(), keys(), Arbitraries.integers().between(1000, 9999))
        .as((n, pk, q) -> new String[] {n, pk, String.valueOf(q)}).list().ofMaxSize(10);
  }

  /**
   * 0 to 6 items over the same names and keys, remaining under any policy's quota: with the
   * policies, at most 16, all of them kept.
   */
  @Provide
  Arbitrary<List<String[]>> items() {
    return Combinators.combine(names(), keys(), Arbitraries.integers().between(0, 999),
        Arbitraries.integers().between(1, 3600))
        .as((n, pk, r, t) -> new String[] {n, pk, String.valueOf(r), String.valueOf(t)}).list().ofMaxSize(6);
  }

  private static Arbitrary<String> names() {
    return Arbitraries.of("a", "b", "c", "d", "e", "f");
  }

  private static Arbitrary<String> keys() {
    return Arbitraries.of("QUJD", "REVG", "R0hJ").injectNull(0.4);
  }

  @Test
  void aRepeatedBareLimitIsFoundAmongManyPolicies() {
    // era B: the expiring limit, then its policies; a bare number that is no policy's quota is a
    // repeated singleton, flagged, the smaller limit kept. Past the scan, the quotas are a set.
    String policies = members(10, k -> (k + 1) + ";w=1");
    RateLimitSignals known = parse("RateLimit-Limit", "100, " + policies + ", 5");
    assertThat(known.isAnomalous()).isFalse();
    assertThat(known.policies().get(0).quota()).hasValue(100);
    RateLimitSignals unknown = parse("RateLimit-Limit", "100, " + policies + ", 50");
    assertThat(unknown.isAnomalous()).isTrue();
    assertThat(unknown.policies().get(0).quota()).hasValue(50);
    RateLimitSignals early = parse("RateLimit-Limit", "100, 1;w=1, 50, " + members(10, k -> (k + 2) + ";w=1"));
    assertThat(early.isAnomalous()).isTrue();
    assertThat(early.policies().get(0).quota()).hasValue(50);
  }

  // ---- helpers

  /** {@code member(0), member(1), ...} joined by {@code ", "}: n of them. */
  static String members(int n, IntFunction<String> member) {
    StringBuilder b = new StringBuilder();
    for (int k = 0; k < n; k++) {
      if (k > 0) b.append(", ");
      b.append(member.apply(k));
    }
    return b.toString();
  }

  /** Members joined by {@code ", "} until the field is 250 KiB long. */
  static String hostile(IntFunction<String> member) {
    StringBuilder b = new StringBuilder(HOSTILE + 64);
    for (int k = 0; b.length() < HOSTILE; k++) {
      if (k > 0) b.append(", ");
      b.append(member.apply(k));
    }
    return b.toString();
  }
}
