package dev.polite.internal;

/**
 * A window a silent server showed by how it answered: it took a burst of N calls whole, then
 * refused, stayed shut, and reopened W after the burst began. Believed, the key sends at most N
 * calls in each W from the reopening, all at once if it has them, instead of pacing them evenly.
 *
 * <h2>Why</h2>
 * A fixed window or a sliding log of N per W admits N at each window's start and nothing more
 * until the next. An even pace can never do better than N per W either, but it spreads each
 * window's N over the whole window, so the last window's calls finish up to a window later than
 * the server would have taken them: 100 calls at 20 a second paced evenly after the first burst
 * end at 4.95 s, against 4.0 s sent in bursts, and a discovered pace sits under the limit on top.
 * A token bucket whose burst is N and which refills N within W takes the same bursts, so the
 * belief is safe there too.
 *
 * <h2>The evidence, and its bound</h2>
 * <ul>
 *   <li><b>A burst:</b> at least two calls admitted before the refusal, sent within a quarter of
 *       the window they are read against: calls already spread out say "a pace", not "a burst".
 *   <li><b>Shut:</b> the server said to wait (a delay on the refusal), or refused a call sent after
 *       the first refusal came back: a limiter that refills at once would have taken it. And it
 *       took nothing sent after the first refusal until it reopened: a limiter that lets a call
 *       through now and then while it refuses others trickles at a rate (HAProxy's sliding rate
 *       does), and a burst at each window's start is what it refuses.
 *   <li><b>Reopened:</b> a call sent after the last refusal was admitted; W is from the first
 *       call of the burst to that one. It is an upper bound of the server's window (the key
 *       probed late, never early), so each believed window begins at or after the server's own.
 *   <li><b>Worth it:</b> N per W is at least the even pace the key would keep, and W fits the
 *       max wait. A window that reopened only after a long backoff reads as a slow one, and a
 *       server that refuses on a sliding rate (HAProxy counts refusals too) reopens late: such a
 *       belief would hold the key under the pace it can keep, so it is not taken.
 * </ul>
 * One reopening cannot bound the server's window from above: a window aligned to the clock,
 * which the burst met late, reopens sooner after the burst than its length, and bursts a window
 * too short apart would be refused whole. So the first window after the reopening's own opens
 * with one call, alone, and the others wait at the gate for its answer: a window believed too
 * short is refused at that call, and a right one takes the rest a trip later. Every window the key fills without a
 * refusal confirms the belief; the first refusal of a call sent under it drops it at once, and
 * the key paces evenly again from the refusal's cut, for good. So a wrong belief costs one
 * refusal, or rarely one window's. It never probes above N: a limit that rises is found only
 * after the belief falls.
 *
 * <p>Not thread-safe: part of {@link KeyModel}. Times are ticker nanoseconds.
 */
final class DiscoveredWindow {
  /** The calls of a burst are sent within this share of the window they are read against. */
  static final double BURST_SHARE = 0.25;
  /**
   * The window believed is this much longer than the one measured. A sliding log lets a call in
   * a window after the matching call of the window before left it, and what the reopening
   * measured is the first call's departure, a burst's span late at most: the calls of the next
   * bursts arrive with the network's and the server's own jitter, and a tenth of the window
   * keeps them behind the ones they replace. It costs a tenth of the rate, where an even pace
   * loses up to a whole window's worth of the last window's calls.
   */
  static final double SLACK = 1.1;

  // The evidence since the last belief or run of refusals.
  private int burst;
  private long burstFirstSentAt = Long.MIN_VALUE;
  private long burstLastSentAt;
  private boolean refusing;
  private long refusedSentAt;
  private long firstRefusalAt;
  private boolean shut;
  private boolean leaked;
  private long lastRefusalAt;

  // The belief.
  private boolean believed;
  /**
   * A belief fell: the server is not the window it seemed (a sliding rate that counts refusals
   * takes one window's burst and not the next). Its refusals would show another burst and
   * reopening, and believing again would cost a refusal and a backoff each time, so the key
   * paces evenly from then on.
   */
  private boolean fell;
  /** A call sent in a window after the reopening's own was admitted. */
  private boolean confirmed;
  private int limit;
  private long width;
  private long origin;
  /** The last window a reservation was given, and how many it has. */
  private long tailWindow;
  private int tailCount;
  /** The window the last call went in, and how many went in it. */
  private long sentWindow = -1;
  private int sentCount;

  boolean believed() {
    return believed;
  }

  /**
   * An admitted answer to a call sent at {@code sentAt}.
   *
   * @param evenPace the pace the key keeps without the belief, per second
   * @return whether a belief began
   */
  boolean onAdmitted(long sentAt, double evenPace, long maxWaitNanos, long now) {
    if (fell) {
      return false;
    }
    if (believed) {
      if (!confirmed && windowAt(sentAt) >= 1) {
        confirmed = true;
      }
      return false;
    }
    if (!refusing) {
      if (burst == 0) {
        burstFirstSentAt = sentAt;
      }
      burst++;
      burstLastSentAt = Math.max(burstLastSentAt, sentAt);
      return false;
    }
    if (sentAt < refusedSentAt) {
      burst++; // part of the burst, answered after the refusal
      burstLastSentAt = Math.max(burstLastSentAt, sentAt);
      return false;
    }
    if (sentAt <= lastRefusalAt) {
      // Sent after the first refusal and taken while the server still refused others: it lets
      // some through as it refuses, a rate that trickles (a sliding rate), not a window shut.
      leaked = true;
      return false;
    }
    boolean began = shut && !leaked && worthBelieving(sentAt - burstFirstSentAt, evenPace, maxWaitNanos);
    if (began) {
      believed = true;
      confirmed = false;
      limit = burst;
      width = (long) ((sentAt - burstFirstSentAt) * SLACK);
      origin = sentAt;
      // The reopening call is the first window's first.
      tailWindow = 0;
      tailCount = 1;
      sentWindow = 0;
      sentCount = 1;
    }
    forgetEvidence();
    if (!began) {
      // The reopening call starts the next burst's count.
      burst = 1;
      burstFirstSentAt = sentAt;
      burstLastSentAt = sentAt;
    }
    return began;
  }

  private boolean worthBelieving(long window, double evenPace, long maxWaitNanos) {
    if (burst < 2 || window <= 0 || window > maxWaitNanos) {
      return false;
    }
    boolean aBurst = burstLastSentAt - burstFirstSentAt <= BURST_SHARE * window;
    double perSecond = burst * 1e9 / window;
    return aBurst && (Double.isInfinite(evenPace) || perSecond >= evenPace);
  }

  /**
   * A refusal of a call sent at {@code sentAt}.
   *
   * @param namedADelay whether the server said how long to wait
   * @return whether a belief fell
   */
  boolean onRefused(long sentAt, boolean namedADelay, long now) {
    if (believed) {
      if (sentAt >= origin) {
        believed = false;
        fell = true;
        forgetEvidence();
        return true;
      }
      return false;
    }
    if (!refusing) {
      refusing = true;
      refusedSentAt = sentAt;
      firstRefusalAt = now;
    } else if (sentAt > firstRefusalAt) {
      shut = true; // a call sent after the first refusal came back, refused too
    }
    shut |= namedADelay;
    lastRefusalAt = Math.max(lastRefusalAt, now);
    return false;
  }

  private void forgetEvidence() {
    burst = 0;
    burstFirstSentAt = Long.MIN_VALUE;
    burstLastSentAt = Long.MIN_VALUE;
    refusing = false;
    shut = false;
    leaked = false;
    lastRefusalAt = Long.MIN_VALUE;
  }

  /** The believed window a call may go in: the wait until it starts, 0 when it has room now. */
  long reserve(long now) {
    long current = windowAt(now);
    if (tailWindow < current) {
      tailWindow = current;
      tailCount = 0;
    }
    if (tailCount >= limit) {
      tailWindow++;
      tailCount = 0;
    }
    tailCount++;
    return Math.max(0, origin + tailWindow * width - now);
  }

  /**
   * Whether new calls must wait for an answer before they reserve: the belief is not yet
   * confirmed, and the call that will confirm it holds the first place of the window after the
   * reopening's.
   */
  boolean holdsTheGate() {
    return believed && !confirmed && tailWindow >= 1;
  }

  /** The wait a call would face now, without taking its place. */
  long waitFor(long now) {
    long current = windowAt(now);
    long window = tailWindow < current ? current : tailCount < limit ? tailWindow : tailWindow + 1;
    return Math.max(0, origin + window * width - now);
  }

  /** A reservation given back: its place in the last window taken is free again. */
  void cancel() {
    if (tailCount > 0) {
      tailCount--;
    }
  }

  /** A call went at {@code at}, in the window it was given or a later one. */
  void sent(long at) {
    long w = windowAt(at);
    if (w != sentWindow) {
      sentWindow = w;
      sentCount = 0;
    }
    sentCount++;
  }

  /**
   * Every reservation held was voided: the windows ahead are free again, but the calls already
   * sent in the current one stay counted.
   */
  void voided(long now) {
    long current = windowAt(now);
    tailWindow = current;
    tailCount = sentWindow == current ? sentCount : 0;
  }

  private long windowAt(long at) {
    return Math.max(0, Math.floorDiv(at - origin, width));
  }

  @Override
  public String toString() {
    return believed ? limit + " per " + width / 1e9 + " s from " + origin : "no window";
  }
}
