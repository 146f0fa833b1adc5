package dev.polite.examples.zoo;

import dev.polite.examples.clients.ClientKind;
import java.util.List;

/**
 * The zoo's CI gate: every cell of polite's, on OkHttp ({@code polite}), on the JDK's client
 * ({@code polite-jdk}), on Spring's RestClient and WebClient and on HttpClient 5
 * ({@link ZooMatrix#QUICK_ENGINES}), must lose no call and stay within the rejection allowance, and finish
 * within {@link Verdict#GATE_SLOW_FACTOR twice} its floor (the slack a busy CI machine meets; the
 * table still judges time at 1.3 times). The peers and polite-adaptive are shown, not gated: they
 * are the comparison.
 *
 * <p>Usage: {@code List<ZooRow> missed = ZooGate.misses(rows); if (!missed.isEmpty()) return 1;}
 */
final class ZooGate {
  /** The clients the gate holds to the targets, in the order the totals name them. */
  public static final List<ClientKind> GATED = List.of(ClientKind.POLITE, ClientKind.POLITE_JDK,
      ClientKind.POLITE_SPRING, ClientKind.POLITE_WEBCLIENT, ClientKind.POLITE_HC5);

  private ZooGate() {}

  /** The gated rows that missed a target, in table order. */
  public static List<ZooRow> misses(List<ZooRow> rows) {
    return rows.stream()
        .filter(row -> GATED.contains(row.cell().client()))
        .filter(row -> !row.gateVerdict().ok())
        .toList();
  }

  /**
   * One line naming a missed row and what it missed, such as
   * {@code polite-jdk on token-bucket/none at 16: lost 14, rejections}.
   */
  public static String describe(ZooRow row) {
    return row.cell() + ": " + row.gateVerdict().text()
        + (row.cut() ? " (cut)" : "");
  }
}
