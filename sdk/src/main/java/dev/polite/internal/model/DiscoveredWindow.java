package dev.polite.internal.model;

import org.jspecify.annotations.Nullable;

/**
 * A window a silent server showed by how it answered: it took a burst of N calls whole, then
 * refused, stayed shut, and reopened W after the burst began. Believed, the key sends at most N
 * calls in each W from the reopening, as soon as it has them, instead of pacing them evenly.
 *
 * <h2>Why</h2>
 * A fixed window or a sliding log of N per W admits N at each window's start and nothing more
 * until the next. An even pace can never do better than N per W either, but it spreads each
 * window's N over the whole window, so the last window's calls finish up to a window later than
 * the server would have taken them: 100 calls at 20 a second paced evenly after the first burst
 * end at 4.95 s, against 4.0 s sent in bursts, and a discovered pace sits under the limit on top.
 *
 * <h2>The evidence, and its bound</h2>
 * <ul>
 *   <li><b>A burst:</b> at least two calls admitted before the refusal, sent within a quarter of
 *       the window they are read against: calls already spread out say "a pace", not "a burst".
 *   <li><b>Shut:</b> a call sent after the first refusal came back was refused too (the key's
 *       probe): a limiter that refills as it goes (a token bucket) would have taken it. And it
 *       took nothing sent after the first refusal came back until it reopened: a limiter that lets
 *       a call through now and then while it refuses others trickles at a rate. (The calls sent
 *       before that are the burst's, admitted or not in any order: many connections reorder it.)
 *   <li><b>Reopened:</b> a call sent after the last refusal was admitted; W is from the first
 *       call of the burst to that one. The key probed late, never early, so W is at least the
 *       time a sliding log holds a call; where a round length (a second, a minute) lies between
 *       the last refused call and the reopening, W is that ({@link #measured}).
 *   <li><b>Worth it:</b> N per W is at least the even pace the key would keep, and W fits the
 *       max wait (W as {@link #measured}: a late probe must not make a window of a second look
 *       slower than the pace). A window that reopened only after a long backoff reads as a slow one: such a
 *       belief would hold the key under the pace it can keep, so it is not taken.
 * </ul>
 *
 * <h2>Why each window opens one call at a time (slow start)</h2>
 * From outside, a sliding window counter (HAProxy's sliding rate, Cloudflare's) shows the same
 * burst, shut and reopening, but it counts the last window's calls into this one's and refuses a
 * burst at a window's start; and a window aligned to the clock, which the first burst met late,
 * reopens sooner after it than its length, so a window believed too short is refused whole. Sent
 * whole, a wrong belief is refused once for each call of the burst beyond the first (the runs
 * that showed it are in examples/README.md). So until one window has been taken whole, each
 * window lets one call go, then one more per call it admits (doubling each round trip, TCP's slow
 * start; 1 + 2 + 4 + 3 is 10) up to half its count, and the rest one at a time: a wrong belief is
 * refused at its first or second call, and a right one takes a window's 20 in 14 round trips
 * (milliseconds, where an even pace takes the whole window).
 *
 * <h2>Why the count is verified one call at a time</h2>
 * A burst the server's window boundary met (a cold client's first calls spread over tens of
 * milliseconds) counts the end of one server window and the whole of the next. Believed, a burst
 * of 32 where the server takes 20 would, with the slow start, have 16 in flight with 5 left in the
 * window (1 + 2 + 4 + 8 taken): 11 refused at once. Half the count is safe ({@link
 * #safeCount}); past it each call waits for the last one's answer, so the first refusal ends the
 * window with nothing else in flight, and says its count: the window is believed at what it took.
 *
 * <p>Any other refusal of a call sent under the belief drops it for good, and the key paces
 * evenly again: a server that seemed a window and was not would show the same shape again and
 * cost a refusal each time. So a wrong belief costs one or two refusals, once; and while on trial,
 * such a refusal neither cuts the pace nor backs the key off ({@link KeyModel} says why). It never
 * sends more than N a window: a limit that rises is found only after the belief falls.
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
  /**
   * The round lengths servers count their windows in, longest first: an hour, a minute, a second,
   * a tenth of one. See {@link #measured}.
   */
  private static final long[] ROUND_NANOS = {3_600_000_000_000L, 60_000_000_000L, 1_000_000_000L, 100_000_000L};

  // The evidence since the last run of refusals.
  private int burst;
  private long burstFirstSentAt = Long.MIN_VALUE;
  private long burstLastSentAt = Long.MIN_VALUE;
  private boolean refusing;
  private long firstRefusalAt;
  private boolean shut;
  private boolean leaked;
  private long lastRefusalAt = Long.MIN_VALUE;
  /** When the latest call refused since the burst began was sent: the window is longer than that. */
  private long lastRefusedSentAt = Long.MIN_VALUE;
  private @Nullable Declined declined;

  // The belief.
  private boolean believed;
  /** A belief fell, or the server advertised its pace: no window is believed again. */
  private boolean fell;
  /** A window after the reopening's own was taken whole: windows open whole from then on. */
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
  /** The window being opened one call at a time, and how many may be in flight in it. */
  private long rampWindow;
  private int ramp;
  /** The window whose admitted calls are being counted towards confirming, and the count. */
  private long admittedWindow = -1;
  private int admittedCount;

  boolean believed() {
    return believed;
  }

  /**
   * What the last reopening that was not believed showed, for the log; null when none was
   * declined since the last asked.
   */
  @Nullable Declined takeDeclined() {
    Declined d = declined;
    declined = null;
    return d;
  }

  /** Whether a window is believed and none has yet been taken whole: it is still on trial. */
  boolean onTrial() {
    return believed && !confirmed;
  }

  /**
   * Whether a new call must wait for an answer, with {@code inFlight} calls reserved or on the
   * wire: never without a belief or once it is confirmed; while on trial, when the window being
   * opened has as many in flight as its slow start allows, or when half its count is given and a
   * call is still in flight (past half, its calls go one at a time: see {@link #safeCount}).
   */
  boolean holds(int inFlight) {
    if (!onTrial()) {
      return false;
    }
    int given = tailWindow == rampWindow ? tailCount : 0;
    return inFlight >= ramp || (given >= safeCount() && inFlight >= 1);
  }

  /**
   * The calls of a window on trial that may go before its count is verified: half the count
   * believed, rounded up. A burst's calls are sent within a quarter of a window, so a burst met
   * by the server's window boundary falls in two of its windows, never three, and counted the
   * first one's last calls too: it is at most twice the count less one, and the server takes
   * at least half of it in any window of its own. The calls past that go one at a time, each
   * after the last was admitted, so a count believed too high is refused once, and that refusal
   * says the count instead of dropping the window ({@link #onRefused}).
   */
  private int safeCount() {
    return (limit + 1) / 2;
  }

  /**
   * An admitted answer to a call sent at {@code sentAt}.
   *
   * @param evenPace the pace the key keeps without the belief, per second
   * @return whether a belief began
   */
  boolean onAdmitted(long sentAt, double evenPace, long maxWaitNanos) {
    if (fell) {
      return false;
    }
    if (believed) {
      admittedUnderBelief(sentAt);
      return false;
    }
    if (!refusing || sentAt <= firstRefusalAt) {
      // One of the burst: sent before its first refusal came back. Over many connections the
      // server meets a burst's calls in another order than they were sent, so a call sent after
      // the one it refused may still have been taken before it.
      countInBurst(sentAt);
      return false;
    }
    if (sentAt <= lastRefusalAt) {
      // Sent after the first refusal came back and taken while the server still refused others:
      // it lets some through as it refuses, a rate that trickles, not a window shut.
      leaked = true;
      return false;
    }
    long window = measured(lastRefusedSentAt == Long.MIN_VALUE ? 0 : lastRefusedSentAt - burstFirstSentAt,
        sentAt - burstFirstSentAt);
    boolean began = shut && !leaked && worthBelieving(window, evenPace, maxWaitNanos);
    if (began) {
      begin(sentAt, window);
    } else {
      declined = new Declined(sentAt - burstFirstSentAt, burst, burstLastSentAt - burstFirstSentAt,
          shut, leaked);
      forgetEvidence();
      countInBurst(sentAt); // the reopening call starts the next burst's count
    }
    return began;
  }

  /** What a reopening not believed showed; formatted only if the log asks (its toString). */
  record Declined(long reopenedAfterNanos, int burst, long burstSpanNanos, boolean shut, boolean leaked) {
    @Override
    public String toString() {
      return String.format("a reopening %.3f s after a burst of %d sent over %.3f s, %s%s",
          reopenedAfterNanos / 1e9, burst, burstSpanNanos / 1e9, shut ? "shut" : "not shown shut",
          leaked ? ", leaking" : "");
    }
  }

  /** One more admitted call before the refusal; the count saturates (a key unrefused for years). */
  private void countInBurst(long sentAt) {
    if (burst == 0) {
      burstFirstSentAt = sentAt;
    }
    if (burst < Integer.MAX_VALUE) {
      burst++;
    }
    burstLastSentAt = Math.max(burstLastSentAt, sentAt);
  }

  /** Believes {@code burst} calls per {@code window} (as {@link #measured}), from the reopening. */
  private void begin(long reopenedAt, long window) {
    believed = true;
    confirmed = false;
    limit = burst;
    width = (long) (window * SLACK);
    origin = reopenedAt;
    forgetEvidence();
    // The reopening call is the first window's first, and was admitted: the next may go with it.
    tailWindow = 0;
    tailCount = 1;
    sentWindow = 0;
    sentCount = 1;
    rampWindow = 0;
    ramp = 2;
    admittedWindow = 0;
    admittedCount = 1;
  }

  /**
   * The window's length, from what the answers showed of it: longer than {@code shutFor} (a call
   * sent that long after the burst began was refused) and at most {@code reopenedAfter} (one sent
   * that long after was admitted).
   *
   * <p>The reopening is measured late, by as long as the key's probe waited past the moment the
   * server reopened: up to its whole backoff after the refusals (half a second, then more) and a
   * round trip, which is as long as a short window itself. Servers count their windows in round
   * lengths (per second, per minute, per hour), so where one lies between the two bounds the
   * window is that round length: the longest unit first, and the longest multiple of it within
   * the bounds, so a round length is never taken below what the refusals showed. A 1 s window
   * whose probe reopened it at 1.2 s, or at 1.4 s after a slow first refusal, is believed at
   * 1 s (1.1 s with the slack), not 1.32 s or 1.54 s; one whose calls were refused up to 1.45 s
   * and admitted at 1.56 s is believed at 1.5 s. Where none lies there, the reopening is the
   * length, as measured.
   *
   * <p>The bound: a window taken shorter than the server's is refused at its first call, where
   * the belief falls for good ({@link KeyModel}): one refusal, once. A late reopening taken as
   * measured costs more: a window of 20 a second read as 20 per 1.4 s looks slower than the even
   * pace and is not believed, and the run paces evenly, a window's worth of calls behind.
   */
  static long measured(long shutFor, long reopenedAfter) {
    for (long unit : ROUND_NANOS) {
      long round = reopenedAfter / unit * unit;
      if (round > 0 && round > shutFor) {
        return round;
      }
    }
    return reopenedAfter;
  }

  private void admittedUnderBelief(long sentAt) {
    if (sentAt < origin) {
      return;
    }
    long w = windowAt(sentAt);
    if (w == rampWindow && ramp < limit) {
      ramp++;
    }
    if (w != admittedWindow) {
      admittedWindow = w;
      admittedCount = 0;
    }
    admittedCount++;
    if (w >= 1 && admittedCount >= limit) {
      confirmed = true; // a window past the reopening's, taken whole: the belief's length holds
    }
  }

  private boolean worthBelieving(long window, double evenPace, long maxWaitNanos) {
    if (burst < 2 || window <= 0 || window > maxWaitNanos) {
      return false;
    }
    boolean aBurst = burstLastSentAt - burstFirstSentAt <= BURST_SHARE * window;
    double perSecond = burst * 1e9 / window;
    return aBurst && (Double.isInfinite(evenPace) || perSecond >= evenPace);
  }

  /** What a refusal did to the belief. */
  enum Refusal {
    /** Nothing: no belief, or the call was sent before it began. */
    NOTHING,
    /** The window on trial took fewer than believed: it is believed at the count it took. */
    RECOUNTED,
    /** The belief fell, for good. */
    FELL
  }

  /**
   * A refusal of a call sent at {@code sentAt}. A window on trial that took at least its
   * {@link #safeCount} before refusing showed that it opens where believed and counts fewer: it
   * is believed at what it took, still on trial (the next window verifies that count). Any other
   * refusal of a call sent under the belief drops it.
   */
  Refusal onRefused(long sentAt, long now) {
    if (believed) {
      if (sentAt < origin) {
        return Refusal.NOTHING;
      }
      if (onTrial() && windowAt(sentAt) == admittedWindow && admittedCount >= Math.max(2, safeCount())
          && admittedCount < limit) {
        limit = admittedCount;
        return Refusal.RECOUNTED;
      }
      believed = false;
      fell = true;
      return Refusal.FELL;
    }
    if (!refusing) {
      refusing = true;
      firstRefusalAt = now;
    } else if (sentAt > firstRefusalAt) {
      shut = true; // a call sent after the first refusal came back, refused too
    }
    lastRefusalAt = Math.max(lastRefusalAt, now);
    lastRefusedSentAt = Math.max(lastRefusedSentAt, sentAt);
    return Refusal.NOTHING;
  }

  /** The server advertised its pace: that governs, and no window is believed from now on. */
  void abandon() {
    believed = false;
    fell = true;
  }

  private void forgetEvidence() {
    burst = 0;
    burstFirstSentAt = Long.MIN_VALUE;
    burstLastSentAt = Long.MIN_VALUE;
    refusing = false;
    shut = false;
    leaked = false;
    lastRefusalAt = Long.MIN_VALUE;
    lastRefusedSentAt = Long.MIN_VALUE;
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
    if (tailWindow > rampWindow) {
      rampWindow = tailWindow; // a window not yet opened: its first call goes alone
      ramp = 1;
    }
    return Math.max(0, origin + tailWindow * width - now);
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
    return believed ? limit + " per " + width / 1e9 + " s" + (confirmed ? "" : ", opening " + ramp + " at a time")
        : "no window";
  }
}
