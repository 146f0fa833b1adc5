/**
 * polite: makes an OkHttp client a polite caller of rate-limited APIs. The API is
 * {@link dev.polite}; {@code dev.polite.internal} and its subpackages are not exported.
 *
 * <p>OkHttp is the application's own (4.12.x, whose automatic module name is {@code okhttp3}, or
 * 5.x, whose module is {@code okhttp3}): polite reads it, and so does every module that reads
 * polite, since the API speaks in OkHttp's types.
 */
module dev.polite {
  requires transitive okhttp3;
  // PoliteInterceptor.Builder.failureRetries takes Failsafe's RetryPolicy: readers see Failsafe too.
  requires transitive dev.failsafe.core;
  requires org.slf4j;
  // The API's nullness annotations: optional at run time, visible to every reader at compile time.
  requires static transitive org.jspecify;

  exports dev.polite;
}
