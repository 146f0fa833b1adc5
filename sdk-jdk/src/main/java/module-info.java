/**
 * polite on the JDK's {@link java.net.http.HttpClient}: {@link dev.polite.jdk.PoliteHttpClient}
 * wraps a client and carries its calls to polite's core ({@code dev.polite}), which decides.
 */
module dev.polite.jdk {
  requires transitive dev.polite;
  requires transitive java.net.http;
  requires static transitive org.jspecify;

  exports dev.polite.jdk;
}
