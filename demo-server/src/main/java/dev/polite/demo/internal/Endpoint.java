package dev.polite.demo.internal;

/**
 * Answers one request: reads the {@link Exchange}'s request and sends exactly one answer on it,
 * now or later (a timer, a worker thread).
 *
 * <p>Usage: {@code Endpoint health = exchange -> exchange.send(200, "application/json", "{\"status\":\"ok\"}");}
 */
@FunctionalInterface
public interface Endpoint {
  /** Handles {@code exchange}; called on its connection's I/O thread, so it must not block. */
  void handle(Exchange exchange);
}
