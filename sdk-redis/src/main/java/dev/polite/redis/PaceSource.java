package dev.polite.redis;

/**
 * Where the pace an instance tells the fleet came from. The lease script ranks them by their wire
 * code ({@code src} in {@code lease.lua}): an advertised pace outranks a discovered one, and a
 * discovered one is averaged over the instances that found one rather than taken as it is.
 */
enum PaceSource {
  /** This instance knows no pace: the script keeps the fleet's as it is. */
  NONE(0),
  /**
   * Found from the refusals this instance met or heard of and what it was admitted (AIMD): its
   * estimate of the fleet's pace, averaged with the others'.
   */
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
