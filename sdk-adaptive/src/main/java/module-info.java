/**
 * polite's adaptive parts: Google-SRE client-side adaptive throttling (a load shedder) and a
 * CUBIC pace controller, for every engine: it reads none. The API is {@link dev.polite.adaptive}; {@code dev.polite.adaptive.internal} is not
 * exported.
 */
module dev.polite.adaptive {
  requires transitive dev.polite;
  requires org.slf4j;
  requires static transitive org.jspecify;

  exports dev.polite.adaptive;
}
