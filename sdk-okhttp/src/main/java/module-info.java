/**
 * polite on OkHttp: {@link dev.polite.okhttp.PoliteInterceptor} and
 * {@link dev.polite.okhttp.PoliteCallFactory} carry OkHttp's calls to polite's core
 * ({@code dev.polite}), which decides.
 *
 * <p>OkHttp is the application's own (4.12.x, whose automatic module name is {@code okhttp3}, or
 * 5.x, whose module is {@code okhttp3}): this module reads it, and so does every module that reads
 * this one, since its API speaks in OkHttp's types.
 */
module dev.polite.okhttp {
  requires transitive dev.polite;
  requires transitive okhttp3;
  requires org.slf4j;
  requires static transitive org.jspecify;

  exports dev.polite.okhttp;
}
