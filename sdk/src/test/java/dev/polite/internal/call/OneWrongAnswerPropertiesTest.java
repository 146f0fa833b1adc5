package dev.polite.internal.call;

import static org.assertj.core.api.Assertions.assertThat;

import dev.polite.CallContext;
import dev.polite.HeaderLines;
import dev.polite.Polite;
import dev.polite.PoliteConfig;
import dev.polite.RateLimitHeaders;
import dev.polite.RateLimitSignals;
import dev.polite.RateLimitedException;
import dev.polite.RequestView;
import dev.polite.ResponseView;
import dev.polite.Sleeper;
import dev.polite.internal.model.Permit;
import dev.polite.internal.retry.Attempt;
import dev.polite.internal.retry.RetryRules;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.PriorityQueue;
import java.util.SplittableRandom;
import java.util.function.IntPredicate;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/**
 * One bad answer costs at most one window, never a call: virtual callers take the real
 * {@link KeyState}'s steps (as {@code PoliteCall} does, holding no thread), read answers with the
 * real header parser and retry by the real {@link RetryRules}, against a fixed window of 10 per
 * second that speaks one dialect, one of whose answers has one value mutated to something
 * plausible but wrong: a reset 200 days out, a limit of 1, a remaining of 0 on a success, a window
 * of a year; or whose every Nth answer states a reset 200 days out. Every call must succeed, and
 * the run may take at most two windows more than the same run without the mutation.
 */
class OneWrongAnswerPropertiesTest {
  private static final long SECOND = 1_000_000_000L;
  private static final long START = 1_000 * SECOND;
  private static final long EPOCH_MILLIS = 1_767_225_600_000L;
  private static final long LATENCY = 20_000_000L;
  private static final long JITTER = 30_000_000L;
  private static final int REQUESTS = 40;
  private static final long LIMIT = 10;
  private static final RequestView REQUEST = RequestView.of("GET", URI.create("http://wrong.test/api"), HeaderLines.empty());

  enum Dialect { IETF, LEGACY, GITHUB }

  enum Mutation { RESET_200_DAYS, LIMIT_OF_ONE, REMAINING_ZERO_ON_A_SUCCESS, WINDOW_OF_A_YEAR }

  @Property(tries = 300)
  void oneWrongValueCostsNoCallAndAtMostTwoWindows(@ForAll Dialect dialect, @ForAll Mutation mutation,
      @ForAll @IntRange(min = 0, max = REQUESTS - 1) int mutatedAnswer,
      @ForAll @IntRange(min = 1, max = 16) int concurrency) {
    Run clean = new Run(dialect, null, answer -> false, concurrency, 0, 0).go();
    Run wrong = new Run(dialect, mutation, answer -> answer == mutatedAnswer, concurrency, 0, 0).go();
    assertThat(clean.failed).as("the clean run").isZero();
    assertThat(wrong.failed).as("calls failed").isZero();
    assertThat(wrong.ended - START).as("time, against %s s clean", (clean.ended - START) / 1e9)
        .isLessThanOrEqualTo(clean.ended - START + 2 * SECOND);
  }

  /**
   * A server wrong on every Nth answer (the zoo's {@code fixed-window/wrong-reset} is wrong on
   * every 10th): several wrong answers a window, which may agree with each other. Latencies vary
   * by up to 30 ms, so that answers overtake each other as they do on the wire and in threads:
   * with one latency for all, they never did, and a wrong pair that came back in the wrong order
   * went untried.
   */
  @Property(tries = 1000)
  void aResetWrongOnEveryNthAnswerCostsNoCall(@ForAll Dialect dialect,
      @ForAll @IntRange(min = 2, max = 20) int every, @ForAll @IntRange(min = 0, max = 19) int phase,
      @ForAll @IntRange(min = 1, max = 64) int concurrency, @ForAll long seed) {
    Run clean = new Run(dialect, null, answer -> false, concurrency, JITTER, seed).go();
    Run wrong = new Run(dialect, Mutation.RESET_200_DAYS, answer -> (answer + phase) % every == 0,
        concurrency, JITTER, seed).go();
    assertThat(clean.failed).as("the clean run").isZero();
    assertThat(wrong.failed).as("calls failed").isZero();
    assertThat(wrong.ended - START).as("time, against %s s clean", (clean.ended - START) / 1e9)
        .isLessThanOrEqualTo(clean.ended - START + 2 * SECOND);
  }

  /** One run: the callers, the server and the event queue on virtual time. */
  private static final class Run {
    private final Dialect dialect;
    private final Mutation mutation;
    private final IntPredicate mutated;
    private final int concurrency;
    private final SplittableRandom latencies;
    private final long jitter;
    private final PriorityQueue<Event> events = new PriorityQueue<>();
    private final RateLimitHeaders parser = RateLimitHeaders.standard();
    private final PoliteConfig config;
    private final KeyState key;
    private final RetryRules rules;
    private long now = START;
    private long seq;
    private int answers;
    private long window = -1;
    private long count;
    private int started;
    int failed;
    long ended = START;

    /**
     * @param mutated which answers, counted from 0, carry the mutation
     * @param jitter each answer takes {@link #LATENCY} and up to this much more
     * @param seed the jitter's
     */
    Run(Dialect dialect, Mutation mutation, IntPredicate mutated, int concurrency, long jitter, long seed) {
      this.dialect = dialect;
      this.mutation = mutation;
      this.mutated = mutated;
      this.concurrency = concurrency;
      this.latencies = new SplittableRandom(seed);
      this.jitter = jitter;
      this.config = Polite.builder().clock(() -> now, Sleeper.system())
          .maxWait(Duration.ofSeconds(60)).random(new SplittableRandom(7)).build().config();
      this.key = new KeyState("wrong.test", config, now);
      this.rules = new RetryRules(config);
    }

    Run go() {
      for (int i = 0; i < concurrency; i++) {
        startCall();
      }
      while (!events.isEmpty()) {
        Event e = events.poll();
        now = e.at;
        e.action.run();
      }
      return this;
    }

    private void at(long time, Runnable action) {
      events.add(new Event(time, seq++, action));
    }

    private void startCall() {
      if (started++ < REQUESTS) {
        new Caller().step();
      }
    }

    private void end(boolean ok) {
      if (!ok) {
        failed++;
      }
      ended = Math.max(ended, now);
      startCall();
    }

    /** One call, stepping as PoliteCall steps: a task at the step's time, or at the key's signal. */
    private final class Caller {
      private final Patience patience = new Patience(() -> now, Sleeper.system(), () -> false, Long.MAX_VALUE,
          60 * SECOND);
      private final RetryRules.CallRetries retries = rules.forCall(key.retryBudget());
      private Acquisition attempt;
      private long waitingSince = -1;
      private int turn;

      void step() {
        if (waitingSince >= 0) {
          patience.waited(waitingSince, now);
          waitingSince = -1;
        }
        if (attempt == null) {
          attempt = new Acquisition(CallContext.of("wrong.test", REQUEST, 1), patience.waited());
        }
        int next = ++turn;
        try {
          long wait = key.step(attempt, patience, now, () -> at(now, () -> stepIn(next)));
          Permit permit = attempt.permit();
          if (permit != null) {
            attempt = null;
            send(permit);
            return;
          }
          waitingSince = now;
          if (wait != KeyState.AWAIT_SIGNAL) {
            at(now + wait, () -> stepIn(next));
          }
        } catch (RateLimitedException e) {
          end(false);
        }
      }

      private void stepIn(int ofTurn) {
        if (ofTurn == turn) {
          step();
        }
      }

      private void send(Permit permit) {
        List<String> answer = answer();
        int status = Integer.parseInt(answer.remove(0));
        at(now + LATENCY + (jitter > 0 ? latencies.nextLong(jitter) : 0), () -> {
          HeaderLines headers = HeaderLines.of(answer.toArray(new String[0]));
          RateLimitSignals signals = parser.parse(status, headers, EPOCH_MILLIS + (now - START) / 1_000_000);
          key.onAnswer(status, signals, permit, CallContext.of("wrong.test", REQUEST, 1));
          ResponseView response = ResponseView.of(status, headers);
          Attempt judged = rules.judge(REQUEST, response, signals, now);
          long at = now;
          RetryRules.Next next = retries.next(judged, () -> key.waitEstimate(1, at),
              nanos -> patience.allows(nanos, at));
          if (next.finish()) {
            end(next.gaveUp() == null && status < 400);
            return;
          }
          long delay = next.delay().toNanos();
          patience.waited(now, now + delay);
          at(now + delay, this::step);
        });
      }
    }

    /** The server: decides at {@code now}; the status first, then header name-value pairs. */
    private List<String> answer() {
      long w = Math.floorDiv(now - START + SECOND / 3, SECOND); // windows not aligned to the start
      if (w != window) {
        window = w;
        count = 0;
      }
      boolean ok = count < LIMIT;
      if (ok) {
        count++;
      }
      long remaining = LIMIT - count;
      long windowEnd = START - SECOND / 3 + (w + 1) * SECOND;
      long resetSeconds = Math.max(1, (windowEnd - now + SECOND - 1) / SECOND);
      long limit = LIMIT;
      long windowSeconds = 1;
      boolean mutate = mutated.test(answers++) && mutation != null;
      if (mutate) {
        switch (mutation) {
          case RESET_200_DAYS -> resetSeconds = 200L * 86_400;
          case LIMIT_OF_ONE -> limit = 1;
          case REMAINING_ZERO_ON_A_SUCCESS -> remaining = ok ? 0 : remaining;
          case WINDOW_OF_A_YEAR -> windowSeconds = 365L * 86_400;
        }
      }
      List<String> h = new ArrayList<>();
      h.add(ok ? "200" : "429");
      long epochSeconds = (EPOCH_MILLIS + (now - START) / 1_000_000) / 1000;
      switch (dialect) {
        case IETF -> {
          h.add("RateLimit-Policy");
          h.add("\"default\";q=" + limit + ";w=" + windowSeconds);
          h.add("RateLimit");
          h.add("\"default\";r=" + Math.min(remaining, limit) + ";t=" + resetSeconds);
        }
        case LEGACY -> counts(h, "RateLimit-", limit, remaining, resetSeconds);
        case GITHUB -> counts(h, "x-ratelimit-", limit, remaining, epochSeconds + resetSeconds);
      }
      if (!ok) {
        h.add("Retry-After");
        h.add(Long.toString(Math.max(1, (windowEnd - now + SECOND - 1) / SECOND)));
      }
      return h;
    }
  }

  /** The X-RateLimit family's three fields under {@code prefix}, remaining no more than the limit. */
  private static void counts(List<String> h, String prefix, long limit, long remaining, long reset) {
    h.addAll(List.of(prefix + "Limit", Long.toString(limit), prefix + "Remaining",
        Long.toString(Math.min(remaining, limit)), prefix + "Reset", Long.toString(reset)));
  }

  private record Event(long at, long seq, Runnable action) implements Comparable<Event> {
    @Override
    public int compareTo(Event o) {
      return at != o.at ? Long.compare(at, o.at) : Long.compare(seq, o.seq);
    }
  }
}
