package dev.polite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class TokenBucketTest {
  private static final long SECOND = 1_000_000_000L;

  @Test
  void aFullBucketLetsItsBurstGoThenPacesAtItsRate() {
    // A textbook table: capacity 10, 1 per second.
    TokenBucket b = TokenBucket.full(1, 10, 0);
    for (int i = 0; i < 10; i++) {
      assertThat(b.tryAcquire(1, 0)).isTrue();
    }
    assertThat(b.tryAcquire(1, 0)).as("11th at 0 s").isFalse();
    assertThat(b.tryAcquire(3, 3 * SECOND)).as("3 at 3 s").isTrue();
    assertThat(b.tryAcquire(1, 3 * SECOND + SECOND / 2)).as("1 at 3.5 s").isFalse();
    assertThat(b.tokens(3 * SECOND + SECOND / 2)).isCloseTo(0.5, org.assertj.core.data.Offset.offset(1e-9));
    assertThat(b.tokens(60 * SECOND)).as("capped at capacity").isEqualTo(10);
  }

  @Test
  void reserveMakesTheCallerThatPaysWaitForItsOwnDebt() {
    TokenBucket b = TokenBucket.full(5, 5, 0);
    for (int i = 0; i < 5; i++) {
      assertThat(b.reserve(1, 0)).isZero();
    }
    assertThat(b.reserve(1, 0)).isEqualTo(SECOND / 5);
    assertThat(b.reserve(1, 0)).isEqualTo(2 * SECOND / 5);
    assertThat(b.reserve(3, 0)).isEqualTo(SECOND);
  }

  @Test
  void tenRefillsOfATenthMakeAWholeToken() {
    TokenBucket b = TokenBucket.empty(1, 1, 0);
    long t = 0;
    for (int i = 0; i < 10; i++) {
      t += SECOND / 10;
      b.tokens(t);
    }
    assertThat(b.tryAcquire(1, t)).isTrue();
  }

  @Test
  void refundGivesBackUpToTheCapacity() {
    TokenBucket b = TokenBucket.full(1, 2, 0);
    b.reserve(2, 0);
    b.reserve(1, 0);
    assertThat(b.tokens(0)).isEqualTo(-1);
    b.refund(1, 0);
    b.refund(10, 0);
    assertThat(b.tokens(0)).isEqualTo(2);
  }

  @Test
  void anInfiniteRateNeverWaitsAndCarriesNoDebtIntoAFiniteRate() {
    TokenBucket b = TokenBucket.full(Double.POSITIVE_INFINITY, 1, 0);
    for (int i = 0; i < 100; i++) {
      assertThat(b.reserve(1, 0)).isZero();
    }
    b.setRate(2, 0);
    assertThat(b.reserve(1, 0)).isZero();
    assertThat(b.reserve(1, 0)).isEqualTo(SECOND / 2);
  }

  @Test
  void rateChangesApplyFromNowOn() {
    TokenBucket b = TokenBucket.empty(1, 100, 0);
    b.setRate(10, 2 * SECOND); // 2 tokens accrued at the old rate
    assertThat(b.tokens(3 * SECOND)).isCloseTo(12, org.assertj.core.data.Offset.offset(1e-9));
    b.setCapacity(5, 3 * SECOND);
    assertThat(b.tokens(3 * SECOND)).isEqualTo(5);
    b.setTokens(-1, 3 * SECOND);
    assertThat(b.waitFor(1, 3 * SECOND)).isEqualTo(SECOND / 5);
  }

  @Test
  void aDebtKeepsTheInstantItEndsWhenTheRateChanges() {
    TokenBucket b = TokenBucket.full(1, 1, 0);
    b.reserve(1, 0);
    b.reserve(1, 0); // goes at 1 s
    assertThat(b.reserve(1, 0)).as("the queue's last, at 2 s").isEqualTo(2 * SECOND);
    b.setRate(10, 0);
    assertThat(b.reserve(1, 0)).as("behind it, at the new rate").isEqualTo(2 * SECOND + SECOND / 10);
    b.setRate(0.5, 0);
    assertThat(b.reserve(1, 0)).as("and at a lower one").isEqualTo(2 * SECOND + SECOND / 10 + 2 * SECOND);
  }

  @Test
  void aStaleNowNeverTakesTokensBack() {
    TokenBucket b = TokenBucket.empty(1, 10, 5 * SECOND);
    assertThat(b.tryAcquire(1, 4 * SECOND)).as("refused at a stale now").isFalse();
    assertThat(b.tokens(6 * SECOND)).isEqualTo(1);
  }

  @Test
  void concurrentCallersNeverTakeMoreThanTheBalance() throws Exception {
    TokenBucket b = TokenBucket.full(1, 1000, 0);
    java.util.concurrent.atomic.AtomicInteger taken = new java.util.concurrent.atomic.AtomicInteger();
    Thread[] threads = new Thread[4];
    for (int t = 0; t < threads.length; t++) {
      threads[t] = new Thread(() -> {
        for (int i = 0; i < 10_000; i++) {
          if (b.tryAcquire(1, 0)) {
            taken.incrementAndGet();
          }
        }
      });
      threads[t].start();
    }
    for (Thread t : threads) {
      t.join();
    }
    assertThat(taken.get()).isEqualTo(1000);
  }

  @Test
  void refusesNonsense() {
    assertThatThrownBy(() -> TokenBucket.full(0, 1, 0)).hasMessageContaining("ratePerSecond");
    assertThatThrownBy(() -> TokenBucket.full(Double.NaN, 1, 0)).hasMessageContaining("ratePerSecond");
    assertThatThrownBy(() -> TokenBucket.full(1, 0, 0)).hasMessageContaining("capacity");
    assertThatThrownBy(() -> TokenBucket.full(1, Double.POSITIVE_INFINITY, 0)).hasMessageContaining("capacity");
  }
}
