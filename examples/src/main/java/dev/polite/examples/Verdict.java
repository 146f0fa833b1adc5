package dev.polite.examples;

import java.util.ArrayList;
import java.util.List;

/**
 * How one zoo cell measured up to the targets: every call succeeded, the server refused at most
 * {@link #rejectionAllowance(int) max(3, 10 % of the calls)}, and the run took at most a factor
 * of its {@link Floor floor}. The zoo shows {@link #SLOW_FACTOR 1.3} times the floor; the CI gate
 * allows {@link #GATE_SLOW_FACTOR 2} times, which a busy shared machine still meets, and keeps
 * the other two targets as they are.
 *
 * <p>Usage: {@code Verdict v = Verdict.judge(100, 98, 4, 5.6, 4.0, Verdict.SLOW_FACTOR); v.text(); // "lost 2, slow"}
 *
 * @param lost calls that did not end in a 2xx (failed, dropped, or given up with the server's refusal)
 * @param tooManyRejections whether the server refused more than the allowance
 * @param slow whether the run took longer than the factor times the floor
 */
public record Verdict(int lost, boolean tooManyRejections, boolean slow) {
  /** The table's and the report's time target: 1.3 times the floor. */
  public static final double SLOW_FACTOR = 1.3;
  /** The CI gate's time target: twice the floor, slack enough for a busy CI machine. */
  public static final double GATE_SLOW_FACTOR = 2.0;

  /**
   * Judges one run.
   *
   * @param requests calls made
   * @param succeeded calls that ended in a 2xx
   * @param rejected rate-limit refusals (the server's own count where it keeps one)
   * @param seconds the run's wall time
   * @param floorSeconds the cell's floor
   * @param slowFactor how many floors the run may take
   */
  public static Verdict judge(int requests, int succeeded, long rejected, double seconds, double floorSeconds,
      double slowFactor) {
    return new Verdict(Math.max(0, requests - succeeded), rejected > rejectionAllowance(requests),
        seconds > slowFactor * floorSeconds);
  }

  /** The most refusals a run of {@code requests} calls may meet: {@code max(3, requests / 10)}. */
  public static long rejectionAllowance(int requests) {
    return Math.max(3, requests / 10);
  }

  /** Whether every target was met. */
  public boolean ok() {
    return lost == 0 && !tooManyRejections && !slow;
  }

  /** {@code ok}, or the targets missed in a fixed order, such as {@code lost 3, rejections, slow}. */
  public String text() {
    if (ok()) {
      return "ok";
    }
    List<String> missed = new ArrayList<>(3);
    if (lost > 0) {
      missed.add("lost " + lost);
    }
    if (tooManyRejections) {
      missed.add("rejections");
    }
    if (slow) {
      missed.add("slow");
    }
    return String.join(", ", missed);
  }

  @Override
  public String toString() {
    return text();
  }
}
