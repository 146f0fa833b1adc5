package dev.polite.internal.model;

/**
 * A call's leave to go, as its key granted it: when, and whether it was then the key's only
 * call. Handed back with the call's answer, so the key can tell an exact report of the server's
 * remaining count from one that other calls may have overtaken.
 *
 * @param sentAt the ticker time the call was due to go: the end of its last wait, or the grant
 *     when it did not wait (a thread may resume a little after its wait ended; the schedule is
 *     what the key's bucket promises)
 * @param ticket the key's count of calls let go (or reserved) when this one was
 * @param alone whether no other call to the key was in flight or reserved at that moment
 * @param othersOnTheWire the key's other calls on the wire when it went: what a refusal of a cap
 *     on calls in flight says the cap is at most
 * @param early whether it went before the key would have let it (observation mode sends every
 *     call at once): its refusal is no news about the pace the key discovers, since an enforcing
 *     key would not have sent it then
 */
public record Permit(long sentAt, long ticket, boolean alone, int othersOnTheWire, boolean early) {
  /** A permit of a call that went when the key let it. */
  public Permit(long sentAt, long ticket, boolean alone, int othersOnTheWire) {
    this(sentAt, ticket, alone, othersOnTheWire, false);
  }

  /** This permit, for a call that went before the key would have let it. */
  Permit sentEarly() {
    return new Permit(sentAt, ticket, alone, othersOnTheWire, true);
  }
}
