package dev.polite.redis;

/**
 * Where the pace an instance tells the fleet came from. The lease script ranks them by their wire
 * code ({@code src} in {@code lease.lua}): an advertised pace outranks a discovered one, and a
 * discovered one is summed over the instances rather than taken as the fleet's.
 */
enum PaceSource {
  /** This instance knows no pace: the script keeps the fleet's as it is. */
  NONE(0),
  /** Found from this instance's own refusals (AIMD): its share, summed with the others'. */
  DISCOVERED(1),
  /** Named by the server's headers: the fleet's pace, whoever read it. */
  ADVERTISED(2);

  private final int code;

  PaceSource(int code) {
    this.code = code;
  }

  /** As the script reads it: {@code 0}, {@code 1} or {@code 2}. */
  String code() {
    return Integer.toString(code);
  }
}
