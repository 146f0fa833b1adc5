package dev.polite.internal.budgets;

import dev.polite.RateLimitPolicy;
import dev.polite.RateLimitSignals;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.jspecify.annotations.Nullable;

/**
 * The quotas a budget's answers report, each policy by its name and unit: what identifies a
 * budget the server never names. X's API v2 answers every endpoint with its own
 * {@code x-rate-limit-limit} (900 per 15 minutes here, 15 there) and never says which budget it
 * is; Azure reports {@code x-ms-ratelimit-remaining-subscription-reads} on reads and
 * {@code -writes} on writes. One budget cannot report two quotas for one policy, so answers that
 * do come from two budgets, and {@link KeyBudgets} keeps them apart as it keeps named ones.
 *
 * <h2>What one budget can report</h2>
 * An answer {@linkplain #fits fits} a profile when every policy the two share states the same
 * quota and window (where both state one) and they share at least one: a refusal that reports
 * only its exhausted policy (an LLM gateway's tokens, not its requests) fits the budget that
 * reported both; an answer whose policies the profile never saw (writes, where the budget knows
 * reads) does not. Remaining counts and resets change from answer to answer and are not part of
 * it.
 *
 * <p>Immutable; small (a budget's answers report one to four policies). {@link #fits} allocates
 * nothing: it is asked of every answer that names no budget.
 */
final class QuotaProfile {
  private static final int MAX_POLICIES = 8;

  private final String[] names;
  private final String[] units;
  private final long[] quotas;
  private final long[] windows;

  private QuotaProfile(String[] names, String[] units, long[] quotas, long[] windows) {
    this.names = names;
    this.units = units;
    this.quotas = quotas;
    this.windows = windows;
  }

  /** The profile of the policies {@code signals} report; null when it reports none. */
  static @Nullable QuotaProfile of(RateLimitSignals signals) {
    List<RateLimitPolicy> policies = signals.policies();
    int n = Math.min(MAX_POLICIES, policies.size());
    if (n == 0) {
      return null;
    }
    String[] names = new String[n];
    String[] units = new String[n];
    long[] quotas = new long[n];
    long[] windows = new long[n];
    for (int i = 0; i < n; i++) {
      RateLimitPolicy p = policies.get(i);
      names[i] = p.name();
      units[i] = p.unit();
      quotas[i] = quotaOf(p);
      windows[i] = windowOf(p);
    }
    return new QuotaProfile(names, units, quotas, windows);
  }

  /** Whether one budget can have reported both this profile and {@code signals} (see the class comment). */
  boolean fits(RateLimitSignals signals) {
    List<RateLimitPolicy> policies = signals.policies();
    boolean shared = false;
    for (int k = 0, n = Math.min(MAX_POLICIES, policies.size()); k < n; k++) {
      RateLimitPolicy p = policies.get(k);
      int i = indexOf(p);
      if (i < 0) {
        continue;
      }
      if (differ(quotas[i], quotaOf(p)) || differ(windows[i], windowOf(p))) {
        return false;
      }
      shared = true;
    }
    return shared;
  }

  /** Whether {@code signals} reports nothing this profile lacks: no policy, quota or window new to it. */
  boolean covers(RateLimitSignals signals) {
    List<RateLimitPolicy> policies = signals.policies();
    for (int k = 0, n = Math.min(MAX_POLICIES, policies.size()); k < n; k++) {
      RateLimitPolicy p = policies.get(k);
      int i = indexOf(p);
      if (i < 0 || (quotas[i] < 0 && quotaOf(p) >= 0) || (windows[i] < 0 && windowOf(p) >= 0)) {
        return false;
      }
    }
    return true;
  }

  /** This profile with what {@code signals}, which {@linkplain #fits fits} it, adds (at most eight policies). */
  QuotaProfile with(RateLimitSignals signals) {
    if (covers(signals)) {
      return this;
    }
    List<String> n = new ArrayList<>(List.of(names));
    List<String> u = new ArrayList<>(List.of(units));
    List<Long> q = new ArrayList<>();
    List<Long> w = new ArrayList<>();
    for (int i = 0; i < names.length; i++) {
      q.add(quotas[i]);
      w.add(windows[i]);
    }
    for (RateLimitPolicy p : signals.policies()) {
      int i = indexOf(p);
      if (i >= 0) {
        q.set(i, Math.max(q.get(i), quotaOf(p)));
        w.set(i, Math.max(w.get(i), windowOf(p)));
      } else if (n.size() < MAX_POLICIES) {
        n.add(p.name());
        u.add(p.unit());
        q.add(quotaOf(p));
        w.add(windowOf(p));
      }
    }
    long[] quotas = new long[n.size()];
    long[] windows = new long[n.size()];
    for (int i = 0; i < quotas.length; i++) {
      quotas[i] = q.get(i);
      windows[i] = w.get(i);
    }
    return new QuotaProfile(n.toArray(new String[0]), u.toArray(new String[0]), quotas, windows);
  }

  /**
   * A name for the budget, for its state's key and the logs: its policies' quotas, such as
   * {@code 15} (one policy with no name), {@code 20/1s} or {@code requests=3500,tokens=90000 tokens}.
   */
  String budgetName() {
    List<String> parts = new ArrayList<>(names.length);
    for (int i = 0; i < names.length; i++) {
      StringBuilder part = new StringBuilder();
      if (!names[i].isEmpty()) {
        part.append(names[i]);
        if (quotas[i] >= 0) {
          part.append('=');
        }
      }
      if (quotas[i] >= 0) {
        part.append(quotas[i]);
      }
      if (windows[i] >= 0) {
        part.append('/').append(seconds(windows[i]));
      }
      if (!RateLimitPolicy.REQUESTS.equals(units[i])) {
        part.append(' ').append(units[i]);
      }
      parts.add(part.toString());
    }
    parts.sort(null);
    return String.join(",", parts);
  }

  private int indexOf(RateLimitPolicy p) {
    for (int i = 0; i < names.length; i++) {
      if (names[i].equals(p.name()) && units[i].equals(p.unit())) {
        return i;
      }
    }
    return -1;
  }

  /** Whether two readings of one figure (-1 for not stated) say different things. */
  private static boolean differ(long a, long b) {
    return a >= 0 && b >= 0 && a != b;
  }

  private static long quotaOf(RateLimitPolicy p) {
    return p.quota().isPresent() ? p.quota().getAsLong() : -1;
  }

  private static long windowOf(RateLimitPolicy p) {
    return p.window() != null ? p.window().toMillis() : -1;
  }

  private static String seconds(long millis) {
    return millis % 1000 == 0 ? millis / 1000 + "s" : String.format(Locale.ROOT, "%.3fs", millis / 1000.0);
  }

  @Override
  public String toString() {
    return "QuotaProfile{" + budgetName() + '}';
  }
}
