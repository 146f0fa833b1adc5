package dev.polite.twin;

import dev.polite.Aimd;
import dev.polite.HeaderLines;
import dev.polite.Polite;
import dev.polite.PoliteConfig;
import dev.polite.RateController;
import dev.polite.RateLimitHeaders;
import dev.polite.RateLimitSignals;
import dev.polite.RequestView;
import dev.polite.ResponseView;
import dev.polite.Sleeper;
import dev.polite.internal.retry.Attempt;
import dev.polite.internal.model.KeyModel;
import dev.polite.internal.model.Permit;
import dev.polite.internal.retry.RetryBudget;
import dev.polite.internal.retry.RetryRules;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.PriorityQueue;
import java.util.SplittableRandom;

/**
 * The server zoo's simulated twin: {@code concurrency} virtual callers make {@code requests} calls
 * through one key's real {@link KeyModel}, judged by the real {@link RetryRules} (Failsafe) and
 * retry budget and read by the real header parser, against a {@link SimulatedLimiter}, on virtual
 * time. Each caller does what {@code PoliteInterceptor} and {@code KeyState} do for a call: wait
 * out the pause, queue at the gate until an answer, reserve its tokens and wait for them,
 * re-check the pause, send; on the answer, learn, then retry (after the rules' delay, if it fits
 * the max wait) or finish. Seconds of computation for minutes of traffic, at any concurrency, and
 * the same numbers for the same seed.
 */
final class ZooTwin {
  private static final long START = 1_000_000_000_000L;
  /** {@code -Dpolite.twin.trace=true} prints each answer: when, to what, and the key after it. */
  private static final boolean TRACE = Boolean.getBoolean("polite.twin.trace");
  private static final long EPOCH_MILLIS = 1_767_225_600_000L;
  private static final RequestView REQUEST = RequestView.of("GET", URI.create("http://twin.test/api"), HeaderLines.empty());

  /** What one cell did. */
  record Result(int requests, int ok, int gaveUp, long rejected, long sent, double seconds) {}

  private final SimulatedLimiter server;
  private final int requests;
  private final int concurrency;
  private final long latency;
  private final long maxWait = Duration.ofSeconds(60).toNanos();
  private final KeyModel model;
  /** The key's retry budget, as its KeyState holds it. */
  private final RetryBudget retryBudget;
  private final RetryRules rules;
  private final RateLimitHeaders parser = RateLimitHeaders.standard();
  private final PriorityQueue<Event> events = new PriorityQueue<>();
  private final ArrayDeque<Caller> atTheGate = new ArrayDeque<>();
  private long seq;
  private int started;
  private int ok;
  private int gaveUp;
  private int finished;
  private long sent;
  private long lastEnd = START;
  private Cap cap;
  private int inService;
  private long capRefusals;

  /**
   * A cap of {@code slots} calls in flight in front of the limiter, as the demo server's
   * {@code --concurrency} with {@code --latency}: an admitted call holds its slot for
   * {@code service}, and lets it go {@code releaseLag} after its answer reached the caller (a
   * server that counts a call until its answer is written); a call over the cap is refused at
   * once with the limiter's headers (budget left) and {@code Retry-After: 1}.
   */
  record Cap(int slots, Duration service, Duration releaseLag) {}

  /** This twin with {@code cap} in front of its limiter. */
  ZooTwin capped(Cap cap) {
    this.cap = cap;
    return this;
  }

  ZooTwin(SimulatedLimiter server, int requests, int concurrency, Duration latency, long seed) {
    this(server, requests, concurrency, latency, seed, Aimd.defaults());
  }

  ZooTwin(SimulatedLimiter server, int requests, int concurrency, Duration latency, long seed,
      RateController.Factory controller) {
    this.server = server;
    this.requests = requests;
    this.concurrency = concurrency;
    this.latency = latency.toNanos();
    PoliteConfig config = Polite.builder().clock(() -> 0L, Sleeper.system())
        .rateController(controller).maxWait(Duration.ofNanos(maxWait))
        .random(new SplittableRandom(seed)).build().config();
    this.model = new KeyModel("twin", config, START);
    this.rules = new RetryRules(config);
    this.retryBudget = new RetryBudget(config.retryBudgetTokens(), config.retryBudgetRatio());
  }

  static long start() {
    return START;
  }

  Result run() {
    for (int i = 0; i < concurrency && started < requests; i++) {
      startCall(START);
    }
    while (!events.isEmpty()) {
      Event e = events.poll();
      e.action.run(e.at);
    }
    return new Result(requests, ok, gaveUp, server.rejected + capRefusals, sent, (lastEnd - START) / 1e9);
  }

  private void startCall(long now) {
    started++;
    Caller caller = new Caller(now);
    caller.acquire(now);
  }

  private void at(long time, Action action) {
    events.add(new Event(time, seq++, action));
  }

  private void wakeTheGate(long now) {
    while (!atTheGate.isEmpty()) {
      Caller c = atTheGate.poll();
      at(now, c::acquire);
    }
  }

  private void finish(long now, boolean success) {
    finished++;
    if (success) {
      ok++;
    } else {
      gaveUp++;
    }
    lastEnd = Math.max(lastEnd, now);
    if (started < requests) {
      startCall(now);
    }
  }

  /** One call's life, as the interceptor lives it. */
  private final class Caller {
    private final long began;
    private long waited;
    private long waitFrom;
    private KeyModel.Reservation reservation;
    private long due;
    private final RetryRules.CallRetries retries = rules.forCall(retryBudget);

    Caller(long began) {
      this.began = began;
    }

    private boolean fits(long nanos) {
      return nanos <= maxWait - waited;
    }

    private void sleep(long now, long nanos, Action then) {
      waited += nanos;
      at(now + nanos, then);
    }

    void acquire(long now) {
      if (waitFrom > 0) {
        waited += now - waitFrom; // time spent at the gate counts against the max wait
        waitFrom = 0;
      }
      long pause = model.pauseLeft(now);
      if (pause > 0) {
        if (!fits(pause)) {
          giveUp(now);
          return;
        }
        sleep(now, pause, this::acquire);
        return;
      }
      if (reservation != null && model.isStale(reservation)) {
        reservation = null;
      }
      if (reservation != null) {
        send(Math.min(now, due), now);
        return;
      }
      if (model.gateClosed()) {
        if (waited >= maxWait) {
          giveUp(now);
          return;
        }
        waitFrom = now;
        atTheGate.add(this);
        return;
      }
      reservation = model.reserve(1, now);
      long wait = reservation.waitNanos();
      if (wait == 0) {
        send(now, now);
        return;
      }
      if (!fits(wait)) {
        model.cancel(reservation, 1, now);
        reservation = null;
        wakeTheGate(now);
        giveUp(now);
        return;
      }
      due = now + wait;
      sleep(now, wait, this::acquire);
    }

    private void giveUp(long now) {
      finish(now, false);
    }

    /** Sends at {@code now}; {@code scheduled} is when its tokens were due, as the shell grants. */
    private void send(long scheduled, long now) {
      Permit permit = model.grant(scheduled, reservation);
      reservation = null;
      sent++;
      if (cap != null) {
        sendPastTheCap(permit, now);
        return;
      }
      SimulatedLimiter.Answer answer = server.answer(now);
      at(now + latency, t -> onAnswer(t, permit, answer));
    }

    private void sendPastTheCap(Permit permit, long now) {
      SimulatedLimiter.Answer limited = server.answer(now);
      if (inService >= cap.slots()) {
        List<String> headers = new ArrayList<>(limited.headers());
        headers.add("Retry-After");
        headers.add("1");
        capRefusals++;
        SimulatedLimiter.Answer refused = new SimulatedLimiter.Answer(429, headers);
        at(now + latency, t -> onAnswer(t, permit, refused));
        return;
      }
      inService++;
      long answered = now + cap.service().toNanos() + latency;
      at(answered, t -> onAnswer(t, permit, limited));
      at(answered + cap.releaseLag().toNanos() - 1_000, t -> inService--); // less 1 µs: a tie goes to the release
    }

    private void onAnswer(long now, Permit permit, SimulatedLimiter.Answer answer) {
      HeaderLines headers = HeaderLines.of(answer.headers().toArray(new String[0]));
      long epochMillis = EPOCH_MILLIS + (now - START) / 1_000_000;
      RateLimitSignals signals = parser.parse(answer.status(), headers, epochMillis);
      model.onAnswer(answer.status(), signals, permit, now);
      if (TRACE) {
        System.out.printf("%8.3f sent %8.3f %d pace %.2f pause %.3f%n", (now - START) / 1e9, (permit.sentAt() - START) / 1e9,
            answer.status(), model.pace(), model.pauseLeft(now) / 1e9);
      }
      wakeTheGate(now);
      ResponseView response = ResponseView.of(answer.status(), headers);
      Attempt attempt = rules.judge(REQUEST, response, signals, now);
      RetryRules.Next next = retries.next(attempt, () -> model.waitEstimate(1, now), this::fits);
      if (next.finish()) {
        finish(now, next.gaveUp() == null && answer.status() < 400);
        return;
      }
      sleep(now, next.delay().toNanos(), this::acquire);
    }
  }

  @FunctionalInterface
  private interface Action {
    void run(long now);
  }

  private record Event(long at, long seq, Action action) implements Comparable<Event> {
    @Override
    public int compareTo(Event o) {
      return at != o.at ? Long.compare(at, o.at) : Long.compare(seq, o.seq);
    }
  }
}
