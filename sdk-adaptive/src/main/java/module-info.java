/**
 * polite's adaptive parts: Google-SRE client-side adaptive throttling (an OkHttp interceptor) and
 * a CUBIC pace controller (for every engine). The API is {@link dev.polite.adaptive}; {@code dev.polite.adaptive.internal} is not
 * exported.
 */
module dev.polite.adaptive {
  requires transitive dev.polite;
  requires transitive dev.polite.okhttp;
  requires org.slf4j;
  requires static transitive org.jspecify;

  exports dev.polite.adaptive;
}
