package dev.polite.redis;

/**
 * Where the pace an instance tells the fleet came from. The lease script ranks them by their wire
 * code ({@code src} in {@code lease.lua}): an advertised pace outranks a discovered one, and a
 * discovered one only starts the fleet's own, which the script then cuts and climbs for all.
 */
enum PaceSource {
  /** This instance knows no pace: the script keeps the fleet's as it is. */
  NONE(0),
  /**
   * Found from this instance's own refusals (AIMD): the fleet's first pace while it knows none
   * (its discoverer sent alone); after that, news only that this instance met a refusal.
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
