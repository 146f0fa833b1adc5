package dev.polite.redis;

import java.util.List;

/**
 * What one run of the lease script answered: its reply's eleven values, in the order of these
 * components ({@code lease.lua}'s header names them in the same order). With {@link LeaseRequest}
 * beside it, this is the script's whole wire protocol.
 *
 * @param granted units leased to the asker
 * @param before the fleet bucket's units before the grant; negative when already lent out
 * @param rate the fleet's pace in units per second; 0 when no instance knows one
 * @param burst the fleet bucket's capacity; 0 when no pace is known
 * @param pauseMicros how long every call must still hold back; 0 when the fleet is not paused
 * @param alive the instances that asked about the key recently, the asker included
 * @param pauseForRefusal whether the pause began with a refusal (a 429), not a spent quota
 * @param prober whether the asker is now the one instance that re-verifies the fleet's pause
 * @param probeWaitMicros how long until the asker may ask again to be it; 0 when it did not ask
 * @param discoverWaitMicros how long the asker holds its calls while another instance discovers
 *     the fleet's pace; 0 when it may send (or did not ask to)
 * @param discoveringMicros how long the asker still discovers the pace for the fleet, sending
 *     alone; 0 when it does not
 */
record LeaseAnswer(double granted, double before, double rate, double burst, long pauseMicros,
    int alive, boolean pauseForRefusal, boolean prober, long probeWaitMicros,
    long discoverWaitMicros, long discoveringMicros) {

  /** Reads the script's reply; a reply of another shape is a bug in the script, and throws. */
  static LeaseAnswer of(List<Object> reply) {
    if (reply == null || reply.size() != 11) {
      throw new IllegalStateException("polite-redis: the lease script answered " + reply);
    }
    double rate = number(reply.get(2));
    double burst = number(reply.get(3));
    boolean paced = rate > 0 && burst > 0;
    return new LeaseAnswer(number(reply.get(0)), number(reply.get(1)), paced ? rate : 0,
        paced ? burst : 0, Math.max(0, (long) number(reply.get(4))),
        (int) Math.max(1, number(reply.get(5))), number(reply.get(6)) == 1,
        number(reply.get(7)) == 1, Math.max(0, (long) number(reply.get(8))),
        Math.max(0, (long) number(reply.get(9))), Math.max(0, (long) number(reply.get(10))));
  }

  private static double number(Object value) {
    if (value instanceof Number n) {
      return n.doubleValue();
    }
    double d = Double.parseDouble(String.valueOf(value));
    if (Double.isNaN(d) || Double.isInfinite(d)) {
      throw new IllegalStateException("polite-redis: the lease script answered " + value);
    }
    return d;
  }
}
