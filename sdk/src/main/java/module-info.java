/**
 * polite's core: makes any HTTP client a polite caller of rate-limited APIs, and reads no HTTP
 * engine. The API is {@link dev.polite}; {@code dev.polite.internal} and its subpackages are not
 * exported. Each engine's adapter is a module of its own ({@code dev.polite.okhttp},
 * {@code dev.polite.jdk}).
 */
module dev.polite {
  // PoliteBuilder.failureRetries takes Failsafe's RetryPolicy: readers see Failsafe too.
  requires transitive dev.failsafe.core;
  requires org.slf4j;
  // The API's nullness annotations: optional at run time, visible to every reader at compile time.
  requires static transitive org.jspecify;

  exports dev.polite;
}
