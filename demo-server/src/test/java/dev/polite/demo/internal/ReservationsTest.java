package dev.polite.demo.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * What a refund gives back, on a fake clock, in every limiter that takes refunds (memory, and a
 * synced node's view): what reservations consumed and no refund gave back, never a plain charge,
 * and never what the refill has already restored.
 */
class ReservationsTest {
  private static final long SECOND = 1_000_000_000L;
  /** 10 per 10 s, a burst of 10: a unit a second. */
  private static final Policy POLICY = new Policy(10, 10 * SECOND, 10);
  private static final List<Function<Policy, RateLimiter>> LIMITERS = List.of(TokenBucket::new, Gcra::new, LeakyMeter::new,
      policy -> {
        SyncedBucket bucket = new SyncedBucket(policy);
        return new RateLimiter() {
          @Override
          public Decision tryAcquire(long nowNanos, long cost) {
            return bucket.tryAcquire(nowNanos, cost);
          }

          @Override
          public Decision reserve(long nowNanos, long units) {
            return bucket.reserve(nowNanos, units);
          }
        };
      });

  @Test
  void aRefundGivesBackWhatWasReservedOnceAndNothingOfAPlainCharge() {
    for (Function<Policy, RateLimiter> make : LIMITERS) {
      RateLimiter limiter = make.apply(POLICY);
      String name = limiter.getClass().getSimpleName();
      long now = 100 * SECOND;
      assertThat(limiter.tryAcquire(now, -10).refunded()).as(name + ": nothing reserved").isZero();
      assertThat(limiter.tryAcquire(now, 3).remaining()).as(name).isEqualTo(7);
      assertThat(limiter.tryAcquire(now, -3).refunded()).as(name + ": a plain charge").isZero();
      assertThat(limiter.reserve(now, 4).remaining()).as(name).isEqualTo(3);
      Decision refund = limiter.tryAcquire(now, -10);
      assertThat(refund.refunded()).as(name + ": what was reserved").isEqualTo(4);
      assertThat(refund.allowed()).isTrue();
      assertThat(refund.remaining()).as(name).isEqualTo(7);
      assertThat(limiter.tryAcquire(now, -1).refunded()).as(name + ": once").isZero();
    }
  }

  @Test
  void aReservationTheRefillHasRestoredIsNoLongerOwed() {
    for (Function<Policy, RateLimiter> make : LIMITERS) {
      RateLimiter limiter = make.apply(POLICY);
      String name = limiter.getClass().getSimpleName();
      long now = 100 * SECOND;
      assertThat(limiter.reserve(now, 10).remaining()).as(name).isZero();
      now += 4 * SECOND; // four units back by time
      Decision refund = limiter.tryAcquire(now, -10);
      assertThat(refund.refunded()).as(name + ": six still missing").isEqualTo(6);
      assertThat(refund.remaining()).as(name).isEqualTo(10);

      assertThat(limiter.reserve(now, 10).allowed()).as(name).isTrue();
      now += 10 * SECOND; // the refill restored all ten
      for (int i = 0; i < 10; i++) {
        assertThat(limiter.tryAcquire(now, 1).allowed()).as(name + ": the refilled ten, spent plainly").isTrue();
      }
      assertThat(limiter.tryAcquire(now, -10).refunded())
          .as(name + ": the old reservation, paid back by the refill, cannot be cashed on top").isZero();
      assertThat(limiter.tryAcquire(now, 1).allowed()).as(name).isFalse();
    }
  }
}
