package dev.polite.examples.zoo;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.polite.examples.HtmlPage;
import dev.polite.examples.load.RunResult;
import java.util.Locale;
import org.jspecify.annotations.Nullable;

/**
 * How a row's cells are judged: by the usual targets ({@link Verdict#judge}: every call succeeds),
 * or by a row's own, where some calls cannot or need not succeed. Each kind knows its verdict
 * (the rules themselves live in {@link Verdict}), whether the floor column is a bound rather than
 * a floor, what its JSON row adds so a reader can judge it again (as {@code ZooQuickTest} does), and
 * the line the table's intro prints of it.
 *
 * <p>Usage: {@code Verdict verdict = cell.server().targets().judge(run, rejected, floor, Verdict.SLOW_FACTOR);}
 */
sealed interface Targets {
  /** The usual targets. */
  Targets USUAL = new Usual();

  /**
   * Judges one run.
   *
   * @param run what the client saw
   * @param rejected rate-limit refusals (the server's own count where it keeps one)
   * @param floorSeconds the cell's floor (a bound, for the kinds whose floor is one)
   * @param slowFactor how many floors the run may take (a bound takes no factor)
   */
  Verdict judge(RunResult run, long rejected, double floorSeconds, double slowFactor);

  /** Whether the floor column is a time bound for the whole cell (shown {@code <=3.0}), not a floor. */
  default boolean floorIsBound() {
    return false;
  }

  /** Adds what this kind's targets need beyond the usual fields to {@code row}, a cell's JSON object. */
  default void addTo(ObjectNode row, RunResult run) {}

  /** What an {@code ok} means on {@code server}, one line for the table's intro; null for the usual. */
  default @Nullable String explain(String server, int requests) {
    return null;
  }

  /** Every call succeeds, at most the allowance refused, within the factor times the floor. */
  record Usual() implements Targets {
    @Override
    public Verdict judge(RunResult run, long rejected, double floorSeconds, double slowFactor) {
      return Verdict.judge(run.requests(), run.succeeded(), rejected, run.seconds(), floorSeconds, slowFactor);
    }
  }

  /**
   * A quota the cell spends ({@code quota/spent}): {@link Verdict#spentQuota}. Its JSON row says
   * {@code quota}, {@code rejections_allowed} and {@code floor_is_bound: true}.
   *
   * @param quota the calls it admits in all
   */
  record SpentQuota(long quota) implements Targets {
    @Override
    public Verdict judge(RunResult run, long rejected, double floorSeconds, double slowFactor) {
      return Verdict.spentQuota(run.requests(), run.succeeded(), rejected, run.seconds(), quota);
    }

    @Override
    public boolean floorIsBound() {
      return true;
    }

    @Override
    public void addTo(ObjectNode row, RunResult run) {
      row.put("quota", quota);
      row.put("rejections_allowed", Verdict.SPENT_QUOTA_REJECTIONS);
      row.put("floor_is_bound", true);
    }

    @Override
    public String explain(String server, int requests) {
      return String.format(Locale.ROOT, "%s: ok when exactly %d succeeded, at most %d rejected, "
              + "within %s s: its floor column is that bound (<=%.1f), not a floor.", server,
          Math.min(requests, quota), Verdict.SPENT_QUOTA_REJECTIONS, HtmlPage.number(Verdict.SPENT_QUOTA_SECONDS),
          Verdict.SPENT_QUOTA_SECONDS);
    }
  }

  /**
   * A limiter that refuses everything ({@code refuses/everything}): {@link Verdict#refusesEverything}.
   * Its JSON row says {@code quota: 0}, {@code rejections_allowed} and {@code floor_is_bound: true}.
   */
  record RefusesEverything() implements Targets {
    @Override
    public Verdict judge(RunResult run, long rejected, double floorSeconds, double slowFactor) {
      return Verdict.refusesEverything(run.requests(), run.succeeded(), rejected, run.seconds());
    }

    @Override
    public boolean floorIsBound() {
      return true;
    }

    @Override
    public void addTo(ObjectNode row, RunResult run) {
      row.put("quota", 0);
      row.put("rejections_allowed", Verdict.rejectionAllowance(run.requests()));
      row.put("floor_is_bound", true);
    }

    @Override
    public String explain(String server, int requests) {
      return String.format(Locale.ROOT, "%s: no call can succeed; ok when every call ended, at most %d "
              + "rejected, within %s s: its floor column is that bound (<=%.1f), not a floor.", server,
          Verdict.rejectionAllowance(requests), HtmlPage.number(Verdict.REFUSES_EVERYTHING_SECONDS),
          Verdict.REFUSES_EVERYTHING_SECONDS);
    }
  }

  /**
   * Refusals with a hint no client can use, every {@code bogusEvery}th answer of a server that
   * otherwise admits everything ({@code hints/unusable}): {@link Verdict#unusableHints}. Its JSON row
   * says {@code given_up} (the calls that ended with the server's refusal, which may fail) and
   * {@code rejections_allowed}.
   *
   * @param bogusEvery every how many answers one is such a refusal
   */
  record UnusableHints(int bogusEvery) implements Targets {
    @Override
    public Verdict judge(RunResult run, long rejected, double floorSeconds, double slowFactor) {
      return Verdict.unusableHints(run.requests(), run.succeeded(), givenUp(run), rejected, run.seconds(),
          floorSeconds, slowFactor, bogusEvery);
    }

    @Override
    public void addTo(ObjectNode row, RunResult run) {
      row.put("given_up", givenUp(run));
      row.put("rejections_allowed", Verdict.unusableHintsRejections(run.requests(), bogusEvery));
    }

    @Override
    public String explain(String server, int requests) {
      return String.format(Locale.ROOT, "%s: ok when every call succeeded or was given up with one of "
              + "the refusals, at most %d rejected (one answer in %d, and the allowance), time within %.1f x the "
              + "floor of the calls the server admits.", server, Verdict.unusableHintsRejections(requests, bogusEvery),
          bogusEvery, Verdict.SLOW_FACTOR);
    }

    /** The calls that ended with the server's refusal given back: neither a 2xx, nor an exception, nor dropped. */
    static int givenUp(RunResult run) {
      return Math.max(0, run.requests() - run.succeeded() - run.failed() - run.dropped());
    }
  }
}
