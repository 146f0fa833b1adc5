package dev.polite.okhttp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.polite.RateController;
import dev.polite.testing.FakeClock;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import mockwebserver3.MockWebServer;
import okhttp3.MediaType;
import okhttp3.OkHttpClient;
import okhttp3.Protocol;
import okhttp3.Request;
import okhttp3.Response;
import okhttp3.ResponseBody;
import okio.BufferedSource;
import org.jspecify.annotations.Nullable;

/**
 * A MockWebServer, a fake clock, and a client whose network interceptor records when each
 * attempt went out (on the fake clock) and wraps every body so the test can prove it was closed.
 */
final class Harness implements AutoCloseable {
  final MockWebServer server = new MockWebServer();

  {
    // HTTP/1.1 on loopback costs ~40 ms a request here (Nagle meets delayed ACK); h2c does not.
    server.setProtocols(List.of(Protocol.H2_PRIOR_KNOWLEDGE));
  }
  final FakeClock clock = new FakeClock();
  /** Fake-clock seconds at which each attempt reached the network, in order. */
  final List<Double> sends = new CopyOnWriteArrayList<>();
  final List<Integer> codes = new CopyOnWriteArrayList<>();
  private final List<TrackedBody> bodies = new CopyOnWriteArrayList<>();
  final AtomicInteger inFlight = new AtomicInteger();
  final AtomicInteger maxInFlight = new AtomicInteger();
  private final AtomicInteger started = new AtomicInteger();
  private volatile boolean firstAnswered;
  /** Attempts that reached the network while the very first attempt awaited its answer. */
  final AtomicInteger overlappedFirst = new AtomicInteger();

  Harness() throws IOException {
    server.start();
  }

  Request get(String path) {
    return new Request.Builder().url(server.url(path)).build();
  }

  /** A rate controller that never limits: isolates retry timing from pace discovery. */
  static final RateController.Factory NO_DISCOVERY = RateController.none();

  /** A builder wired to the fake clock, with seeded jitter. */
  PoliteInterceptor.Builder polite() {
    return PoliteInterceptor.builder().clock(clock, clock).wallClock(clock).random(new Random(42));
  }

  OkHttpClient client(PoliteInterceptor.Builder polite) {
    return client(polite.build());
  }

  OkHttpClient client(PoliteInterceptor polite) {
    return new OkHttpClient.Builder()
        .protocols(List.of(Protocol.H2_PRIOR_KNOWLEDGE))
        .readTimeout(Duration.ofSeconds(5)) // a test that asks for one answer too many fails fast
        .addInterceptor(polite)
        .addNetworkInterceptor(chain -> {
          sends.add(FakeClock.seconds(clock.read()));
          int index = started.getAndIncrement();
          if (index > 0 && !firstAnswered) {
            overlappedFirst.incrementAndGet();
          }
          maxInFlight.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
          Response response;
          try {
            response = chain.proceed(chain.request());
          } finally {
            inFlight.decrementAndGet();
            if (index == 0) {
              firstAnswered = true;
            }
          }
          codes.add(response.code());
          TrackedBody body = new TrackedBody(response.body());
          bodies.add(body);
          return response.newBuilder().body(body).build();
        })
        .build();
  }

  long rejections() {
    return codes.stream().filter(c -> c == 429).count();
  }

  void assertEveryBodyClosed() {
    List<Integer> open = new ArrayList<>();
    for (int i = 0; i < bodies.size(); i++) {
      if (!bodies.get(i).closed) {
        open.add(i);
      }
    }
    assertThat(open).as("attempts whose response was never closed").isEmpty();
  }

  @Override
  public void close() {
    server.close();
  }

  /** A body that remembers being closed. */
  static final class TrackedBody extends ResponseBody {
    private final ResponseBody delegate;
    volatile boolean closed;

    TrackedBody(ResponseBody delegate) {
      this.delegate = delegate;
    }

    @Override
    public @Nullable MediaType contentType() {
      return delegate.contentType();
    }

    @Override
    public long contentLength() {
      return delegate.contentLength();
    }

    @Override
    public BufferedSource source() {
      return delegate.source();
    }

    @Override
    public void close() {
      closed = true;
      delegate.close();
    }
  }
}
