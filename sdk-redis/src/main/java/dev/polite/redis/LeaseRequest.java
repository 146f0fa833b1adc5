package dev.polite.redis;

/**
 * What one run of the lease script is told (see {@code lease.lua}): the one place the script's
 * positional arguments are spelled, in {@link #toArgs}. Its answer is {@link LeaseAnswer}.
 *
 * @param instance this instance's id
 * @param want units asked for; 0 to tell news only
 * @param back units given back (leased and not spent)
 * @param sent units of the calls this instance sent since its last request, on a lease or not
 * @param rate the pace this instance learned, units a second; -1 when none
 * @param burst that pace's burst; -1 when none
 * @param source where {@code rate} came from
 * @param heard the fleet's pace this instance last heard, when it is no advertised one of its
 *     own; -1 when none: the script starts from it if it lost the key's state (Redis restarted)
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
 * @param alone whether this instance paces alone now, on its share of the fleet's pace, unseen by
 *     the fleet's bucket (its Redis did not answer in time)
 * @param discover whether this instance, knowing no pace, has calls to send: the first to ask so
 *     discovers the fleet's pace while the others hold theirs
 * @param discoverForMicros how long that discovery lasts at most
 */
record LeaseRequest(String instance, double want, double back, double sent, double rate,
    double burst, PaceSource source, double heard, long remaining, int inFlight, long pauseMicros,
    boolean resume,
    long idleMillis, long aliveMicros, long aheadMicros, boolean refused, String channel,
    long probeEveryMicros, boolean probe, boolean alone, boolean discover,
    long discoverForMicros) {

  /**
   * The script's {@code ARGV}, in the one order it reads them: each line names the local that
   * {@code lease.lua} reads it into (LeaseScriptTest checks that the script reads each, no more).
   */
  String[] toArgs() {
    return new String[] {
      instance,                         // ARGV[1]  id
      number(want),                     // ARGV[2]  want
      number(back),                     // ARGV[3]  back
      number(rate),                     // ARGV[4]  myRate
      number(burst),                    // ARGV[5]  myBurst
      source.code(),                    // ARGV[6]  mySrc
      Long.toString(remaining),         // ARGV[7]  remaining
      Integer.toString(inFlight),       // ARGV[8]  mine
      Long.toString(pauseMicros),       // ARGV[9]  pause
      flag(resume),                     // ARGV[10] resume
      Long.toString(idleMillis),        // ARGV[11] idle
      Long.toString(aliveMicros),       // ARGV[12] aliveWindow
      Long.toString(aheadMicros),       // ARGV[13] ahead
      flag(refused),                    // ARGV[14] refused
      channel,                          // ARGV[15] channel
      Long.toString(probeEveryMicros),  // ARGV[16] probeEvery
      flag(probe),                      // ARGV[17] probe
      flag(alone),                      // ARGV[18] alone
      flag(discover),                   // ARGV[19] discover
      Long.toString(discoverForMicros), // ARGV[20] discoverFor
      number(sent),                     // ARGV[21] sent
      number(heard),                    // ARGV[22] heard
    };
  }

  /**
   * A request that asks nothing and tells nothing, on a key of its own: sent once at connect so
   * that the first decision a call waits for is not the one that loads the classes.
   */
  static LeaseRequest warmUp(String instance) {
    return new LeaseRequest(instance, 0, 0, 0, -1, -1, PaceSource.NONE, -1, -1, 0, -1, false, 1000,
        1_000_000, 0, false, "", 0, false, false, false, 0);
  }

  private static String flag(boolean value) {
    return value ? "1" : "0";
  }

  private static String number(double value) {
    return value == Math.rint(value) && Math.abs(value) < 1e15
        ? Long.toString((long) value) : Double.toString(value);
  }
}
