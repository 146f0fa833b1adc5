package dev.polite.examples.zoo;

import dev.polite.examples.HtmlPage;
import dev.polite.examples.clients.ClientKind;
import dev.polite.examples.load.RunResult;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;

/**
 * Writes the zoo as one self-contained HTML page (inline CSS and SVG, no script, no network): one
 * grid per client, limiters down and concurrency across, every square coloured by its verdict
 * (green ok, amber only slow, orange refused too often, red lost calls) and showing the calls that
 * succeeded, the refusals, and the time against the floor as a bar with the floor and the 1.3x
 * target marked. The whole matrix reads at a glance; the numbers are in each square and in its
 * tooltip. Below the grids, each limiter's description and floor rule.
 *
 * <p>Usage: {@code ZooReport.write(Path.of("polite-zoo.html"), matrix, rows);}
 */
final class ZooReport {
  private static final String OK = "#a5d6a7";
  private static final String SLOW = "#fff0b3";
  private static final String REJECTIONS = "#ffccbc";
  private static final String LOST = "#ef9a9a";
  private static final String NOT_RUN = "#f5f5f5";
  private static final int BAR_WIDTH = 132;
  /** The bar's right end, in floors: a run at 3 floors or more fills it. */
  private static final double BAR_FLOORS = 3;

  private ZooReport() {}

  /** Writes {@link #render} to {@code path}, replacing any file there. */
  public static void write(Path path, ZooMatrix matrix, List<ZooRow> rows) throws IOException {
    Path parent = path.toAbsolutePath().getParent();
    if (parent != null) {
      Files.createDirectories(parent);
    }
    Files.writeString(path, render(matrix, rows), StandardCharsets.UTF_8);
  }

  /** The page for {@code rows}, run from {@code matrix}. */
  public static String render(ZooMatrix matrix, List<ZooRow> rows) {
    Map<ClientKind, List<ZooRow>> byClient = new LinkedHashMap<>();
    Map<String, ZooServer> servers = new LinkedHashMap<>();
    TreeSet<Integer> columns = new TreeSet<>();
    for (ZooCell cell : matrix.cells()) {
      servers.putIfAbsent(cell.server().name(), cell.server());
      columns.add(cell.concurrency());
      byClient.computeIfAbsent(cell.client(), k -> new ArrayList<>());
    }
    for (ZooRow row : rows) {
      byClient.computeIfAbsent(row.cell().client(), k -> new ArrayList<>()).add(row);
    }
    StringBuilder html = HtmlPage.begin("polite: the zoo", 1120,
        "table.grid{border-collapse:separate;border-spacing:4px}table.grid td,table.grid th{border:0}\n"
            + "table.grid th{font-weight:600;color:#424242;text-align:center}\n"
            + "table.grid td.cell{text-align:left;vertical-align:top;width:150px;border-radius:4px;"
            + "padding:5px 8px;font-size:13px;line-height:1.35}\n"
            + "table.grid td.server{font-family:ui-monospace,monospace;font-size:13px;white-space:nowrap}\n"
            + ".verdict{font-weight:600}.cell .muted{font-size:12px}\n"
            + ".legend span{margin-right:16px;white-space:nowrap}.sw{display:inline-block;width:14px;"
            + "height:14px;border-radius:3px;margin-right:5px;vertical-align:-2px}\n"
            + "svg text{font:10px system-ui,sans-serif;fill:#616161}\n"
            + "table.glance{border-collapse:separate;border-spacing:2px}table.glance td,table.glance th{border:0;"
            + "padding:0 2px}\ntable.glance td.dot{width:24px;height:20px;text-align:center;font-size:10px;"
            + "color:#424242;border-radius:3px}\ntable.glance th{font-size:12px;font-weight:600;text-align:center}\n"
            + "table.glance th.c{font-weight:400;color:#757575;font-size:11px}\n"
            + "table.glance td.gap{width:10px}\n");
    long ok = rows.stream().filter(row -> row.verdict().ok()).count();
    html.append("<h1>The zoo: ").append(byClient.size()).append(byClient.size() == 1 ? " client" : " clients")
        .append(" against ").append(servers.size()).append(servers.size() == 1 ? " limiter" : " limiters")
        .append("</h1>\n<p class=\"muted\">").append(rows.size()).append(" cells, ").append(ok).append(" ok")
        .append(matrix.quick() ? " (the quick zoo)" : "").append(". Every limiter allows ").append(ZooMatrix.LIMIT)
        .append(" requests per second")
        .append(servers.values().stream().anyMatch(ZooServer::shaped)
            ? " but the shapes of a limit, whose own limits are described at the end" : "")
        .append("; each cell sends ").append(matrix.requests())
        .append(" GETs, C at a time, through a fresh client to a fresh limiter on loopback, one cell after another. ")
        .append("The <b>floor</b> is the least time any client could take without a single rejection. A cell is ")
        .append("<b>ok</b> when every call succeeded, the server refused at most ")
        .append(Verdict.rejectionAllowance(matrix.requests())).append(" and the run took at most ")
        .append(Verdict.SLOW_FACTOR).append(" times its floor")
        .append(servers.values().stream().anyMatch(server -> server.quota().isPresent())
            ? "; a spent quota's cell when exactly the quota's calls succeeded, the server refused at most "
                + Verdict.SPENT_QUOTA_REJECTIONS + " and it ended within " + HtmlPage.number(Verdict.SPENT_QUOTA_SECONDS)
                + " s (a bound, shown in place of its floor)" : "")
        .append(". <code>paced</code> and <code>failsafe</code> are ")
        .append("told 90&nbsp;% of the documented rate and the documented burst.</p>\n");
    for (ZooServer server : servers.values()) {
      if (!(server.targets() instanceof Targets.Usual) && !(server.targets() instanceof Targets.SpentQuota)) {
        html.append("<p class=\"muted\">").append(HtmlPage.escape(server.targets().explain(server.name(),
            matrix.requests()))).append("</p>\n");
      }
    }
    for (String note : matrix.notes()) {
      html.append("<p><b>Note:</b> ").append(HtmlPage.escape(note)).append("</p>\n");
    }
    legend(html);
    glance(html, byClient, servers, columns);
    for (Map.Entry<ClientKind, List<ZooRow>> entry : byClient.entrySet()) {
      grid(html, entry.getKey(), entry.getValue(), servers, columns, matrix);
    }
    html.append("<h2>The limiters</h2>\n<table>\n<tr><th>limiter</th><th style=\"text-align:left\">what it is</th>")
        .append("<th>floor for ").append(matrix.requests()).append(" calls</th><th style=\"text-align:left\">rule</th></tr>\n");
    for (ZooServer server : servers.values()) {
      html.append("<tr><td><code>").append(HtmlPage.escape(server.name())).append("</code></td><td style=\"text-align:left\">")
          .append(HtmlPage.escape(server.description())).append("</td><td>")
          .append(String.format(Locale.ROOT, server.targets().floorIsBound() ? "&le; %.2f s (a bound)" : "%.2f s",
              server.floorSeconds(matrix.requests())))
          .append("</td><td style=\"text-align:left\" class=\"muted\">").append(HtmlPage.escape(server.floorRule()))
          .append("</td></tr>\n");
    }
    html.append("</table>\n").append(HtmlPage.END);
    return html.toString();
  }

  /**
   * The whole zoo in one table: a row per limiter, a small square per client and concurrency,
   * coloured by its verdict and marked with the targets it missed ({@code L} lost calls,
   * {@code R} rejections, {@code S} slow), so that the picture does not depend on colour alone.
   */
  private static void glance(StringBuilder html, Map<ClientKind, List<ZooRow>> byClient, Map<String, ZooServer> servers,
      TreeSet<Integer> columns) {
    Map<String, ZooRow> byPlace = new LinkedHashMap<>();
    for (List<ZooRow> rows : byClient.values()) {
      for (ZooRow row : rows) {
        byPlace.put(place(row.cell()), row);
      }
    }
    html.append("<h2>At a glance</h2>\n<p class=\"muted\">A square per cell (hover for its numbers); ")
        .append("L lost calls, Q more calls than a spent quota allows, R refused too often, S slow; ")
        .append("columns are callers at once.</p>\n")
        .append("<table class=\"glance\">\n<tr><th></th>");
    for (ClientKind client : byClient.keySet()) {
      html.append("<td class=\"gap\"></td><th colspan=\"").append(columns.size()).append("\">")
          .append(HtmlPage.escape(client.cliName())).append("</th>");
    }
    html.append("</tr>\n<tr><th></th>");
    for (int i = 0; i < byClient.size(); i++) {
      html.append("<td class=\"gap\"></td>");
      for (int c : columns) {
        html.append("<th class=\"c\">").append(c).append("</th>");
      }
    }
    html.append("</tr>\n");
    for (String name : servers.keySet()) {
      html.append("<tr><td class=\"server\" style=\"font-family:ui-monospace,monospace;font-size:12px\">")
          .append(HtmlPage.escape(name)).append("</td>");
      for (ClientKind client : byClient.keySet()) {
        html.append("<td class=\"gap\"></td>");
        for (int c : columns) {
          ZooRow row = byPlace.get(client.cliName() + "@" + name + "@" + c);
          if (row == null) {
            html.append("<td class=\"dot\" style=\"background:#fafafa\"></td>");
          } else {
            Verdict verdict = row.verdict();
            html.append("<td class=\"dot\" style=\"background:").append(colour(verdict)).append("\" title=\"")
                .append(HtmlPage.escape(title(row))).append("\">").append(marks(verdict)).append("</td>");
          }
        }
      }
      html.append("</tr>\n");
    }
    html.append("</table>\n");
  }

  private static String place(ZooCell cell) {
    return cell.client().cliName() + "@" + cell.server().name() + "@" + cell.concurrency();
  }

  private static String marks(Verdict verdict) {
    return (verdict.lost() > 0 ? "L" : "") + (verdict.overQuota() > 0 ? "Q" : "")
        + (verdict.tooManyRejections() ? "R" : "") + (verdict.slow() ? "S" : "");
  }

  private static String colour(Verdict verdict) {
    return verdict.lost() > 0 ? LOST : verdict.overQuota() > 0 || verdict.tooManyRejections() ? REJECTIONS
        : verdict.slow() ? SLOW : OK;
  }

  private static String title(ZooRow row) {
    RunResult run = row.run();
    return String.format(Locale.ROOT, "%s on %s at %d: %d/%d ok, %d failed, %d rejected (%s count), %d sent, "
            + "%.2f s against a %s of %.2f s: %s", row.cell().client().cliName(), row.cell().server().name(),
        row.cell().concurrency(), run.succeeded(), run.requests(), run.failed(), row.rejected(),
        row.rejectedByServer() ? "server's" : "client's", run.sent(), run.seconds(),
        row.floorIsBound() ? "bound" : "floor", row.floorSeconds(), row.verdictText());
  }

  private static void legend(StringBuilder html) {
    html.append("<p class=\"legend\">")
        .append(swatch(OK, "ok")).append(swatch(SLOW, "only slow (over " + Verdict.SLOW_FACTOR + "× the floor)"))
        .append(swatch(REJECTIONS, "refused too often")).append(swatch(LOST, "lost calls"))
        .append(swatch(NOT_RUN, "not run"))
        .append("<span>bar: time against the floor, <b>|</b> at the floor and at ").append(Verdict.SLOW_FACTOR)
        .append("×, full at ").append(HtmlPage.number(BAR_FLOORS)).append("×</span></p>\n");
  }

  private static String swatch(String colour, String label) {
    return "<span><i class=\"sw\" style=\"background:" + colour + "\"></i>" + HtmlPage.escape(label) + "</span>";
  }

  private static void grid(StringBuilder html, ClientKind client, List<ZooRow> rows, Map<String, ZooServer> servers,
      TreeSet<Integer> columns, ZooMatrix matrix) {
    Map<String, ZooRow> byPlace = new LinkedHashMap<>();
    for (ZooRow row : rows) {
      byPlace.put(place(row.cell()), row);
    }
    List<String> names = new ArrayList<>();
    for (ZooCell cell : matrix.cells()) {
      if (cell.client() == client && !names.contains(cell.server().name())) {
        names.add(cell.server().name());
      }
    }
    long ok = rows.stream().filter(row -> row.verdict().ok()).count();
    html.append("<h2>").append(HtmlPage.escape(client.cliName())).append(" <span class=\"muted\">")
        .append(ok).append(" of ").append(rows.size()).append(" ok</span></h2>\n<p class=\"muted\">")
        .append(HtmlPage.escape(client.story())).append("</p>\n");
    html.append("<table class=\"grid\" data-client=\"").append(client.cliName()).append("\">\n<tr><th></th>");
    for (int c : columns) {
      html.append("<th>").append(c).append(c == 1 ? " caller" : " at once").append("</th>");
    }
    html.append("</tr>\n");
    for (String name : names) {
      html.append("<tr><td class=\"server\" title=\"").append(HtmlPage.escape(servers.get(name).description()))
          .append("\">").append(HtmlPage.escape(name)).append("</td>");
      for (int c : columns) {
        ZooRow row = byPlace.get(client.cliName() + "@" + name + "@" + c);
        if (row == null) {
          html.append("<td class=\"cell\" style=\"background:").append(NOT_RUN).append("\"><span class=\"muted\">–</span></td>");
        } else {
          square(html, row);
        }
      }
      html.append("</tr>\n");
    }
    html.append("</table>\n");
  }

  private static void square(StringBuilder html, ZooRow row) {
    RunResult run = row.run();
    Verdict verdict = row.verdict();
    html.append("<td class=\"cell\" style=\"background:").append(colour(verdict)).append("\" title=\"")
        .append(HtmlPage.escape(title(row))).append("\" data-verdict=\"").append(HtmlPage.escape(verdict.text())).append("\">")
        .append("<span class=\"verdict\">").append(HtmlPage.escape(row.verdictText())).append("</span><br>")
        .append(run.succeeded()).append('/').append(run.requests()).append(" ok · ").append(row.rejected())
        .append(" rej<br>")
        .append(String.format(Locale.ROOT, "%.1f s <span class=\"muted\">/ %.1f %s</span>", run.seconds(),
            row.floorSeconds(), row.floorIsBound() ? "bound" : "floor"))
        .append("<br>");
    bar(html, row);
    html.append("</td>");
  }

  /** The run's time against its floor: filled to seconds / floor, marks at 1 and the target. */
  private static void bar(StringBuilder html, ZooRow row) {
    double floors = Math.min(BAR_FLOORS, row.timeOverFloor());
    double fill = BAR_WIDTH * floors / BAR_FLOORS;
    double atFloor = BAR_WIDTH / BAR_FLOORS;
    double atTarget = BAR_WIDTH * Verdict.SLOW_FACTOR / BAR_FLOORS;
    String shade = row.verdict().slow() ? "#8d6e63" : "#558b2f";
    html.append(String.format(Locale.ROOT,
        "<svg width=\"%d\" height=\"10\" role=\"img\" aria-label=\"%.2f times the floor\">"
            + "<rect x=\"0\" y=\"2\" width=\"%d\" height=\"6\" fill=\"#ffffff\" fill-opacity=\"0.6\"/>"
            + "<rect class=\"time\" x=\"0\" y=\"2\" width=\"%.1f\" height=\"6\" fill=\"%s\"/>"
            + "<line x1=\"%.1f\" y1=\"0\" x2=\"%.1f\" y2=\"10\" stroke=\"#212121\" stroke-width=\"1\"/>"
            + "<line x1=\"%.1f\" y1=\"0\" x2=\"%.1f\" y2=\"10\" stroke=\"#212121\" stroke-width=\"1\" stroke-dasharray=\"2 1\"/>"
            + "</svg>",
        BAR_WIDTH, row.timeOverFloor(), BAR_WIDTH, fill, shade, atFloor, atFloor, atTarget, atTarget));
  }
}
