package dev.polite.redis;

/**
 * What one run of the lease script is told (see {@code lease.lua}, whose {@code ARGV} is this
 * record's components in order): the one place the script's positional arguments are spelled.
 *
 * @param instance this instance's id
 * @param want units asked for; 0 to tell news only
 * @param back units given back (leased and not spent)
 * @param rate the pace this instance learned, units a second; -1 when none
 * @param burst that pace's burst; -1 when none
 * @param source where {@code rate} came from
 * @param remaining the server's last remaining count; -1 when none is news
 * @param inFlight this instance's calls on the wire
 * @param pauseMicros a pause this instance began or lengthened; -1 when none
 * @param resume whether a probe found the pause over
 * @param idleMillis how long the key's state lives with no request
 * @param aliveMicros how recently an instance must have asked to count as alive
 * @param aheadMicros how far past empty the fleet's bucket lends
 * @param refused whether the pause is for a refusal, not a spent quota
 * @param channel where a pause begun, lengthened or ended is published; empty for none
 * @param probeEveryMicros how long a pause stands before one call may re-verify it (the max wait)
 * @param probe whether this instance asks to send that call
 */
record LeaseRequest(String instance, double want, double back, double rate, double burst,
    PaceSource source, long remaining, int inFlight, long pauseMicros, boolean resume, long idleMillis,
    long aliveMicros, long aheadMicros, boolean refused, String channel, long probeEveryMicros,
    boolean probe) {

  /** The script's {@code ARGV}. */
  String[] toArgs() {
    return new String[] {
      instance, number(want), number(back), number(rate), number(burst), source.code(),
      Long.toString(remaining), Integer.toString(inFlight), Long.toString(pauseMicros),
      flag(resume), Long.toString(idleMillis), Long.toString(aliveMicros),
      Long.toString(aheadMicros), flag(refused), channel, Long.toString(probeEveryMicros),
      flag(probe),
    };
  }

  /** A request that asks nothing and tells nothing: loads the script and the classes. */
  static LeaseRequest warmUp(String instance) {
    return new LeaseRequest(instance, 0, 0, -1, -1, PaceSource.NONE, -1, 0, -1, false, 1000, 1_000_000, 0, false,
        "", 0, false);
  }

  private static String flag(boolean value) {
    return value ? "1" : "0";
  }

  private static String number(double value) {
    return value == Math.rint(value) && Math.abs(value) < 1e15
        ? Long.toString((long) value) : Double.toString(value);
  }
}
