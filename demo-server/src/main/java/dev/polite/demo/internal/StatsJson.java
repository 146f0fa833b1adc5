package dev.polite.demo.internal;

import dev.polite.demo.Budget;
import dev.polite.demo.DemoServerConfig;
import dev.polite.demo.KeyStats;
import dev.polite.demo.StatsSnapshot;
import java.time.Duration;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The {@code GET /stats} body: the configuration in force, totals, how many keys are counted, and
 * for the keys shown (the busiest, or the one asked for) the admitted and rejected counts with a
 * per-second timeline ({@code t} is seconds since counting started), busiest first; with route
 * budgets, each budget's limit, window and counts over every key ({@code budgets}).
 * Written by hand: a handful of numbers and keys does not need a JSON library on the classpath.
 */
public final class StatsJson {
  private StatsJson() {}

  /** The body for {@code stats} under {@code config}, with {@code keysHeld} keys in the limiter. */
  public static String write(TrafficStats.Top stats, DemoServerConfig config, int keysHeld) {
    StringBuilder json = new StringBuilder(256 + stats.keys().size() * 128);
    json.append("{\"algorithm\":").append(quote(config.algorithm().cliName()))
        .append(",\"limit\":").append(config.limit())
        .append(",\"windowSeconds\":").append(config.window().toNanos() / 1e9)
        .append(",\"burst\":").append(config.burst())
        .append(",\"headers\":").append(quote(config.headers().cliName()))
        .append(",\"store\":").append(quote(!config.usesRedis() ? "memory" : config.synced() && !config.syncInterval().isZero() ? "synced" : "redis"))
        .append(",\"clockSkewMillis\":").append(config.clockSkew().toMillis())
        .append(",\"rejectStatus\":").append(config.rejectStatus())
        .append(",\"wrongResetEvery\":").append(config.wrongResetEvery())
        .append(",\"dryRun\":").append(config.dryRun())
        .append(",\"keysHeld\":").append(keysHeld)
        .append(",\"startedEpochSecond\":").append(stats.startedEpochSecond())
        .append(",\"admitted\":").append(stats.admitted())
        .append(",\"rejected\":").append(stats.rejected())
        .append(",\"keysCounted\":").append(stats.keysCounted())
        .append(",\"keysShown\":").append(stats.keys().size());
    if (config.hasBudgets()) {
      budgets(json, stats, config);
    }
    json.append(",\"keys\":{");
    boolean firstKey = true;
    for (Map.Entry<String, KeyStats> entry : stats.keys().entrySet()) {
      KeyStats key = entry.getValue();
      json.append(firstKey ? "" : ",").append(quote(entry.getKey()))
          .append(":{\"admitted\":").append(key.admitted())
          .append(",\"rejected\":").append(key.rejected())
          .append(",\"timeline\":[");
      boolean firstSecond = true;
      for (KeyStats.Second second : key.timeline()) {
        json.append(firstSecond ? "" : ",")
            .append("{\"t\":").append(second.epochSecond() - stats.startedEpochSecond())
            .append(",\"epochSecond\":").append(second.epochSecond())
            .append(",\"admitted\":").append(second.admitted())
            .append(",\"rejected\":").append(second.rejected()).append('}');
        firstSecond = false;
      }
      json.append("]}");
      firstKey = false;
    }
    return json.append("}}").toString();
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
