package dev.polite.demo.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.polite.demo.SecondPolicy;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Two policies decided together on a clock the test moves: both must admit, and a refusal spends neither. */
class SecondWindowsTest {
  private static final long SECOND = 1_000_000_000L;

  @Test
  void aCallIsAdmittedOnlyWhenBothAdmitItAndARefusedOneSpendsNeither() {
    // a bucket of 2 refilling 2 per second, and a window of 3 per 10 s beside it
    TokenBucket bucket = new TokenBucket(new Policy(2, SECOND, 2));
    SecondWindows windows = new SecondWindows(new SecondPolicy("window", 3, Duration.ofSeconds(10)), 100);
    long t = 1_000 * SECOND; // a window opens here
    int[] asked = {0};
    java.util.function.LongFunction<SecondWindows.Both> call = now -> windows.decide("k", 1, now, () -> {
      asked[0]++;
      return bucket.tryAcquire(now, 1);
    });

    SecondWindows.Both first = call.apply(t);
    assertThat(first.main().allowed()).isTrue();
    assertThat(first.second().remaining()).isEqualTo(2);
    assertThat(first.second().nextUnitNanos()).as("until the window's end").isEqualTo(10 * SECOND);
    assertThat(call.apply(t).binding().allowed()).isTrue();
    SecondWindows.Both bucketRefuses = call.apply(t);
    assertThat(bucketRefuses.binding().allowed()).isFalse();
    assertThat(bucketRefuses.binding().retryAfterNanos()).as("the bucket's wait").isEqualTo(SECOND / 2);
    assertThat(bucketRefuses.second().remaining()).as("the window did not count it").isEqualTo(1);

    assertThat(call.apply(t + SECOND).binding().allowed()).isTrue(); // the window's third
    asked[0] = 0;
    SecondWindows.Both windowRefuses = call.apply(t + SECOND);
    assertThat(asked[0]).as("the bucket is not asked when the window refuses").isZero();
    assertThat(windowRefuses.main()).isNull();
    assertThat(windowRefuses.binding().allowed()).isFalse();
    assertThat(windowRefuses.binding().retryAfterNanos()).as("the window's end").isEqualTo(9 * SECOND);
    assertThat(windowRefuses.second().remaining()).isZero();

    // the next window: the bucket still holds both tokens the refused call did not take
    assertThat(call.apply(t + 10 * SECOND).binding().allowed()).isTrue();
    SecondWindows.Both second = call.apply(t + 10 * SECOND);
    assertThat(second.binding().allowed()).isTrue();
    assertThat(second.main().remaining()).isZero();
    assertThat(second.second().remaining()).isEqualTo(1);
  }

  @Test
  void aPeekCountsNothing() {
    FixedWindow window = new FixedWindow(new Policy(2, SECOND, 2));
    assertThat(window.peek(0, 2).allowed()).isTrue();
    assertThat(window.peek(0, 3).allowed()).isFalse();
    assertThat(window.peek(0, 1).remaining()).isEqualTo(2);
    window.tryAcquire(0, 2);
    assertThat(window.peek(SECOND / 4, 1).allowed()).isFalse();
    assertThat(window.peek(SECOND / 4, 1).retryAfterNanos()).isEqualTo(3 * SECOND / 4);
    assertThat(window.peek(SECOND, 1).allowed()).as("the next window").isTrue();
  }
}
