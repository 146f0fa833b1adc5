package dev.polite.vendors;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The side-by-side table a scenario prints: per way of calling and concurrency, the calls that
 * returned and failed, the rejections the server sent (its own count: 429s and rate-limit 403s),
 * the requests it received, the seconds, and the floor (the least time the server's limits allow
 * for the calls). The README quotes what this printed.
 */
public final class ScenarioTable {
  /** One line: a way of calling at one concurrency. */
  public record Row(String way, int concurrency, int n, Workload.Outcome outcome, int rejections,
      int sent, double floorSeconds, String note) {}

  private final String title;
  private final List<Row> rows = new ArrayList<>();

  public ScenarioTable(String title) {
    this.title = title;
  }

  public synchronized void add(Row row) {
    rows.add(row);
  }

  public synchronized String render() {
    int wayWidth = rows.stream().mapToInt(r -> r.way().length()).max().orElse(3);
    StringBuilder s = new StringBuilder(title).append('\n');
    s.append(String.format(Locale.ROOT, "%-" + wayWidth + "s  conc     ok  failed  rejections  sent  seconds  floor%n", "way"));
    for (Row r : rows) {
      s.append(String.format(Locale.ROOT, "%-" + wayWidth + "s  %4d  %5s  %6d  %10d  %4d  %7.1f  %5.1f",
          r.way(), r.concurrency(), r.outcome().ok() + "/" + r.n(), r.outcome().failed(),
          r.rejections(), r.sent(), r.outcome().seconds(), r.floorSeconds()));
      if (!r.note().isEmpty()) {
        s.append("  ").append(r.note());
      }
      if (!r.outcome().failures().isEmpty()) {
        s.append("  ").append(r.outcome().failures());
      }
      s.append('\n');
    }
    return s.toString();
  }
}
