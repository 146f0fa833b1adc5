package dev.polite.adaptive.scenarios;

import dev.polite.RateController;
import dev.polite.TokenBucket;
import dev.polite.internal.SendRateMeter;
import java.util.ArrayDeque;

/**
 * Rate discovery against a header-less token-bucket server, with a simulated client that does
 * what the sdk's {@code KeyState} does for a key whose server advertises nothing:
 * <ul>
 *   <li>it paces with a {@link TokenBucket}, unlimited until the controller gives a finite rate,
 *       then at that rate with a burst of 1;
 *   <li>until the first answer (cautious start), and while probing after a rejection, at most one
 *       call is in flight;
 *   <li>a rejection of a call sent after the last cut calls {@code onRejection(now, measured)},
 *       cuts, starts probing and empties the bucket; a rejection of a call already on the wire
 *       at the cut is ignored; any other answer calls {@code onSuccess(now, measured)};
 *   <li>{@code measured} is the sdk's own send-rate meter ({@link SendRateMeter}).
 * </ul>
 * Demand arrives evenly and queues without bound (a saturating client: once paced, the backlog
 * only grows, so what is sent is the pace). A refused request is not sent again (polite's retries
 * are not modelled: a retry is paced like a first attempt, so with a saturating backlog it would
 * only replace a first attempt). Each answer arrives {@code latency} after its send. Time moves
 * in 1 ms steps.
 */
final class DiscoveryRun extends SimulatedRun {
  private static final long MS = 1_000_000L;

  DiscoveryRun(RateController.Factory controllers, double serverRate, double serverBurst,
      double demand, long latencyMs, int seconds) {
    super(seconds);
    long start = ThrottleRun.START;
    TokenBucket server = TokenBucket.full(serverRate, serverBurst, start);
    TokenBucket pace = TokenBucket.full(Double.POSITIVE_INFINITY, 1, start);
    RateController controller = controllers.create();
    SendRateMeter meter = new SendRateMeter();
    ArrayDeque<long[]> onTheWire = new ArrayDeque<>(); // {sentAt, answerAt, accepted 0/1}
    double backlog = 0;
    int inFlight = 0;
    boolean heard = false;
    boolean probing = false;
    long lastCutAt = Long.MIN_VALUE;
    for (long step = 0; step < seconds * 1000L; step++) {
      long now = start + step * MS;
      int second = (int) (step / 1000);
      backlog += demand / 1000;
      while (!onTheWire.isEmpty() && onTheWire.peekFirst()[1] <= now) {
        long[] answer = onTheWire.removeFirst();
        inFlight--;
        heard = true;
        if (answer[2] == 0) {
          if (answer[0] < lastCutAt) {
            continue;
          }
          controller.onRejection(now, meter.rate(now));
          lastCutAt = now;
          probing = true;
          apply(controller, pace, now);
          pace.setTokens(0, now);
        } else {
          probing = false;
          controller.onSuccess(now, meter.rate(now));
          apply(controller, pace, now);
        }
      }
      while (backlog >= 1 && !(inFlight > 0 && (probing || !heard)) && pace.tryAcquire(1, now)) {
        meter.recordSend(now);
        sent[second]++;
        boolean ok = server.tryAcquire(1, now);
        if (ok) {
          accepted[second]++;
        }
        backlog -= 1;
        inFlight++;
        onTheWire.addLast(new long[] {now, now + latencyMs * MS, ok ? 1 : 0});
      }
    }
  }

  private static void apply(RateController controller, TokenBucket pace, long now) {
    double rate = controller.rate();
    if (Double.isInfinite(rate) || rate == pace.rate()) {
      return;
    }
    pace.setRate(rate, now);
    pace.setCapacity(1, now);
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
