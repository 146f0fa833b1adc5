package dev.polite.vendors.anthropic;

import dev.polite.HeaderLines;
import dev.polite.RateLimitDialect;
import dev.polite.RateLimitPolicy;
import dev.polite.RateLimitSignals;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Makes Anthropic's token budget the budget of a polite key of its own, counted in tokens: the
 * answer's {@code anthropic-ratelimit-tokens-limit} over {@code window} becomes the key's pace,
 * its only policy, in the key's units. polite's built-in Anthropic reading lets a token quota
 * govern only when it is spent (a key's units are requests by default); the key this dialect
 * serves charges each call its {@link dev.polite.RequestCost} in tokens instead.
 *
 * <p>The window is said, not read: Anthropic's headers name a limit and the moment the budget is
 * full again, not the period, which its documentation gives (a minute).
 *
 * <p>The remaining count is read from the first answer only, to start the key's count where the
 * server's is (else a key starts a learned pace with an empty bucket, and a burst the budget
 * allows waits). After that the key's own count is the better one: reserved per call and settled
 * from each answer's usage, it is exact, where Anthropic rounds its remaining to the thousand and
 * has already counted the answer's own usage, which the settlement would then give back a second
 * time. So one dialect serves one key: make one per token layer. Retry-After and the refusal
 * itself are kept, so a 429 still pauses the key.
 */
public final class TokenBudgetDialect implements RateLimitDialect {
  private final Duration window;
  private final AtomicBoolean seeded = new AtomicBoolean();

  /** Anthropic's budgets are per minute: {@code new TokenBudgetDialect(Duration.ofMinutes(1))}. */
  public TokenBudgetDialect(Duration window) {
    if (window.isNegative() || window.isZero()) {
      throw new IllegalArgumentException("window must be positive: " + window);
    }
    this.window = window;
  }

  @Override
  public String name() {
    return "anthropic-tokens";
  }

  @Override
  public boolean read(int status, HeaderLines headers, long responseEpochMillis,
      RateLimitSignals.Builder signals) {
    long limit = count(headers.first("anthropic-ratelimit-tokens-limit"));
    if (limit <= 0) {
      return false;
    }
    RateLimitPolicy.Builder budget = RateLimitPolicy.builder("tokens").quota(limit).window(window);
    long remaining = count(headers.first("anthropic-ratelimit-tokens-remaining"));
    if (remaining >= 0 && remaining <= limit && !seeded.getAndSet(true)) {
      budget.remaining(remaining);
      Duration reset = resetOf(headers.first("anthropic-ratelimit-tokens-reset"), responseEpochMillis);
      if (reset != null) {
        budget.reset(reset);
      }
    }
    RateLimitPolicy policy = budget.build();
    signals.policies(List.of(policy)).governedBy(policy);
    return true;
  }

  /** A non-negative count, or -1 when absent or malformed. */
  private static long count(String value) {
    if (value == null) {
      return -1;
    }
    try {
      return Math.max(-1, Long.parseLong(value.trim()));
    } catch (NumberFormatException e) {
      return -1;
    }
  }

  /** An RFC 3339 reset as a delay from the response's time, never negative; null if unreadable. */
  private static Duration resetOf(String value, long responseEpochMillis) {
    if (value == null) {
      return null;
    }
    try {
      long millis = Instant.parse(value.trim()).toEpochMilli() - responseEpochMillis;
      return Duration.ofMillis(Math.max(0, millis));
    } catch (DateTimeParseException e) {
      return null;
    }
  }
}
