package dev.polite.examples.zoo;

/**
 * A zoo cell's time limit: {@link #FLOORS} floors (the least time any client could take), and
 * never less than {@link #MIN_SECONDS}. Past it the cell's runner is cut: its unfinished calls
 * are cancelled and count as lost, so one stuck cell cannot stall the zoo or CI.
 */
final class Cut {
  /** A cell is cut after this many floors ... */
  static final double FLOORS = 6;
  /** ... and never before this many seconds. */
  static final double MIN_SECONDS = 20;

  private Cut() {}

  /** The time limit, in seconds, of a cell whose floor is {@code floorSeconds}. */
  static double seconds(double floorSeconds) {
    return Math.max(MIN_SECONDS, FLOORS * floorSeconds);
  }

  /** {@link #seconds} in whole milliseconds, rounded down. */
  static long millis(double floorSeconds) {
    return (long) (1000 * seconds(floorSeconds));
  }
}
