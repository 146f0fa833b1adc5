package dev.polite.examples.zoo;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.polite.examples.load.RunResult;
import java.util.Locale;

/**
 * One measured cell of the zoo: the run, the refusals as the server counted them, the floor and
 * the verdicts. One table row, one JSON line, one square of the report.
 *
 * <p>Usage: {@code out.println(row.tableRow());}
 *
 * @param cell what ran
 * @param run what the client saw (calls, attempts, time)
 * @param rejected rate-limit refusals: the server's own count where it keeps one, else the client's
 * @param rejectedByServer whether {@code rejected} is the server's count
 * @param floorSeconds the cell's floor (for a spent quota, its verdict's time bound)
 * @param cut whether the cell hit its time limit and its unfinished calls were cancelled
 */
record ZooRow(ZooCell cell, RunResult run, long rejected, boolean rejectedByServer, double floorSeconds,
    boolean cut) {

  /** The table header, aligned with {@link #tableRow()}. */
  public static final String HEADER = String.format(Locale.ROOT, "%-16s %-30s %4s %8s %5s %8s %5s %7s %6s  %s",
      "client", "server", "conc", "requests", "ok", "rejected", "sent", "seconds", "floor", "verdict");

  /**
   * The verdict against the zoo's targets (time within 1.3 times the floor); for a row with targets
   * of its own ({@link Targets}), those.
   */
  public Verdict verdict() {
    return judge(Verdict.SLOW_FACTOR);
  }

  /**
   * The verdict against the CI gate's targets (time within twice the floor); for a row whose floor
   * is a bound the same as {@link #verdict()}: a bound is a bound, with no slack to add.
   */
  public Verdict gateVerdict() {
    return judge(Verdict.GATE_SLOW_FACTOR);
  }

  /** Whether the floor is a time bound (a spent quota's, shown {@code <=3.0}), not a floor. */
  public boolean floorIsBound() {
    return cell.server().targets().floorIsBound();
  }

  /** The floor column: {@code 4.0}, or {@code <=3.0} for a spent quota's bound. */
  public String floorText() {
    return String.format(Locale.ROOT, floorIsBound() ? "<=%.1f" : "%.1f", floorSeconds);
  }

  private Verdict judge(double slowFactor) {
    return cell.server().targets().judge(run, rejected, floorSeconds, slowFactor);
  }

  /** The run's time over its floor, such as 1.12; infinite when the floor is zero. */
  public double timeOverFloor() {
    return floorSeconds > 0 ? run.seconds() / floorSeconds : Double.POSITIVE_INFINITY;
  }

  /** The verdict's text, with {@code (cut)} when the cell hit its time limit. */
  public String verdictText() {
    return verdict().text() + (cut ? " (cut)" : "");
  }

  /** One table row, such as {@code polite  token-bucket/ietf  16  100  100  0  100  4.5  4.0  ok}. */
  public String tableRow() {
    return String.format(Locale.ROOT, "%-16s %-30s %4d %8d %5d %8d %5d %7.1f %6s  %s%s",
        cell.client().cliName(), cell.server().name(), cell.concurrency(), run.requests(), run.succeeded(),
        rejected, run.sent(), run.seconds(), floorText(), verdictText(),
        run.dropped() > 0 ? "  (" + run.dropped() + " dropped locally)" : "");
  }

  /**
   * One JSON object: {@code client, server, concurrency, requests, succeeded, failed, rejected,
   * rejected_by (server or client), sent, retries, seconds, floor, verdict}, then {@code cut} and
   * {@code local_drops} only when they happened, and on a row with targets of its own what they
   * need ({@link Targets#addTo}): for a spent quota {@code quota} (the calls it admits),
   * {@code rejections_allowed} and {@code floor_is_bound: true} ({@code floor} is then the verdict's
   * time bound).
   */
  public ObjectNode toJsonNode(ObjectMapper mapper) {
    ObjectNode node = mapper.createObjectNode();
    node.put("client", cell.client().cliName());
    node.put("server", cell.server().name());
    node.put("concurrency", cell.concurrency());
    node.put("requests", run.requests());
    node.put("succeeded", run.succeeded());
    node.put("failed", run.failed());
    node.put("rejected", rejected);
    node.put("rejected_by", rejectedByServer ? "server" : "client");
    node.put("sent", run.sent());
    node.put("retries", run.retries());
    node.put("seconds", round3(run.seconds()));
    node.put("floor", round3(floorSeconds));
    node.put("verdict", verdict().text());
    if (cut) {
      node.put("cut", true);
    }
    if (run.dropped() > 0) {
      node.put("local_drops", run.dropped());
    }
    cell.server().targets().addTo(node, run);
    return node;
  }

  private static double round3(double value) {
    return Math.round(value * 1000) / 1000.0;
  }
}
