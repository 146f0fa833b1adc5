package dev.polite.internal.model;

/**
 * A key's count of its calls: those holding a reservation for their tokens, those on the wire,
 * and a ticket for each, in the order they reserved. It is what lets a key read a server's
 * remaining count against the calls the server may not have counted yet: a report is exact when
 * its call was the key's only one from reservation to answer, and otherwise the calls reserved
 * after it are the ones the server may not have seen.
 *
 * <p>Not thread-safe: part of {@link KeyModel}.
 */
final class CallLedger {
  private int onTheWire;
  private int reserved;
  private double reservedCost;
  private long tickets;

  /** Calls on the wire and calls holding a reservation. */
  int inFlight() {
    return onTheWire + reserved;
  }

  /** Calls let go and not yet answered. */
  int onTheWire() {
    return onTheWire;
  }

  /** Calls holding a reservation. */
  int reserved() {
    return reserved;
  }

  /** What the calls holding a reservation took from the bucket. */
  double reservedCost() {
    return reservedCost;
  }

  /** A call reserves {@code cost}: its ticket. */
  long reserve(double cost) {
    reserved++;
    reservedCost += cost;
    return ++tickets;
  }

  /** A reservation of {@code cost} ends without its call going. */
  void cancel(double cost) {
    reserved--;
    reservedCost -= cost;
  }

  /** A reservation of {@code cost} goes on the wire: how many others were there. */
  int send(double cost) {
    cancel(cost);
    return onTheWire++;
  }

  /** A call on the wire ended: answered, failed, or handed to another budget. */
  void ended() {
    onTheWire--;
  }

  /**
   * A call another budget let go goes on this wire, answered already: its permit, sent at
   * {@code sentAt}, with a ticket of this ledger's.
   */
  Permit adopt(long sentAt) {
    int others = onTheWire++;
    return new Permit(sentAt, ++tickets, others == 0 && reserved == 0, others);
  }

  /** Every reservation is voided: what they took, to give back. */
  double voidReservations() {
    double cost = reservedCost;
    reserved = 0;
    reservedCost = 0;
    return cost;
  }

  /** Whether {@code permit}'s call was the only one from its reservation to its answer. */
  boolean wasExclusive(Permit permit) {
    return permit.alone() && permit.ticket() == tickets;
  }

  /** The calls reserved after {@code permit}'s and still held or on the wire. */
  long after(Permit permit) {
    return Math.min(inFlight(), tickets - permit.ticket());
  }

  @Override
  public String toString() {
    return "onTheWire=" + onTheWire + " reserved=" + reserved;
  }
}
