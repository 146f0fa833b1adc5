package dev.polite.okhttp;

import org.junit.jupiter.api.AfterEach;

/** A test against a fresh {@link Harness}, which checks at the end that every body was closed. */
abstract class HarnessTest {
  final Harness h;

  HarnessTest() {
    try {
      h = new Harness();
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  @AfterEach
  void closeEverything() {
    try {
      h.assertEveryBodyClosed();
    } finally {
      h.close();
    }
  }
}
