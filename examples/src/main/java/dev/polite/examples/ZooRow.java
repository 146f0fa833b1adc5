package dev.polite.examples;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
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
 * @param floorSeconds the cell's floor
 * @param cut whether the cell hit its time limit and its unfinished calls were cancelled
 */
public record ZooRow(ZooCell cell, RunResult run, long rejected, boolean rejectedByServer, double floorSeconds,
    boolean cut) {

  /** The table header, aligned with {@link #tableRow()}. */
  public static final String HEADER = String.format(Locale.ROOT, "%-16s %-30s %4s %8s %5s %8s %5s %7s %6s  %s",
      "client", "server", "conc", "requests", "ok", "rejected", "sent", "seconds", "floor", "verdict");

  /** The verdict against the zoo's targets (time within 1.3 times the floor). */
  public Verdict verdict() {
    return Verdict.judge(run.requests(), run.succeeded(), rejected, run.seconds(), floorSeconds, Verdict.SLOW_FACTOR);
  }

  /** The verdict against the CI gate's targets (time within twice the floor). */
  public Verdict gateVerdict() {
    return Verdict.judge(run.requests(), run.succeeded(), rejected, run.seconds(), floorSeconds,
        Verdict.GATE_SLOW_FACTOR);
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
    return String.format(Locale.ROOT, "%-16s %-30s %4d %8d %5d %8d %5d %7.1f %6.1f  %s%s",
        cell.client().cliName(), cell.server().name(), cell.concurrency(), run.requests(), run.succeeded(),
        rejected, run.sent(), run.seconds(), floorSeconds, verdictText(),
        run.dropped() > 0 ? "  (" + run.dropped() + " dropped locally)" : "");
  }

  /**
   * One JSON object: {@code client, server, concurrency, requests, succeeded, failed, rejected,
   * rejected_by (server or client), sent, retries, seconds, floor, verdict}, then {@code cut} and
   * {@code local_drops} only when they happened.
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
    return node;
  }

  private static double round3(double value) {
    return Math.round(value * 1000) / 1000.0;
  }
}
