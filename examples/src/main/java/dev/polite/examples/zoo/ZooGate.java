package dev.polite.examples.zoo;

import dev.polite.examples.clients.ClientKind;
import java.util.List;

/**
 * The zoo's CI gate: every {@code polite} cell must lose no call and stay within the rejection
 * allowance, and finish within {@link Verdict#GATE_SLOW_FACTOR twice} its floor (the slack a busy
 * CI machine meets; the table still judges time at 1.3 times). The peers and polite-adaptive are
 * shown, not gated: they are the comparison.
 *
 * <p>Usage: {@code List<ZooRow> missed = ZooGate.misses(rows); if (!missed.isEmpty()) return 1;}
 */
final class ZooGate {
  /** The client the gate holds to the targets. */
  public static final ClientKind GATED = ClientKind.POLITE;

  private ZooGate() {}

  /** The gated rows that missed a target, in table order. */
  public static List<ZooRow> misses(List<ZooRow> rows) {
    return rows.stream()
        .filter(row -> row.cell().client() == GATED)
        .filter(row -> !row.gateVerdict().ok())
        .toList();
  }

  /** One line naming a missed row and what it missed, such as {@code token-bucket/none at 16: lost 14, rejections}. */
  public static String describe(ZooRow row) {
    return row.cell().server().name() + " at " + row.cell().concurrency() + ": " + row.gateVerdict().text()
        + (row.cut() ? " (cut)" : "");
  }
}
