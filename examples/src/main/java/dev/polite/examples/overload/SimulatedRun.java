package dev.polite.examples.overload;

/**
 * What one simulated run counted, second by second: calls that arrived at the client, attempts
 * it sent, and answers the server accepted; and the measures every scenario row reads from them
 * over an interval of whole seconds {@code [from, to)}.
 */
abstract class SimulatedRun {
  final int seconds;
  final long[] arrived;
  final long[] sent;
  final long[] accepted;

  SimulatedRun(int seconds) {
    this.seconds = seconds;
    this.arrived = new long[seconds];
    this.sent = new long[seconds];
    this.accepted = new long[seconds];
  }

  double sentRps(int from, int to) {
    return sum(sent, from, to) / (double) (to - from);
  }

  double goodputRps(int from, int to) {
    return sum(accepted, from, to) / (double) (to - from);
  }

  /** The fraction of what reached the server that it refused; NaN when nothing was sent. */
  double serverRejected(int from, int to) {
    long s = sum(sent, from, to);
    return s == 0 ? Double.NaN : 1 - sum(accepted, from, to) / (double) s;
  }

  /** The fraction of arrivals the client never sent; NaN when nothing arrived. */
  double localDrop(int from, int to) {
    long a = sum(arrived, from, to);
    return a == 0 ? Double.NaN : 1 - sum(sent, from, to) / (double) a;
  }

  static long sum(long[] a, int from, int to) {
    long total = 0;
    for (int i = from; i < to; i++) {
      total += a[i];
    }
    return total;
  }
}
