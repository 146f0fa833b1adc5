package dev.polite.internal.model;

import static org.assertj.core.api.Assertions.assertThat;

import dev.polite.HeaderLines;
import dev.polite.RateLimitHeaders;
import dev.polite.RateLimitSignals;
import org.junit.jupiter.api.Test;

/** What pace an answer advertises: the governing policy's rate, and a burst no policy's quota exceeds. */
class AdvertisedPaceTest {
  private static final long NOW = 1_767_225_600_000L; // 2026-01-01T00:00:00Z
  private static final long MS = 1_000_000L;

  private static RateLimitSignals ietf(String policy, String remaining) {
    return RateLimitHeaders.standard().parse(200, HeaderLines.of(
        "RateLimit-Policy", policy, "RateLimit", remaining), NOW);
  }

  @Test
  void twoPoliciesInOneFieldSendNoMoreAtOnceThanTheLeastQuota() {
    // 20 a second beside 60 per 5 s, the window nearly spent: the slower one governs the pace.
    RateLimitSignals s = ietf("\"default\";q=20;w=1, \"window\";q=60;w=5",
        "\"default\";r=15;t=1, \"window\";r=5;t=3");
    AdvertisedPace.Pace pace = new AdvertisedPace().learn(s, 1, 1, 0, MS);
    assertThat(pace).isNotNull();
    assertThat(pace.rate()).as("60 per 5 s").isEqualTo(12.0);
    assertThat(pace.burst()).as("but never more at once than the 20 a second takes").isEqualTo(20.0);
  }

  @Test
  void onePolicyKeepsItsQuotaAsTheBurst() {
    RateLimitSignals s = ietf("\"window\";q=60;w=5", "\"window\";r=50;t=3");
    AdvertisedPace.Pace pace = new AdvertisedPace().learn(s, 1, 1, 0, MS);
    assertThat(pace.rate()).isEqualTo(12.0);
    assertThat(pace.burst()).isEqualTo(60.0);
  }
}
