package dev.polite.examples.load;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import mockwebserver3.Dispatcher;
import mockwebserver3.MockResponse;
import mockwebserver3.RecordedRequest;
import mockwebserver3.SocketEffect;

/**
 * A {@code MockWebServer} dispatcher that gives the first request it reads one answer and every
 * later one another: a refusal, then answers; an answer, then cut connections.
 *
 * <p>Usage: {@code server.setDispatcher(FirstThenRest.cutAfterFirst());}
 */
final class FirstThenRest extends Dispatcher {
  private final AtomicInteger served = new AtomicInteger();
  private final Supplier<MockResponse> first;
  private final Supplier<MockResponse> rest;

  FirstThenRest(Supplier<MockResponse> first, Supplier<MockResponse> rest) {
    this.first = first;
    this.rest = rest;
  }

  /** The first request is answered 200; every later one has its connection cut as its answer starts. */
  static FirstThenRest cutAfterFirst() {
    return new FirstThenRest(() -> new MockResponse.Builder().code(200).body("{}").build(),
        () -> new MockResponse.Builder().code(200).onResponseStart(new SocketEffect.CloseSocket()).build());
  }

  @Override
  public MockResponse dispatch(RecordedRequest request) {
    return (served.getAndIncrement() == 0 ? first : rest).get();
  }
}
