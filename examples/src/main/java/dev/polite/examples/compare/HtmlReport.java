package dev.polite.examples.compare;

import dev.polite.examples.HtmlPage;
import dev.polite.examples.clients.ClientKind;
import dev.polite.examples.clients.SentAttempt;
import dev.polite.examples.load.RunResult;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * Writes the comparison as one self-contained HTML page: a summary table and one timeline chart
 * per client, inline SVG and CSS only, so it opens from a file with no network.
 *
 * <p>Each chart plots every attempt at its send time (x, seconds since the client's first call)
 * against how many attempts had been sent by then (y), green when admitted and red when
 * refused. Over it run the server's limit, the dashed line {@code burst + rate·t} (the most a
 * token bucket that starts full can admit by t), and the client's cumulative admitted count. A
 * client that hammers shows a red wall at t = 0; one that waits shows red dots above the line
 * and flat stretches; a paced one a green staircase under the line; one that rides the limit a
 * green staircase on it. Every chart shares the time axis, so lengths compare at a glance.
 *
 * <p>Usage: {@code HtmlReport.write(Path.of("polite-report.html"), runs, 5.0, 5);}
 */
final class HtmlReport {
  private static final int WIDTH = 880;
  private static final int HEIGHT = 280;
  private static final int LEFT = 56;
  private static final int RIGHT = 24;
  private static final int TOP = 16;
  private static final int BOTTOM = 40;
  private static final String ADMITTED = "#2e7d32";
  private static final String REJECTED = "#d32f2f";
  private static final String OTHER = "#9e9e9e";
  private static final String LIMIT = "#1565c0";
  private static final String[] COUNT_WORDS = {"No", "One", "Two", "Three", "Four", "Five", "Six", "Seven"};

  private HtmlReport() {}

  /** Writes {@link #render} to {@code path}, replacing any file there. */
  public static void write(Path path, List<ComparedRun> runs, double serverRate, long serverBurst)
      throws IOException {
    Path parent = path.toAbsolutePath().getParent();
    if (parent != null) {
      Files.createDirectories(parent);
    }
    Files.writeString(path, render(runs, serverRate, serverBurst), StandardCharsets.UTF_8);
  }

  /**
   * The page for {@code runs} against a server admitting {@code serverBurst} at once and
   * {@code serverRate} per second after.
   */
  public static String render(List<ComparedRun> runs, double serverRate, long serverBurst) {
    double span = 1;
    for (ComparedRun run : runs) {
      span = Math.max(span, run.result().seconds());
    }
    span = Math.ceil(span);
    boolean anyDropped = runs.stream().anyMatch(run -> run.result().dropped() > 0);
    String count = COUNT_WORDS.length > runs.size() ? COUNT_WORDS[runs.size()] : Integer.toString(runs.size());
    String clients = runs.size() == 1 ? "client" : "clients";
    StringBuilder html = HtmlPage.begin("polite: " + count.toLowerCase(Locale.ROOT) + " " + clients
        + " against one rate limit", 940,
        "tr.headline td{font-weight:600}\n"
            + ".legend span{margin-right:18px;white-space:nowrap}.sw{display:inline-block;width:11px;"
            + "height:11px;border-radius:50%;margin-right:5px;vertical-align:-1px}\n"
            + "svg.chart{display:block;background:#fafafa;border:1px solid #e0e0e0}\n"
            + "svg text{font:11px system-ui,sans-serif;fill:#616161}\n");
    html.append("<h1>").append(count).append(' ').append(clients).append(", one rate limit</h1>\n")
        .append("<p class=\"muted\">Each client sent ").append(runs.isEmpty() ? 0 : runs.get(0).result().requests())
        .append(" GET requests, one at a time, to its own fresh demo server: a token bucket of burst ")
        .append(serverBurst).append(" refilling at ").append(HtmlPage.number(serverRate))
        .append(" per second, answering 429 with Retry-After and IETF RateLimit headers.</p>\n");
    html.append("<table>\n<tr><th>client</th><th>ok</th><th>rejected</th><th>requests sent</th>")
        .append("<th>seconds</th>").append(anyDropped ? "<th>dropped locally</th>" : "").append("</tr>\n");
    for (ComparedRun run : runs) {
      RunResult r = run.result();
      html.append("<tr").append(run.kind() == ClientKind.POLITE ? " class=\"headline\"" : "").append("><td>")
          .append(HtmlPage.escape(run.label())).append("</td><td>").append(r.succeeded()).append('/').append(r.requests())
          .append("</td><td>").append(r.rejected()).append("</td><td>").append(r.sent())
          .append("</td><td>").append(String.format(Locale.ROOT, "%.1f", r.seconds()))
          .append(anyDropped ? "</td><td>" + r.dropped() : "").append("</td></tr>\n");
    }
    html.append("</table>\n");
    html.append("<p class=\"legend\"><span><i class=\"sw\" style=\"background:").append(ADMITTED)
        .append("\"></i>attempt admitted (200)</span><span><i class=\"sw\" style=\"background:").append(REJECTED)
        .append("\"></i>attempt refused (429)</span><span><svg width=\"28\" height=\"10\"><line x1=\"0\" y1=\"5\" ")
        .append("x2=\"28\" y2=\"5\" stroke=\"").append(LIMIT).append("\" stroke-width=\"2\" stroke-dasharray=\"6 4\"/>")
        .append("</svg> most the server can admit by t: ").append(serverBurst).append(" + ")
        .append(HtmlPage.number(serverRate)).append("·t</span><span><svg width=\"28\" height=\"10\"><line x1=\"0\" y1=\"5\" ")
        .append("x2=\"28\" y2=\"5\" stroke=\"").append(ADMITTED).append("\" stroke-width=\"2\"/></svg> admitted so far</span></p>\n")
        .append("<p class=\"muted\">y: attempts sent so far (every dot is one request on the wire, retries included); ")
        .append("x: seconds since the client's first request, the same scale for every chart.</p>\n");
    for (ComparedRun run : runs) {
      chart(html, run, span, serverRate, serverBurst);
    }
    html.append(HtmlPage.END);
    return html.toString();
  }

  private static void chart(StringBuilder html, ComparedRun run, double span, double rate, long burst) {
    RunResult r = run.result();
    List<SentAttempt> attempts = r.attempts();
    double yMax = niceCeiling(Math.max(r.sent(), r.requests()) * 1.05);
    double plotW = WIDTH - LEFT - RIGHT;
    double plotH = HEIGHT - TOP - BOTTOM;
    html.append("<h2>").append(HtmlPage.escape(run.label())).append("</h2>\n<p>")
        .append(r.succeeded()).append('/').append(r.requests()).append(" ok · ")
        .append(r.rejected()).append(" rejected · ").append(r.sent()).append(" requests sent · ")
        .append(String.format(Locale.ROOT, "%.1f s", r.seconds()))
        .append(r.dropped() > 0 ? " · " + r.dropped() + " dropped locally (never sent, no dot)" : "")
        .append(". <span class=\"muted\">")
        .append(HtmlPage.escape(run.kind().story())).append("</span></p>\n");
    html.append("<svg class=\"chart\" data-client=\"").append(run.kind().cliName())
        .append("\" width=\"").append(WIDTH).append("\" height=\"")
        .append(HEIGHT).append("\" viewBox=\"0 0 ").append(WIDTH).append(' ').append(HEIGHT)
        .append("\" role=\"img\" aria-label=\"").append(HtmlPage.escape(run.label())).append(" timeline\">\n");
    // grid and axes
    int xStep = span <= 12 ? 1 : span <= 30 ? 2 : 5;
    for (int s = 0; s <= span; s += xStep) {
      double x = LEFT + s / span * plotW;
      html.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#e0e0e0\"/>"
          + "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%d s</text>\n",
          x, TOP, x, TOP + plotH, x, TOP + plotH + 16, s));
    }
    double yStep = niceCeiling(yMax / 5);
    for (double v = 0; v <= yMax + 1e-9; v += yStep) {
      double y = TOP + plotH - v / yMax * plotH;
      html.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#e0e0e0\"/>"
          + "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%d</text>\n",
          LEFT, y, LEFT + plotW, y, LEFT - 6, y + 4, (long) v));
    }
    html.append(String.format(Locale.ROOT,
        "<text x=\"%d\" y=\"%.1f\" transform=\"rotate(-90 %d %.1f)\" text-anchor=\"middle\">attempts sent</text>\n",
        14, TOP + plotH / 2, 14, TOP + plotH / 2));
    html.append(String.format(Locale.ROOT,
        "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">seconds since the first request</text>\n",
        LEFT + plotW / 2, HEIGHT - 4));
    // the server's allowance: burst + rate * t, clipped to the plot
    double tTop = Math.min(span, (yMax - burst) / rate);
    html.append(String.format(Locale.ROOT,
        "<line class=\"limit\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" stroke-width=\"2\" "
            + "stroke-dasharray=\"6 4\"><title>server allows at most %d + %s·t</title></line>\n",
        LEFT + 0.0, yOf(burst, yMax, plotH), LEFT + tTop / span * plotW, yOf(burst + rate * tTop, yMax, plotH),
        LIMIT, burst, HtmlPage.number(rate)));
    // admitted so far: a step line
    StringBuilder path = new StringBuilder();
    path.append(String.format(Locale.ROOT, "M%.1f %.1f", (double) LEFT, yOf(0, yMax, plotH)));
    int admitted = 0;
    for (SentAttempt a : attempts) {
      if (a.admitted()) {
        double x = LEFT + Math.min(1, a.sentSeconds() / span) * plotW;
        path.append(String.format(Locale.ROOT, " H%.1f V%.1f", x, yOf(++admitted, yMax, plotH)));
      }
    }
    path.append(String.format(Locale.ROOT, " H%.1f", LEFT + Math.min(1, r.seconds() / span) * plotW));
    html.append("<path class=\"admitted\" d=\"").append(path).append("\" fill=\"none\" stroke=\"")
        .append(ADMITTED).append("\" stroke-width=\"1.5\" stroke-opacity=\"0.7\"/>\n");
    // one dot per attempt
    int n = 0;
    for (SentAttempt a : attempts) {
      n++;
      String colour = a.admitted() ? ADMITTED : a.rejected() ? REJECTED : OTHER;
      double x = LEFT + Math.min(1, a.sentSeconds() / span) * plotW;
      html.append(String.format(Locale.ROOT,
          "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3.2\" fill=\"%s\" fill-opacity=\"0.85\"><title>#%d at %.3f s: %s</title></circle>\n",
          x, yOf(n, yMax, plotH), colour, n, a.sentSeconds(), a.status() == 0 ? "I/O error" : Integer.toString(a.status())));
    }
    html.append("</svg>\n");
  }

  private static double yOf(double value, double yMax, double plotH) {
    return TOP + plotH - value / yMax * plotH;
  }

  /** The next of 1, 2, 2.5, 5 times a power of ten at or above {@code value}. */
  static double niceCeiling(double value) {
    if (value <= 1) {
      return 1;
    }
    double power = Math.pow(10, Math.floor(Math.log10(value)));
    for (double step : new double[] {1, 2, 2.5, 5, 10}) {
      if (step * power >= value - 1e-9) {
        return Math.max(1, Math.ceil(step * power));
      }
    }
    return 10 * power;
  }
}
