package dev.polite.demo.internal;

import dev.polite.demo.Budget;
import dev.polite.demo.DemoServerConfig;
import dev.polite.demo.KeyStats;
import dev.polite.demo.StatsSnapshot;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The {@code GET /stats} body: the configuration in force, totals, how many keys are counted, and
 * for the keys shown (the busiest, or the one asked for) the admitted and rejected counts with a
 * per-second timeline of the last minute ({@code t} is seconds since counting started), busiest
 * first; with route budgets, each budget's limit, window and counts over every key
 * ({@code budgets}). Always under {@link #MAX_BYTES}: see {@link #write}.
 * Written by hand: a handful of numbers and keys does not need a JSON library on the classpath.
 */
public final class StatsJson {
  /** The most bytes one answer may take: a poll of /stats stays one small read, whatever it asks. */
  public static final int MAX_BYTES = 65_536;

  private StatsJson() {}

  /**
   * The body for {@code stats} under {@code config}, with {@code keysHeld} keys in the limiter, in
   * under {@link #MAX_BYTES} whatever was asked (the configuration it shows aside: a server with
   * thousands of budgets shows them all). Each key shown costs a row of its counts, about 100 bytes;
   * what is left is shared among their timelines, fairly: a key whose timeline needs less than its
   * share leaves the rest to the others, and one that needs more keeps its newest seconds and
   * says how many older ones it left out ({@code timelineOmitted}). Keys are dropped, least busy
   * first, only if their rows alone would not fit.
   */
  public static String write(TrafficStats.Top stats, DemoServerConfig config, int keysHeld) {
    StringBuilder json = new StringBuilder(4_096);
    json.append("{\"algorithm\":").append(quote(config.algorithm().cliName()))
        .append(",\"limit\":").append(config.limit())
        .append(",\"windowSeconds\":").append(config.window().toNanos() / 1e9)
        .append(",\"burst\":").append(config.burst())
        .append(",\"headers\":").append(quote(config.headers().cliName()))
        .append(",\"store\":").append(quote(config.storeKind().toString()))
        .append(",\"clockSkewMillis\":").append(config.clockSkew().toMillis())
        .append(",\"rejectStatus\":").append(config.rejectStatus())
        .append(",\"wrongResetEvery\":").append(config.wrongResetEvery())
        .append(",\"dropEvery\":").append(config.dropEvery())
        .append(",\"dryRun\":").append(config.dryRun())
        .append(",\"keysHeld\":").append(keysHeld)
        .append(",\"startedEpochSecond\":").append(stats.startedEpochSecond())
        .append(",\"admitted\":").append(stats.admitted())
        .append(",\"rejected\":").append(stats.rejected())
        .append(",\"unavailable\":").append(stats.unavailable())
        .append(",\"dropped\":").append(stats.dropped())
        .append(",\"refunds\":{\"given\":").append(stats.refunds().given())
        .append(",\"clamped\":").append(stats.refunds().clamped())
        .append(",\"refused\":").append(stats.refunds().refused())
        .append(",\"units\":").append(stats.refunds().units()).append('}')
        .append(",\"keysCounted\":").append(stats.keysCounted())
        .append(",\"timelineSeconds\":").append(TrafficStats.TIMELINE_SECONDS);
    if (config.hasBudgets()) {
      budgets(json, stats, config);
    }
    // Rows and timeline entries are ASCII (keys are ip:ADDRESS or key:HEX, the rest numbers), so
    // their chars are their bytes; the part above may hold an operator's non-ASCII prefix.
    int head = json.toString().getBytes(StandardCharsets.UTF_8).length;
    List<Shown> shown = new ArrayList<>();
    int rows = 0;
    for (Map.Entry<String, KeyStats> entry : stats.keys().entrySet()) {
      Shown key = new Shown(entry.getKey(), entry.getValue(), stats.startedEpochSecond());
      if (head + rows + key.row.length() + CLOSING > MAX_BYTES) {
        break;
      }
      rows += key.row.length();
      shown.add(key);
    }
    share(shown, MAX_BYTES - head - rows - CLOSING);
    json.append(",\"keysShown\":").append(shown.size()).append(",\"keys\":{");
    for (int i = 0; i < shown.size(); i++) {
      shown.get(i).writeTo(json.append(i == 0 ? "" : ","));
    }
    return json.append("}}").toString();
  }

  /** {@code ,"keysShown":NNNNNNN,"keys":{}}}: what follows the head besides the rows. */
  private static final int CLOSING = 32;

  /**
   * Gives each key's timeline up to {@code budget} bytes in all: the keys needing least are served
   * first, each up to an equal share of what is left, so nothing is wasted on short timelines.
   */
  private static void share(List<Shown> shown, int budget) {
    List<Shown> byNeed = new ArrayList<>(shown);
    byNeed.sort(Comparator.comparingInt(Shown::need));
    int left = Math.max(0, budget);
    for (int i = 0; i < byNeed.size(); i++) {
      int granted = byNeed.get(i).fit(left / (byNeed.size() - i));
      left -= granted;
    }
  }

  /** A key being shown: its row (everything but the timeline's entries) and the entries, newest last. */
  private static final class Shown {
    /** {@code ,"timelineOmitted":NNNNNNNNN}: kept spare in every row, used when entries are left out. */
    private static final int OMITTED = 30;

    final String key;
    final String row;
    final List<String> entries = new ArrayList<>();
    int kept;

    Shown(String key, KeyStats stats, long startedEpochSecond) {
      this.key = key;
      this.row = quote(key) + ":{\"admitted\":" + stats.admitted() + ",\"rejected\":" + stats.rejected()
          + ",\"timeline\":[]}" + " ".repeat(OMITTED);
      for (KeyStats.Second second : stats.timeline()) {
        entries.add("{\"t\":" + (second.epochSecond() - startedEpochSecond)
            + ",\"epochSecond\":" + second.epochSecond()
            + ",\"admitted\":" + second.admitted()
            + ",\"rejected\":" + second.rejected() + "}");
      }
    }

    /** Bytes of every entry with its separator. */
    int need() {
      int bytes = 0;
      for (String entry : entries) {
        bytes += entry.length() + 1;
      }
      return bytes;
    }

    /** Keeps the newest entries that fit in {@code bytes}; returns the bytes they take. */
    int fit(int bytes) {
      int used = 0;
      kept = 0;
      for (int i = entries.size() - 1; i >= 0 && used + entries.get(i).length() + 1 <= bytes; i--) {
        used += entries.get(i).length() + 1;
        kept++;
      }
      return used;
    }

    void writeTo(StringBuilder json) {
      json.append(row, 0, row.length() - OMITTED - 2); // up to the timeline's "["
      for (int i = entries.size() - kept; i < entries.size(); i++) {
        json.append(i == entries.size() - kept ? "" : ",").append(entries.get(i));
      }
      json.append(']');
      if (kept < entries.size()) {
        json.append(",\"timelineOmitted\":").append(entries.size() - kept);
      }
      json.append('}');
    }
  }

  /**
   * {@code "budgets":{"core":{"limit":..,"windowSeconds":..,"admitted":..,"rejected":..},
   * "search":{"prefix":"/api/search",...}}}: each budget's own numbers and counts over every key,
   * the main one first.
   */
  private static void budgets(StringBuilder json, TrafficStats.Top stats, DemoServerConfig config) {
    json.append(",\"budgets\":{");
    StatsSnapshot.BudgetCounts none = new StatsSnapshot.BudgetCounts(0, 0);
    budget(json, Budget.MAIN, null, config.limit(), config.window(),
        stats.budgets().getOrDefault(Budget.MAIN, none));
    for (Map.Entry<String, Budget> route : config.budgets().entrySet()) {
      Budget budget = route.getValue();
      json.append(',');
      budget(json, budget.name(), route.getKey(), budget.limit(), budget.window(),
          stats.budgets().getOrDefault(budget.name(), none));
    }
    json.append('}');
  }

  private static void budget(StringBuilder json, String name, @Nullable String prefix, long limit, Duration window,
      StatsSnapshot.BudgetCounts counts) {
    json.append(quote(name)).append(":{");
    if (prefix != null) {
      json.append("\"prefix\":").append(quote(prefix)).append(',');
    }
    json.append("\"limit\":").append(limit)
        .append(",\"windowSeconds\":").append(window.toNanos() / 1e9)
        .append(",\"admitted\":").append(counts.admitted())
        .append(",\"rejected\":").append(counts.rejected()).append('}');
  }

  static String quote(String s) {
    StringBuilder out = new StringBuilder(s.length() + 2).append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '"' || c == '\\') {
        out.append('\\').append(c);
      } else if (c < 0x20) {
        out.append(String.format("\\u%04x", (int) c));
      } else {
        out.append(c);
      }
    }
    return out.append('"').toString();
  }
}
