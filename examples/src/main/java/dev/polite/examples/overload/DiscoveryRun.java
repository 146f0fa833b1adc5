package dev.polite.examples.overload;

import dev.polite.RateController;
import dev.polite.RateLimitSignals;
import dev.polite.Sleeper;
import dev.polite.TokenBucket;
import dev.polite.internal.model.KeyModel;
import dev.polite.internal.model.Permit;
import dev.polite.okhttp.PoliteInterceptor;
import java.util.ArrayDeque;

/**
 * Rate discovery against a header-less token-bucket server, driving the sdk's own
 * {@link KeyModel}, the very code a key runs in {@code PoliteInterceptor}: its gate (slow start,
 * probing), its pauses (a bare 429 backs the key off), its pace and the rate controller under
 * test, told what the server admitted. Each millisecond the answers due are taught to the model,
 * then the client sends while the model lets it: not paused, the gate open and a token there now.
 *
 * <p>Demand arrives evenly and queues without bound (a saturating client: once paced, the backlog
 * only grows, so what is sent is the pace). A refused request is not sent again (polite's retries
 * are not modelled: a retry is paced like a first attempt, so with a saturating backlog it would
 * only replace a first attempt). Each answer arrives {@code latency} after its send.
 *
 * <p>{@link KeyModel} and {@link Permit} are public classes of the sdk's
 * {@code dev.polite.internal.model} package, which is not API: no user should call them. This
 * simulation does because the point is to drive the very model the interceptor runs rather than a
 * copy; it lives in examples, built with the sdk, so a change there breaks this build, not a user.
 */
final class DiscoveryRun extends SimulatedRun {
  private static final long MS = 1_000_000L;
  private static final RateLimitSignals REFUSED = RateLimitSignals.builder().rejection(true).build();

  DiscoveryRun(RateController.Factory controllers, double serverRate, double serverBurst,
      double demand, long latencyMs, int seconds) {
    super(seconds);
    long start = ThrottleRun.START;
    TokenBucket server = TokenBucket.full(serverRate, serverBurst, start);
    KeyModel key = new KeyModel("discovery", PoliteInterceptor.builder()
        .clock(() -> 0L, Sleeper.system()).rateController(controllers).build().config(), start);
    ArrayDeque<Object[]> onTheWire = new ArrayDeque<>(); // {answerAt, permit, accepted}
    double backlog = 0;
    for (long step = 0; step < seconds * 1000L; step++) {
      long now = start + step * MS;
      int second = (int) (step / 1000);
      backlog += demand / 1000;
      while (!onTheWire.isEmpty() && (long) onTheWire.peekFirst()[0] <= now) {
        Object[] answer = onTheWire.removeFirst();
        boolean accepted = (boolean) answer[2];
        key.onAnswer(accepted ? 200 : 429, accepted ? RateLimitSignals.none() : REFUSED,
            (Permit) answer[1], now);
      }
      while (backlog >= 1 && key.pauseLeft(now) == 0 && !key.gateClosed()) {
        KeyModel.Reservation reservation = key.reserve(1, now);
        if (reservation.waitNanos() > 0) {
          key.cancel(reservation, 1, now); // not yet: this client only sends what may go now
          break;
        }
        Permit permit = key.grant(now, reservation);
        sent[second]++;
        boolean ok = server.tryAcquire(1, now);
        if (ok) {
          accepted[second]++;
        }
        backlog -= 1;
        onTheWire.addLast(new Object[] {now + latencyMs * MS, permit, ok});
      }
    }
  }

  /**
   * Seconds until the 10 s average send rate stays within {@code tolerance} of {@code target}
   * for the rest of the run, at least the last 60 s of it; NaN if it never settles.
   */
  double settleSeconds(double target, double tolerance) {
    int settled = -1;
    for (int s = 10; s <= seconds; s++) {
      double avg = sum(sent, s - 10, s) / 10.0;
      boolean within = Math.abs(avg - target) <= tolerance * target;
      if (!within) {
        settled = -1;
      } else if (settled < 0) {
        settled = s;
      }
    }
    return settled < 0 || settled > seconds - 60 ? Double.NaN : settled;
  }
}
