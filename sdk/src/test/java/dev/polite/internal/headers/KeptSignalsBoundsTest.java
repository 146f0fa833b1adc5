package dev.polite.internal.headers;

import static dev.polite.internal.headers.Responses.parse;
import static dev.polite.internal.headers.StructuredFieldsBoundsTest.HOSTILE;
import static dev.polite.internal.headers.StructuredFieldsBoundsTest.hostile;
import static dev.polite.internal.headers.StructuredFieldsBoundsTest.members;
import static org.assertj.core.api.Assertions.assertThat;

import dev.polite.RateLimitPolicy;
import dev.polite.RateLimitSignals;
import org.junit.jupiter.api.Test;

/**
 * Issue 27, item 3: what one response's signals keep, and so what a key keeps of its last answer
 * (once per budget state), is bounded whatever the server sends: at most
 * {@link Reading#MAX_POLICIES} policies, the governing one always among them, and no name, unit,
 * partition key, bucket or scope past {@link Reading#MAX_TEXT} characters. A 250 KiB
 * {@code RateLimit} of 1,000 long names, within the parser's caps, once left all 1,000 policies
 * and a 250 KiB bucket on the key.
 */
class KeptSignalsBoundsTest {

  @Test
  void everyHostileShapeLeavesBoundedSignals() {
    String pad = "x".repeat(240);
    String[][] shapes = {
      {"RateLimit", hostile(k -> "k" + k + "=1")},
      {"RateLimit", hostile(k -> "\"p" + k + "\";r=1;t=1")},
      {"RateLimit-Policy", hostile(k -> "\"p" + k + "\";q=1;w=1")},
      {"RateLimit-Limit", "0, " + hostile(k -> k % 2 == 0 ? (k / 2 + 1) + ";w=1" : String.valueOf(100_000 + k))},
      {"RateLimit", "\"a\";r=1" + ";k".repeat(HOSTILE / 2)},
      // within the caps: 1,000 items, each named by 240-odd characters, the field 250 KiB
      {"RateLimit", members(1000, k -> "\"p" + k + pad + "\";r=1;t=1")},
      {"RateLimit-Policy", members(1000, k -> "\"p" + k + pad + "\";q=1;w=1;pk=:" + "QUJD".repeat(60) + ":")},
      {"x-ratelimit-limit", "10, " + members(1000, k -> "10;w=60;name=\"" + pad + k + "\"")},
      {"X-RateLimit-Bucket", "b".repeat(HOSTILE), "X-RateLimit-Scope", "s".repeat(HOSTILE),
          "X-RateLimit-Remaining", "1", "X-RateLimit-Reset-After", "1"},
    };
    for (String[] shape : shapes) {
      RateLimitSignals s = parse(shape);
      assertThat(s.policies()).as(shape[0]).hasSizeLessThanOrEqualTo(Reading.MAX_POLICIES);
      // at most 16 policies of three texts of 256 characters, a bucket and a scope: 12,800
      assertThat(charsKept(s)).as(shape[0]).isLessThanOrEqualTo(
          Reading.MAX_POLICIES * 3 * Reading.MAX_TEXT + 2 * Reading.MAX_TEXT);
    }
  }

  @Test
  void longNamesWithinTheMemberCapKeepSixteenPolicies() {
    String pad = "x".repeat(240);
    RateLimitSignals s = parse("RateLimit", members(1000, k -> "\"p" + k + pad + "\";r=" + (1000 - k) + ";t=1"));
    assertThat(s.policies()).hasSize(Reading.MAX_POLICIES);
    assertThat(s.policyName()).isEqualTo("p999" + pad); // the smallest remaining governs, kept
    assertThat(s.remaining()).hasValue(1);
    assertThat(s.policies()).contains(s.governing());
    assertThat(s.bucket()).isNull(); // 1,000 names joined: no budget a key could keep
    assertThat(s.isAnomalous()).isTrue();
  }

  @Test
  void theGoverningPolicyIsKeptPastThePolicyCap() {
    // 20 policies, the last one the lowest rate: it paces, so it must be among the 16 kept
    RateLimitSignals s = parse("RateLimit-Policy", members(20, k -> "\"p" + k + "\";q=" + (k == 19 ? 1 : 100) + ";w=1"));
    assertThat(s.policies()).hasSize(Reading.MAX_POLICIES);
    assertThat(s.policyName()).isEqualTo("p19");
    assertThat(s.policies().get(Reading.MAX_POLICIES - 1).name()).isEqualTo("p19");
    assertThat(s.policies().subList(0, Reading.MAX_POLICIES - 1)).extracting(RateLimitPolicy::name)
        .containsExactly("p0", "p1", "p2", "p3", "p4", "p5", "p6", "p7", "p8", "p9", "p10", "p11", "p12", "p13", "p14");
    assertThat(s.isAnomalous()).isTrue();
  }

  @Test
  void sixteenPoliciesAreAllKeptUnflagged() {
    RateLimitSignals s = parse("RateLimit-Policy", members(16, k -> "\"p" + k + "\";q=" + (k + 1) + ";w=1"));
    assertThat(s.policies()).hasSize(16);
    assertThat(s.isAnomalous()).isFalse();
  }

  @Test
  void aPolicyWhoseTextIsPastTheCapIsDropped() {
    String longest = "n".repeat(Reading.MAX_TEXT);
    RateLimitSignals kept = parse("RateLimit-Policy", "\"" + longest + "\";q=10;w=1");
    assertThat(kept.policyName()).isEqualTo(longest);
    assertThat(kept.isAnomalous()).isFalse();
    RateLimitSignals name = parse("RateLimit-Policy", "\"" + longest + "n\";q=10;w=1, \"short\";q=20;w=1");
    assertThat(name.policies()).extracting(RateLimitPolicy::name).containsExactly("short");
    assertThat(name.isAnomalous()).isTrue();
    RateLimitSignals unit = parse("RateLimit-Policy", "\"a\";q=10;w=1;qu=\"" + longest + "u\"");
    assertThat(unit.policies()).isEmpty();
    RateLimitSignals pk = parse("RateLimit-Policy", "\"a\";q=10;w=1;pk=:" + "QUJD".repeat(65) + ":");
    assertThat(pk.policies()).isEmpty();
    assertThat(pk.isAnomalous()).isTrue();
  }

  @Test
  void aBucketOrScopePastTheCapIsNotKept() {
    RateLimitSignals s = parse(429, "Retry-After", "1", "X-RateLimit-Bucket", "b".repeat(Reading.MAX_TEXT + 1),
        "X-RateLimit-Scope", "s".repeat(Reading.MAX_TEXT + 1), "X-RateLimit-Reset-After", "1");
    assertThat(s.bucket()).isNull();
    assertThat(s.scope()).isNull();
    assertThat(s.isAnomalous()).isTrue();
    RateLimitSignals fits = parse(429, "Retry-After", "1", "X-RateLimit-Bucket", "b".repeat(Reading.MAX_TEXT),
        "X-RateLimit-Scope", "user", "X-RateLimit-Reset-After", "1");
    assertThat(fits.bucket()).hasSize(Reading.MAX_TEXT);
    assertThat(fits.scope()).isEqualTo("user");
  }

  /** The characters of text the signals hold: what a key keeps of them beyond fixed-size fields. */
  private static long charsKept(RateLimitSignals s) {
    long chars = (s.bucket() == null ? 0 : s.bucket().length()) + (s.scope() == null ? 0 : s.scope().length());
    for (RateLimitPolicy p : s.policies()) {
      chars += p.name().length() + p.unit().length() + (p.partitionKey() == null ? 0 : p.partitionKey().length());
    }
    return chars;
  }
}
