package dev.polite.examples.overload;

import java.util.Locale;

/**
 * One scenario run with one configuration, as the {@code overload} command prints it. Fractions
 * are in [0, 1]; a measure that does not apply is {@link Double#NaN} (JSON {@code null}).
 *
 * <pre>{@code
 * System.out.println(row.toJson());
 * }</pre>
 *
 * @param scenario {@code B1.1}, {@code B1.2}, {@code B1.3}, {@code B1.3-0.5rps} or {@code discovery}
 * @param config {@code none}, {@code book} or {@code polite}; for discovery {@code none},
 *     {@code aimd} or {@code cubic}
 * @param sentRps requests that reached the server per second, over the scenario's measured interval
 * @param serverRejected the fraction of those the server refused
 * @param goodputRps requests the server accepted per second
 * @param localDrop the fraction of demand dropped on the client
 * @param recoverySeconds the scenario's recovery measure (see {@link OverloadScenarios})
 */
record ScenarioRow(String scenario, String config, double sentRps, double serverRejected,
    double goodputRps, double localDrop, double recoverySeconds) {

  /** One flat JSON object, numbers rounded to 4 decimals, NaN as null. */
  public String toJson() {
    return "{\"scenario\":\"" + scenario + "\",\"config\":\"" + config + "\",\"sent_rps\":"
        + num(sentRps) + ",\"server_rejected\":" + num(serverRejected) + ",\"goodput_rps\":"
        + num(goodputRps) + ",\"local_drop\":" + num(localDrop) + ",\"recovery_s\":"
        + num(recoverySeconds) + "}";
  }

  /** A fixed-width table line; see {@link #header()}. */
  public String toLine() {
    return String.format(Locale.ROOT, "%-12s %-7s %9.1f %9.1f%% %9.1f %9.1f%% %10s",
        scenario, config, sentRps, 100 * serverRejected, goodputRps, 100 * localDrop,
        Double.isNaN(recoverySeconds) ? "-" : String.format(Locale.ROOT, "%.1f", recoverySeconds));
  }

  /** The table's header line. */
  public static String header() {
    return String.format(Locale.ROOT, "%-12s %-7s %9s %10s %9s %10s %10s",
        "scenario", "config", "sent_rps", "rejected", "goodput", "local_drop", "recovery_s");
  }

  private static String num(double v) {
    if (Double.isNaN(v) || Double.isInfinite(v)) {
      return "null";
    }
    return String.format(Locale.ROOT, "%.4f", v).replaceAll("0+$", "").replaceAll("\\.$", "");
  }
}
