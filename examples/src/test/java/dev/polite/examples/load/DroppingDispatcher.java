package dev.polite.examples.load;

import java.util.concurrent.atomic.AtomicInteger;
import mockwebserver3.Dispatcher;
import mockwebserver3.MockResponse;
import mockwebserver3.RecordedRequest;
import mockwebserver3.SocketEffect;

/**
 * A {@code MockWebServer} dispatcher that answers the n-th request it counts (from 1) by a fixed
 * cycle of six: 200, a connection closed after the request was read (the old
 * {@code DISCONNECT_AFTER_REQUEST}), 200, 200 (the first time round, a 429 with
 * {@code Retry-After: 0}), a connection closed as it was accepted (the old
 * {@code DISCONNECT_AT_START}; {@link #afterRequestOnly()} closes this one after its request too),
 * 200. Whatever the order calls arrive in, every request the server counts
 * ({@code getRequestCount()}) took one answer of the cycle. One refusal only: polite answers a run
 * of them by slowing down, which is not what this measures.
 *
 * <p>A connection closed at its start is decided when it is accepted, from {@link #peek()}: the
 * server counts it as a request then, before the client has written one, and answers it by
 * {@link #dispatch} like any other (an answer never sent). Under concurrency another connection's
 * request may take that number first; it is then closed after its request instead, so the counts
 * stay true either way.
 *
 * <p>Usage: {@code server.setDispatcher(DroppingDispatcher.withCloseAtStart());}
 */
final class DroppingDispatcher extends Dispatcher {
  private final AtomicInteger counted = new AtomicInteger();
  private final boolean closeAtStart;

  private DroppingDispatcher(boolean closeAtStart) {
    this.closeAtStart = closeAtStart;
  }

  /** The cycle with no connection closed at its start: each request dropped was read first. */
  static DroppingDispatcher afterRequestOnly() {
    return new DroppingDispatcher(false);
  }

  /** The whole cycle, a connection closed as it is accepted included. */
  static DroppingDispatcher withCloseAtStart() {
    return new DroppingDispatcher(true);
  }

  @Override
  public MockResponse dispatch(RecordedRequest request) {
    int n = counted.incrementAndGet();
    if (n == 4) {
      return new MockResponse.Builder().code(429).addHeader("Retry-After", "0").body("{}").build();
    }
    return switch (n % 6) {
      case 2, 5 -> new MockResponse.Builder().onResponseStart(new SocketEffect.CloseSocket()).build();
      default -> new MockResponse.Builder().code(200).body("{}").build();
    };
  }

  @Override
  public MockResponse peek() {
    if (closeAtStart && (counted.get() + 1) % 6 == 5) {
      return new MockResponse.Builder().onRequestStart(new SocketEffect.CloseSocket()).build();
    }
    return super.peek();
  }
}
