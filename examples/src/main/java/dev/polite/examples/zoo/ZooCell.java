package dev.polite.examples.zoo;

import dev.polite.examples.clients.ClientKind;

/**
 * One cell of the zoo, before it runs: which client sends how many calls, how many at once, to
 * which limiter.
 *
 * <p>Usage: {@code new ZooCell(ClientKind.POLITE, server, 16, 100)}
 *
 * @param client the client
 * @param server the limiter, started fresh for this cell
 * @param concurrency calls in flight at once
 * @param requests calls in all
 */
record ZooCell(ClientKind client, ZooServer server, int concurrency, int requests) {

  public ZooCell {
    if (concurrency < 1) {
      throw new IllegalArgumentException("concurrency: must be at least 1, was " + concurrency);
    }
    if (requests < 1) {
      throw new IllegalArgumentException("requests: must be at least 1, was " + requests);
    }
  }

  /** The cell's floor in seconds: the least time any client could take without a rejection. */
  public double floorSeconds() {
    return server.floorSeconds(requests, concurrency);
  }

  /**
   * The rate the {@code paced} and {@code failsafe} clients are told: 90 % of the documented rate,
   * as a user who read the documentation and kept a margin would set it.
   */
  public double toldRate() {
    return 0.9 * server.rate();
  }

  /** The burst they are told: the documented one. */
  public double toldBurst() {
    return server.burst();
  }

  /** {@code polite on token-bucket/ietf at 16}, for progress and errors. */
  @Override
  public String toString() {
    return client.cliName() + " on " + server.name() + " at " + concurrency;
  }
}
