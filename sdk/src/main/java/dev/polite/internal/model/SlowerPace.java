package dev.polite.internal.model;

/**
 * Whether an advertised pace slower than the one a key keeps is believed yet: only when two
 * answers in a row say it.
 *
 * <h2>Why</h2>
 * A pace that errs fast is harmless (the server's remaining count still sets the tokens, and a
 * spent quota still pauses the key until its reset); one that errs slow fails every call that
 * cannot wait for it. So one answer with a plausible but wrong policy (a limit of 1, a window of a
 * year) must not slow the key: a slower reading is a candidate until the next answer says the
 * same, and any other reading drops it. A faster or equal one is taken at once, as is the first a
 * key hears (it has nothing to keep). The cost of the rule is one answer's delay when a server
 * really does slow a key down, which its remaining count bounds meanwhile.
 *
 * <p>Not thread-safe: part of {@link KeyModel}.
 */
final class SlowerPace {
  /** Two readings within this fraction of each other say the same. */
  private static final double SAME = 0.01;

  private double candidateRate = Double.NaN;
  private double candidateBurst = Double.NaN;

  /**
   * Whether the key should take {@code rate} and {@code burst} now, given the pace it keeps.
   *
   * @param kept whether the key keeps an advertised pace (false: take the first one as it is)
   */
  boolean believe(double rate, double burst, boolean kept, double keptRate, double keptBurst) {
    if (!kept || (rate >= keptRate * (1 - SAME) && burst >= keptBurst * (1 - SAME))) {
      candidateRate = Double.NaN;
      return true;
    }
    boolean confirmed = same(rate, candidateRate) && same(burst, candidateBurst);
    candidateRate = confirmed ? Double.NaN : rate;
    candidateBurst = confirmed ? Double.NaN : burst;
    return confirmed;
  }

  private static boolean same(double a, double b) {
    return Math.abs(a - b) <= SAME * Math.max(Math.abs(a), Math.abs(b));
  }
}
