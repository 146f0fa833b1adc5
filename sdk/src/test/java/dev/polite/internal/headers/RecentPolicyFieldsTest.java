package dev.polite.internal.headers;

import static dev.polite.internal.headers.Responses.parse;
import static org.assertj.core.api.Assertions.assertThat;

import dev.polite.RateLimitSignals;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A policy field a server repeats is parsed once, and what is remembered never changes what an
 * answer says: the same text reads the same, another text reads as itself, and what is not kept
 * (malformed, too long) is still read, and flagged, on every answer.
 */
class RecentPolicyFieldsTest {

  @Test
  void theSameTextIsParsedOnce() {
    String field = "\"once\";q=100;w=60";
    List<SfMember> first = RecentPolicyFields.list(new String(field.toCharArray()));
    List<SfMember> again = RecentPolicyFields.list(new String(field.toCharArray()));
    assertThat(again).isSameAs(first).isEqualTo(StructuredFields.list(field));
  }

  @Test
  void anotherTextIsReadAsItself() {
    RecentPolicyFields.list("\"a\";q=100;w=60");
    assertThat(RecentPolicyFields.list("\"a\";q=101;w=60"))
        .isEqualTo(StructuredFields.list("\"a\";q=101;w=60"));
  }

  @Test
  void everyTextThatSharesASlotStillReadsAsItself() {
    // more texts than slots: each one meets others in its slot, and must still read as itself
    for (int round = 0; round < 2; round++) {
      for (int q = 1; q <= 3 * RecentPolicyFields.SLOTS; q++) {
        String field = "\"p\";q=" + q + ";w=1";
        assertThat(RecentPolicyFields.list(field)).isEqualTo(StructuredFields.list(field));
      }
    }
  }

  @Test
  void aMalformedTextIsNotKeptAndFlagsEveryAnswer() {
    assertThat(RecentPolicyFields.list("\"bad\";q=")).isNull();
    for (int i = 0; i < 2; i++) {
      RateLimitSignals s = parse("RateLimit-Policy", "\"bad\";q=", "RateLimit", "\"x\";r=5;t=1");
      assertThat(s.isAnomalous()).isTrue();
    }
  }

  @Test
  void aTextPastTheCapIsReadButNotKept() {
    StringBuilder b = new StringBuilder("\"long\";q=100;w=60");
    while (b.length() <= RecentPolicyFields.MAX_TEXT) b.append(", \"p").append(b.length()).append("\";q=1;w=1");
    String field = b.toString();
    List<SfMember> first = RecentPolicyFields.list(field);
    assertThat(first).isEqualTo(StructuredFields.list(field)).isNotEmpty();
    assertThat(RecentPolicyFields.list(field)).isNotSameAs(first);
  }

  @Test
  void answersThatShareAPolicyTextEachKeepTheirOwnCounts() {
    RateLimitSignals a = parse("RateLimit-Policy", "\"shared\";q=100;w=60", "RateLimit", "\"shared\";r=40;t=30");
    RateLimitSignals b = parse("RateLimit-Policy", "\"shared\";q=100;w=60", "RateLimit", "\"shared\";r=7;t=2");
    assertThat(a.remaining()).hasValue(40);
    assertThat(a.reset()).isEqualTo(Duration.ofSeconds(30));
    assertThat(b.remaining()).hasValue(7);
    assertThat(b.reset()).isEqualTo(Duration.ofSeconds(2));
    assertThat(b.limit()).hasValue(100);
    assertThat(b.window()).isEqualTo(Duration.ofSeconds(60));
  }
}
