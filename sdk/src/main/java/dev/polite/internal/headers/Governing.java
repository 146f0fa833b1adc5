package dev.polite.internal.headers;

import dev.polite.RateLimitPolicy;
import java.time.Duration;
import java.util.List;

/**
 * Picks the policy whose numbers become the headline of {@link dev.polite.RateLimitSignals}, with
 * the interceptor in mind: it paces at the headline's limit/window when that counts requests, and
 * pauses the key until the headline's reset when its remaining is 0.
 *
 * <ol>
 *   <li>An exhausted policy (remaining 0), of any unit, governs: the key must pause. Among several,
 *       the one with the longest reset (the wait is the maximum {@code t} among items with
 *       {@code r=0}; OpenAI: the later of requests and tokens). So an exhausted token quota beside
 *       a fresh request quota makes the headline "0 remaining until the tokens come back".
 *   <li>Otherwise the most restrictive request quota: the smallest known remaining (the IETF
 *       drafts' "budget is the minimum over all reported items", GitHub's and era B's "expiring
 *       limit"), ties to the lower sustained rate; with no remaining known, one with a live reset
 *       (era B's expiring limit), then the lowest rate, then the smallest quota.
 *   <li>Token, byte and concurrency quotas that are not exhausted never govern: they cannot pace
 *       requests. They stay visible in {@code policies()}.
 * </ol>
 */
final class Governing {
  private Governing() {}

  /** The index of the governing policy, or -1 when none should govern. */
  static int choose(List<RateLimitPolicy> policies) {
    int n = policies.size();
    if (n == 0) return -1;
    if (n == 1) {
      RateLimitPolicy p = policies.get(0);
      return p.countsRequests() || p.isSpent() ? 0 : -1;
    }
    int best = -1;
    for (int i = 0; i < n; i++) {
      RateLimitPolicy p = policies.get(i);
      if (p.isSpent() && (best < 0 || resetMillis(p) > resetMillis(policies.get(best)))) best = i;
    }
    if (best >= 0) return best;
    for (int i = 0; i < n; i++) {
      RateLimitPolicy p = policies.get(i);
      if (p.countsRequests() && (best < 0 || moreRestrictive(p, policies.get(best)))) best = i;
    }
    return best;
  }

  private static long resetMillis(RateLimitPolicy p) {
    Duration d = p.reset();
    return d == null ? -1 : d.toMillis();
  }

  private static boolean moreRestrictive(RateLimitPolicy a, RateLimitPolicy b) {
    boolean ar = a.remaining().isPresent();
    boolean br = b.remaining().isPresent();
    if (ar != br) return ar;
    if (ar && a.remaining().getAsLong() != b.remaining().getAsLong()) {
      return a.remaining().getAsLong() < b.remaining().getAsLong();
    }
    boolean at = a.reset() != null;
    if (at != (b.reset() != null)) return at; // the server reported live numbers for it
    double ra = a.ratePerSecond();
    double rb = b.ratePerSecond();
    if (!Double.isNaN(ra) || !Double.isNaN(rb)) {
      if (Double.isNaN(rb)) return true;
      if (Double.isNaN(ra)) return false;
      if (ra != rb) return ra < rb;
    }
    if (a.quota().isPresent() && b.quota().isPresent()) return a.quota().getAsLong() < b.quota().getAsLong();
    return a.quota().isPresent() && !b.quota().isPresent();
  }
}
