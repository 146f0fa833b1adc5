package dev.polite.examples.overload;

import dev.polite.Aimd;
import dev.polite.RateController;
import dev.polite.adaptive.AdaptiveThrottle;
import dev.polite.adaptive.Cubic;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.DoubleUnaryOperator;
import org.jspecify.annotations.Nullable;

/**
 * The overload scenarios of adaptive throttling (B1.1 to B1.3) and the rate-discovery run, on a
 * simulated clock, with the real {@link dev.polite.adaptive.AdaptiveThrottler} and the real rate
 * controllers against simulated servers. Deterministic (seeded) and quick: about a second.
 *
 * <pre>{@code
 * for (ScenarioRow row : OverloadScenarios.run()) System.out.println(row.toJson());
 * }</pre>
 *
 * <h2>The scenarios and what each row measures</h2>
 * Demand is Poisson; the server is a Bernoulli quota server (each request accepted with probability
 * {@code min(1, C / requests in the last second)}), answers are instant. Configs: {@code none}
 * (no throttle), {@code book} ({@link AdaptiveThrottle#bookExact()}), {@code polite}
 * ({@link AdaptiveThrottle#create()}).
 * <ul>
 *   <li>{@code B1.1} steady overload: C = 100, D = 300 for 600 s; measured over 300-600 s.
 *       {@code recovery_s} does not apply.
 *   <li>{@code B1.2} partial overload: D = 300, C = 300 except 100 during 120-420 s. Measured
 *       over the first 60 s after recovery (420-480 s); {@code recovery_s} is the seconds after
 *       420 until the local-drop fraction is below 1 % in every later second.
 *   <li>{@code B1.3} total outage: D = 100, the server refuses everything during 120-240 s and
 *       has ample capacity (1000) otherwise. Measured over the outage ({@code sent_rps} and
 *       {@code local_drop} say how much reached the dead server); {@code recovery_s} as in
 *       B1.2, from 240 s.
 *   <li>{@code B1.3-0.5rps} the same outage at D = 0.5, pooled over 50 seeds; {@code recovery_s}
 *       is the mean seconds from healing to the first accepted request.
 *   <li>{@code discovery}: a header-less token-bucket server (20/s, burst 5), demand 60/s, 20 ms
 *       answers, the client pacing as polite's KeyModel does with the controller named by the
 *       config ({@code none}: no controller); measured over 60-300 s; {@code local_drop} is 0
 *       (excess demand queues, nothing is dropped); {@code recovery_s} is the seconds until the
 *       10 s average send rate stays within 10 % of 20/s ({@code null}: never).
 * </ul>
 *
 * <p>The live variant (the same client against the demo server over the network, on the real
 * clock) is {@code LiveDiscovery}, {@code overload --live}.
 */
final class OverloadScenarios {
  private static final long SEED = 42;
  private static final int LOW_RATE_SEEDS = 50;

  private OverloadScenarios() {}

  /** Every scenario with every configuration, in table order. */
  public static List<ScenarioRow> run() {
    List<ScenarioRow> rows = new ArrayList<>();
    rows.addAll(throttleRows("none", null));
    rows.addAll(throttleRows("book", AdaptiveThrottle.bookExact()));
    rows.addAll(throttleRows("polite", AdaptiveThrottle.create()));
    rows.add(discovery("none", RateController.none()));
    rows.add(discovery("aimd", Aimd.defaults()));
    rows.add(discovery("cubic", Cubic.defaults()));
    return rows;
  }

  /** The B1.x rows for one throttle configuration (null: no throttle). */
  public static List<ScenarioRow> throttleRows(String config, @Nullable AdaptiveThrottle throttle) {
    List<ScenarioRow> rows = new ArrayList<>();
    ThrottleRun b11 = new ThrottleRun(throttle, 300, t -> 100, 600, 0, SEED);
    rows.add(row("B1.1", config, b11, 300, 600, Double.NaN));

    ThrottleRun b12 = new ThrottleRun(throttle, 300, t -> t >= 120 && t < 420 ? 100 : 300, 720, 0,
        SEED);
    rows.add(row("B1.2", config, b12, 420, 480, b12.recoverySeconds(420)));

    DoubleUnaryOperator outage = t -> t >= 120 && t < 240 ? 0 : 1000;
    ThrottleRun b13 = new ThrottleRun(throttle, 100, outage, 1500, 240, SEED);
    rows.add(row("B1.3", config, b13, 120, 240, b13.recoverySeconds(240)));

    long arrived = 0;
    long sent = 0;
    double firstAccept = 0;
    for (int i = 0; i < LOW_RATE_SEEDS; i++) {
      ThrottleRun low = new ThrottleRun(throttle, 0.5, outage, 1500, 240, SEED + i);
      for (int s = 120; s < 240; s++) {
        arrived += low.arrived[s];
        sent += low.sent[s];
      }
      firstAccept += low.firstAcceptAfter();
    }
    rows.add(new ScenarioRow("B1.3-0.5rps", config, sent / (120.0 * LOW_RATE_SEEDS), 1, 0,
        1 - sent / (double) arrived, firstAccept / LOW_RATE_SEEDS));
    return rows;
  }

  /** The discovery row for one controller. */
  public static ScenarioRow discovery(String config, RateController.Factory controllers) {
    DiscoveryRun run = new DiscoveryRun(controllers, 20, 5, 60, 20, 300);
    return new ScenarioRow("discovery", config, run.sentRps(60, 300), run.serverRejected(60, 300),
        run.goodputRps(60, 300), 0, run.settleSeconds(20, 0.10));
  }

  private static ScenarioRow row(String scenario, String config, ThrottleRun run, int from, int to,
      double recovery) {
    return new ScenarioRow(scenario, config, run.sentRps(from, to), run.serverRejected(from, to),
        run.goodputRps(from, to), run.localDrop(from, to), recovery);
  }

  /**
   * The measurements that chose the defaults: the B1.x rows for a grid of throttle settings, and
   * the discovery row for a few AIMD and CUBIC settings. Slower (a minute or so).
   */
  public static List<ScenarioRow> sweep() {
    List<ScenarioRow> rows = new ArrayList<>();
    for (boolean countDrops : new boolean[] {true, false}) {
      for (double k : new double[] {1.1, 1.2, 1.5, 2}) {
        for (int windowSeconds : new int[] {2, 5, 10, 30, 120}) {
          for (double cap : new double[] {1, 0.9, 0.8}) {
            for (int probe : new int[] {0, 1}) {
              int buckets = windowSeconds <= 10 ? 20 : windowSeconds;
              AdaptiveThrottle t = AdaptiveThrottle.builder().multiplier(k)
                  .window(Duration.ofSeconds(windowSeconds), buckets).maxProbability(cap)
                  .countLocalDrops(countDrops).probeInterval(Duration.ofSeconds(probe)).build();
              String name = String.format(Locale.ROOT, "K%s/W%d/cap%s/%s/probe%d", k,
                  windowSeconds, cap, countDrops ? "drops" : "nodrops", probe);
              rows.addAll(throttleRows(name, t));
            }
          }
        }
      }
    }
    for (double decrease : new double[] {0.5, 0.7, 0.8, 0.9}) {
      for (double increase : new double[] {0.5, 1, 2}) {
        rows.add(discovery("aimd/d" + decrease + "/i" + increase,
            Aimd.builder().decreaseFactor(decrease).increasePerSecond(increase).build()));
      }
    }
    rows.add(discovery("cubic", Cubic.defaults()));
    return rows;
  }
}
