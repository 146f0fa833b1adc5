package dev.polite.examples.zoo;

import dev.polite.demo.SecondPolicy;
import java.time.Duration;
import org.jspecify.annotations.Nullable;

/**
 * The shapes of a limit a row may add, each a demo server flag: a cap on calls in flight per key
 * with each admitted call taking a while ({@code --concurrency}, {@code --latency}), refusals
 * answered 403 as GitHub does ({@code --reject-status 403}), a reset 200 days out on every Nth
 * answer ({@code --wrong-reset-every}), a quota the cell spends, judged by
 * {@link Verdict#spentQuota}, routes with budgets of their own ({@code --budget}), which the
 * cell's calls spend in a fixed mix ({@link Split}), named in the answers or not
 * ({@code --unnamed-budgets}), a block that each early call restarts ({@code --block-for}), a
 * limiter that refuses everything ({@code --refuse-all}), judged by
 * {@link Verdict#refusesEverything}, a second policy beside the first ({@code --second-policy}),
 * and refusals whose hint no client can use on a server that otherwise admits everything
 * ({@code --bogus-refusal-every}, each admitted call taking {@code latency}), judged by
 * {@link Verdict#unusableHints}. Made by the factories, one per shape.
 *
 * @param concurrency calls in flight per key, 0 for no cap
 * @param latency each admitted call's simulated work
 * @param rejectStatus the status of every refusal, 429 or 403
 * @param wrongResetEvery every Nth answer states a reset 200 days out; 0 for never
 * @param spentQuota whether the window's limit is a quota the cell spends: its limit succeed,
 *     the rest must fail fast
 * @param split the budgets of the host's routes and the cell's mix of calls over them
 *     ({@link Split#NONE} for one budget, every call to {@link Split#PATH})
 * @param blockFor how long a key is blocked once refused, each call during the block restarting
 *     it; zero for no block
 * @param refuseAll whether every call is refused ({@code Retry-After: 0}, nothing else)
 * @param secondPolicy a fixed window every call must also pass, listed beside the main policy in
 *     the IETF fields; null for none
 * @param bogusRefusalEvery every Nth answer is a refusal no limiter made, saying "come back in a
 *     day"; 0 for never
 */
record Shape(int concurrency, Duration latency, int rejectStatus, int wrongResetEvery, boolean spentQuota,
    Split split, Duration blockFor, boolean refuseAll, @Nullable SecondPolicy secondPolicy, int bogusRefusalEvery) {
  /** Nothing added: the algorithm in its dialect, 429 refusals. */
  public static final Shape PLAIN = new Parts().shape();

  /** A cap of {@code inFlight} calls in flight per key, each admitted call taking {@code latency}. */
  public static Shape cap(int inFlight, Duration latency, int rejectStatus) {
    Parts parts = new Parts();
    parts.concurrency = inFlight;
    parts.latency = latency;
    parts.rejectStatus = rejectStatus;
    return parts.shape();
  }

  /** Every {@code every}th answer states a reset 200 days out, everything else true. */
  public static Shape wrongReset(int every) {
    Parts parts = new Parts();
    parts.wrongResetEvery = every;
    return parts.shape();
  }

  /** A quota the cell spends, refused with {@code rejectStatus}. */
  public static Shape spent(int rejectStatus) {
    Parts parts = new Parts();
    parts.spentQuota = true;
    parts.rejectStatus = rejectStatus;
    return parts.shape();
  }

  /** Routes with budgets of their own, spent by the cell's calls in {@code split}'s mix. */
  public static Shape budgets(Split split) {
    Parts parts = new Parts();
    parts.split = split;
    return parts.shape();
  }

  /** Once refused, a key is blocked for {@code blockFor}, and every call during the block restarts it. */
  public static Shape block(Duration blockFor) {
    Parts parts = new Parts();
    parts.blockFor = blockFor;
    return parts.shape();
  }

  /** Every call refused, {@code Retry-After: 0} and nothing else: no call can succeed. */
  public static Shape refusesEverything() {
    Parts parts = new Parts();
    parts.refuseAll = true;
    return parts.shape();
  }

  /** A second policy every call must also pass, listed beside the first in one field. */
  public static Shape twoPolicies(SecondPolicy second) {
    Parts parts = new Parts();
    parts.secondPolicy = second;
    return parts.shape();
  }

  /**
   * Every {@code every}th answer a refusal no limiter made, with a {@code Retry-After} of a day, before
   * the row's limiter; each admitted call takes {@code latency} (zero: none).
   */
  public static Shape unusableHints(int every, Duration latency) {
    Parts parts = new Parts();
    parts.bogusRefusalEvery = every;
    parts.latency = latency;
    return parts.shape();
  }

  /** Whether it adds nothing. */
  public boolean plain() {
    return equals(PLAIN);
  }

  /**
   * How the row's cells are judged: a spent quota's, a limiter that refuses everything's and
   * unusable hints' by their own targets, every other shape by the usual ones.
   */
  Targets targets(long limit) {
    if (spentQuota) {
      return new Targets.SpentQuota(limit);
    }
    if (refuseAll) {
      return new Targets.RefusesEverything();
    }
    return bogusRefusalEvery > 0 ? new Targets.UnusableHints(bogusRefusalEvery) : Targets.USUAL;
  }

  /** A shape's parts as its factory sets them, every other one as {@link #PLAIN} has it. */
  private static final class Parts {
    int concurrency;
    Duration latency = Duration.ZERO;
    int rejectStatus = 429;
    int wrongResetEvery;
    boolean spentQuota;
    Split split = Split.NONE;
    Duration blockFor = Duration.ZERO;
    boolean refuseAll;
    @Nullable SecondPolicy secondPolicy;
    int bogusRefusalEvery;

    Shape shape() {
      return new Shape(concurrency, latency, rejectStatus, wrongResetEvery, spentQuota, split, blockFor, refuseAll,
          secondPolicy, bogusRefusalEvery);
    }
  }
}
