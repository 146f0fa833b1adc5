package dev.polite.testing;

import mockwebserver3.MockResponse;

/**
 * The answers the engines' MockWebServer tests enqueue: a status with header lines, and a body
 * that says which it was ({@code hello} for a 200, {@code refused} otherwise), so a test can tell
 * the answer its caller was handed.
 *
 * <pre>{@code server.enqueue(Answers.status(429, "Retry-After", "2"));}</pre>
 */
public final class Answers {
  private Answers() {}

  /** An answer of {@code code} with {@code headers}, names and values in turn. */
  public static MockResponse status(int code, String... headers) {
    MockResponse.Builder b = new MockResponse.Builder().code(code);
    for (int i = 0; i < headers.length; i += 2) {
      b.addHeader(headers[i], headers[i + 1]);
    }
    return b.body(code == 200 ? "hello" : "refused").build();
  }
}
