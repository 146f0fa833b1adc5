package dev.polite.twin;

import dev.polite.TokenBucket;
import java.util.ArrayList;
import java.util.List;

/**
 * A server-side limiter on virtual time, for the zoo's twin: it decides each request at the
 * instant it arrives and answers the way the demo server (or HAProxy) does, in one header style.
 * The limiters are the textbook ones the real zoo runs: a token bucket, a fixed window, a sliding
 * log, and HAProxy's sliding request rate (which counts refused requests too).
 */
abstract class SimulatedLimiter {
  private static final long SECOND = 1_000_000_000L;

  /** How a limiter speaks. */
  enum Style {
    /** A bare 429: no header at all (HAProxy, the demo server's {@code none}). */
    NONE,
    /** A 429 with Retry-After in whole seconds, rounded up. */
    RETRY_AFTER,
    /** IETF draft-11 RateLimit and RateLimit-Policy on every answer, and Retry-After. */
    IETF,
    /** RateLimit-Limit, -Remaining, -Reset (delta seconds) without a policy, and Retry-After. */
    LEGACY
  }

  /** One answer: its status and headers as name, value pairs. */
  record Answer(int status, List<String> headers) {}

  final Style style;
  long admitted;
  long rejected;

  SimulatedLimiter(Style style) {
    this.style = style;
  }

  /** Decides a request arriving at {@code now} and answers it. */
  final Answer answer(long now) {
    boolean ok = admit(now);
    if (ok) {
      admitted++;
    } else {
      rejected++;
    }
    List<String> h = new ArrayList<>();
    long remaining = remaining(now);
    long reset = Math.max(remaining == 0 ? 1 : 0, ceilSeconds(nextUnitNanos(now)));
    switch (style) {
      case IETF:
        h.add("RateLimit-Policy");
        h.add("\"default\";q=" + limit() + ";w=" + windowSeconds());
        h.add("RateLimit");
        h.add("\"default\";r=" + remaining + ";t=" + reset);
        break;
      case LEGACY:
        h.add("RateLimit-Limit");
        h.add(Long.toString(limit()));
        h.add("RateLimit-Remaining");
        h.add(Long.toString(remaining));
        h.add("RateLimit-Reset");
        h.add(Long.toString(reset));
        break;
      default:
        break;
    }
    if (!ok && style != Style.NONE) {
      h.add("Retry-After");
      h.add(Long.toString(Math.max(1, ceilSeconds(nextUnitNanos(now)))));
    }
    return new Answer(ok ? 200 : 429, h);
  }

  abstract boolean admit(long now);

  abstract long remaining(long now);

  /** Nanoseconds until one more request would be admitted. */
  abstract long nextUnitNanos(long now);

  abstract long limit();

  abstract long windowSeconds();

  /** The least time any client could take for {@code n} requests without a refusal. */
  abstract double floorSeconds(int n);

  static long ceilSeconds(long nanos) {
    return nanos <= 0 ? 0 : (nanos - 1) / SECOND + 1;
  }

  /** A token bucket of {@code rate} per second holding {@code burst}. */
  static SimulatedLimiter tokenBucket(double rate, double burst, Style style, long start) {
    return new SimulatedLimiter(style) {
      final TokenBucket bucket = TokenBucket.full(rate, burst, start);

      @Override boolean admit(long now) {
        return bucket.tryAcquire(1, now);
      }

      @Override long remaining(long now) {
        return Math.max(0, (long) Math.floor(bucket.tokens(now) + 1e-9));
      }

      @Override long nextUnitNanos(long now) {
        return bucket.waitFor(1, now);
      }

      @Override long limit() {
        return (long) burst;
      }

      @Override long windowSeconds() {
        return Math.max(1, Math.round(burst / rate));
      }

      @Override double floorSeconds(int n) {
        return Math.max(0, (n - burst) / rate);
      }

      @Override public String toString() {
        return "token-bucket " + rate + "/s burst " + burst + " " + style;
      }
    };
  }

  /** A fixed window of {@code limit} per {@code windowSeconds}, windows aligned to {@code start}. */
  static SimulatedLimiter fixedWindow(long limit, long windowSeconds, Style style, long start) {
    return new SimulatedLimiter(style) {
      final long window = windowSeconds * SECOND;
      long current = Long.MIN_VALUE;
      long count;

      private void roll(long now) {
        long w = Math.floorDiv(now - start, window);
        if (w != current) {
          current = w;
          count = 0;
        }
      }

      @Override boolean admit(long now) {
        roll(now);
        if (count < limit) {
          count++;
          return true;
        }
        return false;
      }

      @Override long remaining(long now) {
        roll(now);
        return limit - count;
      }

      @Override long nextUnitNanos(long now) {
        roll(now);
        return count < limit ? 0 : start + (current + 1) * window - now;
      }

      @Override long limit() {
        return limit;
      }

      @Override long windowSeconds() {
        return windowSeconds;
      }

      @Override double floorSeconds(int n) {
        return (Math.ceil((double) n / limit) - 1) * windowSeconds;
      }

      @Override public String toString() {
        return "fixed-window " + limit + "/" + windowSeconds + "s " + style;
      }
    };
  }

  /**
   * A sliding log of {@code limit} per {@code windowSeconds}, as the demo server's: a request is
   * admitted while fewer than {@code limit} admitted ones are in the last window; refused ones
   * are not logged.
   */
  static SimulatedLimiter slidingLog(int limit, long windowSeconds, Style style) {
    return new SimulatedLimiter(style) {
      final long window = windowSeconds * SECOND;
      final java.util.ArrayDeque<Long> log = new java.util.ArrayDeque<>();

      private void expire(long now) {
        while (!log.isEmpty() && log.peekFirst() <= now - window) {
          log.pollFirst();
        }
      }

      @Override boolean admit(long now) {
        expire(now);
        if (log.size() < limit) {
          log.addLast(now);
          return true;
        }
        return false;
      }

      @Override long remaining(long now) {
        expire(now);
        return limit - log.size();
      }

      @Override long nextUnitNanos(long now) {
        expire(now);
        return log.size() < limit ? 0 : Math.max(1, log.peekFirst() + window - now);
      }

      @Override long limit() {
        return limit;
      }

      @Override long windowSeconds() {
        return windowSeconds;
      }

      @Override double floorSeconds(int n) {
        return (Math.ceil((double) n / limit) - 1) * windowSeconds;
      }

      @Override public String toString() {
        return "sliding-log " + limit + "/" + windowSeconds + "s " + style;
      }
    };
  }

  /**
   * HAProxy's {@code sc_http_req_rate(1s) gt limit}, as its {@code freq_ctr.c} computes it: this
   * period's count, the current request included, plus the previous period's weighted by what is
   * left of this one, rounded down; periods start at the key's first request, and refused
   * requests count too.
   */
  static SimulatedLimiter slidingRate(long limit, long start) {
    return new SimulatedLimiter(Style.NONE) {
      long origin = Long.MIN_VALUE;
      long period;
      long current;
      long previous;

      private void roll(long now) {
        if (origin == Long.MIN_VALUE) {
          origin = now;
        }
        long p = Math.floorDiv(now - origin, SECOND);
        if (p != period) {
          previous = p == period + 1 ? current : 0;
          current = 0;
          period = p;
        }
      }

      @Override boolean admit(long now) {
        roll(now);
        current++;
        double left = 1 - (double) Math.floorMod(now - origin, SECOND) / SECOND;
        return (long) Math.floor(current + previous * left) <= limit;
      }

      @Override long remaining(long now) {
        return 0;
      }

      @Override long nextUnitNanos(long now) {
        return SECOND;
      }

      @Override long limit() {
        return limit;
      }

      @Override long windowSeconds() {
        return 1;
      }

      @Override double floorSeconds(int n) {
        return n <= limit ? 0 : (n - 1) / (double) limit; // see the zoo's Floor.slidingRate
      }

      @Override public String toString() {
        return "haproxy-like sliding rate " + limit + "/s";
      }
    };
  }
}
