package dev.polite.examples.zoo;

import java.time.Duration;

/**
 * The floor of a zoo cell: the least time, in seconds, that any client could take to get
 * {@code requests} calls admitted by a limiter without a single rejection, measured from the first
 * request sent to the last one admitted. It is the yardstick every row is judged against: a
 * client at 1.0 times its floor rides the limit exactly; one far above it wastes the quota.
 *
 * <p>Each rule assumes an ideal client that knows the limiter inside out, starts with it fresh
 * (a full bucket, an empty log, an empty queue) and pays no round trip. The rules differ by
 * family because the limiters differ in what they let through at once and how they refill.
 *
 * <p>Usage: {@code double floor = Floor.tokenBucket(100, 20, 20.0); // 4.0 s}
 */
final class Floor {
  private Floor() {}

  /**
   * A token bucket of {@code burst} refilling at {@code ratePerSecond}: the burst at once, then
   * one token per interval, so {@code (requests - burst) / rate}, and nothing when the burst
   * covers every request.
   */
  public static double tokenBucket(int requests, long burst, double ratePerSecond) {
    checkRequests(requests);
    return Math.max(0, requests - burst) / ratePerSecond;
  }

  /**
   * A window algorithm (fixed window, sliding log) allowing {@code limit} per {@code window}: one
   * full window's worth at once, then the rest a window later each, so the windows needed after
   * the first: {@code (ceil(requests / limit) - 1) * window}. For a sliding log this is exact (the
   * first entries leave the log one window after they were admitted). For a fixed window it is
   * the case of a client that starts as a window opens; one that starts late in a window gets its
   * second window sooner, by up to one window, which the verdict's slack mostly covers.
   */
  public static double windows(int requests, long limit, Duration window) {
    checkRequests(requests);
    long windowsNeeded = (requests + limit - 1) / limit;
    return (windowsNeeded - 1) * seconds(window);
  }

  /**
   * A queueing leaky bucket (nginx's {@code limit_req} without {@code nodelay}) draining at
   * {@code ratePerSecond}: it admits up to its queue at once but serves one request per interval,
   * holding each response until its turn, so the last of {@code requests} leaves
   * {@code (requests - 1)} intervals after the first, whatever the queue's size. A larger queue
   * only lets more wait at once (and turns fewer away); it never makes the run shorter.
   */
  public static double leakyQueue(int requests, double ratePerSecond) {
    checkRequests(requests);
    return (requests - 1) / ratePerSecond;
  }

  /**
   * HAProxy's sliding request rate, {@code http-request deny if { sc_http_req_rate(0) gt limit }}
   * over a {@code period} (worked out from its source, {@code freq_ctr.c}, and its documentation):
   * the rate it compares is this period's count, the current request included, plus the previous
   * period's count weighted by what is left of this period, rounded down; a fresh entry's first
   * period starts at its first request, and denied requests count too.
   *
   * <p>So {@code limit} pass at once, and then nothing until the period ends. At the start of the
   * next one the full previous period still weighs {@code limit}, and as that weight drains away
   * one request is let in per {@code period / limit}: the {@code r}-th request after the first
   * {@code limit} goes out at {@code period + (r - 1) * period / limit}, so the last of
   * {@code requests > limit} goes out at {@code (requests - 1) * period / limit}. The burst buys
   * nothing over an even pace at the limit.
   * No spreading over earlier periods does better, since a period that sends less weighs less in
   * the next by exactly as much.
   */
  public static double slidingRate(int requests, long limit, Duration period) {
    checkRequests(requests);
    if (requests <= limit) {
      return 0;
    }
    return (requests - 1) * seconds(period) / limit;
  }

  /**
   * A cap of {@code inFlight} calls in flight per key, each admitted call taking {@code latency}
   * (a concurrency limit, GitHub's "secondary" one, Stripe's beside its rate limiter), under a rate
   * far above what the calls need: at best {@code inFlight} run at once, wave after wave, so
   * {@code ceil(requests / inFlight)} latencies, the last wave's included. A client that sends
   * more at once is refused, not served sooner; one that sends fewer leaves a place idle.
   */
  public static double concurrency(int requests, int inFlight, Duration latency) {
    checkRequests(requests);
    if (inFlight < 1) {
      throw new IllegalArgumentException("inFlight: must be at least 1, was " + inFlight);
    }
    long waves = (requests + (long) inFlight - 1) / inFlight;
    return waves * seconds(latency);
  }

  /**
   * A token bucket of {@code burst} refilling at {@code ratePerSecond} and, beside it, a fixed window
   * of {@code limit} per {@code window} (two policies in one field: a burst and a window), for a
   * client that starts as a window opens: every call must find a token and room in its window. The
   * best a client can do is send each call as soon as both allow it (sending later never gives
   * either policy more), so this walks that schedule call by call: the burst at once, then the
   * rate, until the window is full; then nothing until the next window opens, by when the bucket
   * has refilled as far as its burst; and so on. The floor is when the last call goes out. It is
   * more than either policy's own floor wherever both bind: 100 calls against a bucket of 20 at 20
   * per second (4 s alone) and a window of 60 per 5 s (5 s alone) take 6 s, the first 60 by 2 s,
   * then 20 at once at 5 s and 20 more at the rate. A client that starts late in a window meets its
   * turn sooner, by up to one window (the fixed window's caveat, {@link #windows}); the zoo starts
   * such a cell as a window opens.
   */
  public static double bucketAndWindows(int requests, long burst, double ratePerSecond, long limit, Duration window) {
    checkRequests(requests);
    double length = seconds(window);
    double tokens = burst;
    double now = 0;
    long index = 0;
    long inWindow = 0;
    for (int sent = 0; sent < requests; sent++) {
      if (inWindow >= limit) { // the window is full: the next one, the bucket refilled meanwhile
        double opens = (index + 1) * length;
        tokens = Math.min(burst, tokens + (opens - now) * ratePerSecond);
        now = opens;
        index++;
        inWindow = 0;
      }
      if (tokens < 1 - 1e-9) { // a token's wait, perhaps into the next window
        now += (1 - tokens) / ratePerSecond;
        tokens = 1;
        long at = (long) Math.floor(now / length + 1e-9);
        if (at > index) {
          index = at;
          inWindow = 0;
        }
      }
      tokens -= 1;
      inWindow++;
    }
    return now;
  }

  /**
   * How many of {@code requests} calls sent round robin over a cycle of {@code cycle} slots (call
   * {@code i} takes slot {@code i mod cycle}) fall in the slots {@code from} (inclusive) to
   * {@code to} (exclusive): a budget's share of a cell whose calls are a fixed mix, such as 3 in 4
   * to one budget and 1 in 4 to another. Each budget's floor is then its own rule on its share,
   * and the cell's the largest of them, since every budget must let its share through.
   */
  public static int roundRobinShare(int requests, int cycle, int from, int to) {
    checkRequests(requests);
    if (cycle < 1 || from < 0 || to < from || to > cycle) {
      throw new IllegalArgumentException("slots: need 0 <= from <= to <= cycle and cycle >= 1, were "
          + from + ", " + to + ", " + cycle);
    }
    int full = requests / cycle;
    int rest = requests % cycle;
    return full * (to - from) + Math.max(0, Math.min(rest, to) - from);
  }

  private static double seconds(Duration duration) {
    return duration.toNanos() / 1e9;
  }

  private static void checkRequests(int requests) {
    if (requests < 1) {
      throw new IllegalArgumentException("requests: must be at least 1, was " + requests);
    }
  }
}
