package dev.polite.okhttp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.polite.Sleeper;
import java.io.InterruptedIOException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import mockwebserver3.MockResponse;
import okhttp3.Call;
import okhttp3.OkHttpClient;
import okhttp3.Response;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** A cancelled call or an interrupted thread ends a wait at once, as OkHttp's own waits do. */
class CancellationTest extends HarnessTest {
  @Test
  void cancellingACallWhileItWaitsForItsPaceEndsIt() throws Exception {
    h.server.enqueue(new MockResponse.Builder().code(200).build());
    OkHttpClient client = h.client(h.polite().startingRate(0.1));
    try (Response r = client.newCall(h.get("/a")).execute()) {
      assertThat(r.code()).isEqualTo(200);
    }
    Call waiting = client.newCall(h.get("/b"));
    h.clock.onSleep(waiting::cancel); // cancelled by another party while it sleeps

    assertThatThrownBy(waiting::execute).isInstanceOf(InterruptedIOException.class);
    assertThat(h.server.getRequestCount()).isEqualTo(1);
    assertThat(h.clock.elapsedSeconds()).as("it did not sleep on").isZero();
  }

  @Test
  void interruptingTheThreadEndsAPauseAndKeepsTheInterrupt() throws Exception {
    h.server.enqueue(new MockResponse.Builder().code(429).addHeader("Retry-After", "10").build());
    OkHttpClient client = h.client(h.polite().maxAttempts(1).maxRateLimitRetries(0));
    try (Response r = client.newCall(h.get("/a")).execute()) {
      assertThat(r.code()).isEqualTo(429);
    }
    h.clock.onSleep(() -> Thread.currentThread().interrupt());

    try {
      assertThatThrownBy(() -> client.newCall(h.get("/b")).execute())
          .isInstanceOf(InterruptedIOException.class);
      assertThat(Thread.currentThread().isInterrupted()).isTrue();
    } finally {
      Thread.interrupted();
    }
    assertThat(h.server.getRequestCount()).isEqualTo(1);
  }

  @Test
  void cancellingACallThatWaitsAtTheGateEndsIt() throws Exception {
    // The first call's answer is slow; a second call waits at the first-answer gate.
    CountDownLatch firstSent = new CountDownLatch(1);
    h.server.enqueue(new MockResponse.Builder().code(200).headersDelay(1, TimeUnit.SECONDS).build());
    OkHttpClient client = h.client(h.polite()).newBuilder()
        .addNetworkInterceptor(chain -> {
          firstSent.countDown();
          return chain.proceed(chain.request());
        }).build();
    Thread first = new Thread(() -> {
      try (Response r = client.newCall(h.get("/a")).execute()) {
        r.body().string();
      } catch (Exception ignored) {
        // the test is about the second call
      }
    });
    first.start();
    assertThat(firstSent.await(5, TimeUnit.SECONDS)).isTrue();

    Call second = client.newCall(h.get("/b"));
    AtomicReference<Throwable> thrown = new AtomicReference<>();
    Thread waiter = new Thread(() -> {
      try {
        second.execute().close();
      } catch (Throwable t) {
        thrown.set(t);
      }
    });
    waiter.start();
    // Cancel only once it waits at the gate (a monitor wait), not before it started.
    while (waiter.getState() != Thread.State.TIMED_WAITING && waiter.isAlive()) {
      Thread.onSpinWait();
    }
    second.cancel();
    waiter.join(TimeUnit.SECONDS.toMillis(5));
    first.join(TimeUnit.SECONDS.toMillis(5));

    assertThat(waiter.isAlive()).isFalse();
    assertThat(thrown.get()).isInstanceOf(InterruptedIOException.class);
    assertThat(h.server.getRequestCount()).isEqualTo(1);
  }

  @Test
  @Timeout(10)
  void theSystemSleeperWakesWhenStopTurnsTrue() throws Exception {
    AtomicBoolean stop = new AtomicBoolean();
    Thread parked = new Thread(() -> {
      try {
        Sleeper.system().sleepUntil(System.nanoTime() + TimeUnit.HOURS.toNanos(1), stop::get);
      } catch (InterruptedException e) {
        throw new AssertionError(e);
      }
    });
    parked.start();
    stop.set(true);
    parked.join(); // an hour's sleep ends because stop turned true (the @Timeout guards a hang)
  }

  @Test
  @Timeout(10)
  void theSystemSleeperThrowsWhenInterrupted() throws Exception {
    AtomicReference<Throwable> thrown = new AtomicReference<>();
    Thread parked = new Thread(() -> {
      try {
        Sleeper.system().sleepUntil(System.nanoTime() + TimeUnit.HOURS.toNanos(1), () -> false);
      } catch (InterruptedException e) {
        thrown.set(e);
      }
    });
    parked.start();
    parked.interrupt();
    parked.join();
    assertThat(thrown.get()).isInstanceOf(InterruptedException.class);
  }
}
