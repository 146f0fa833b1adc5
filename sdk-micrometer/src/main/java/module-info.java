/**
 * polite's Micrometer meters: {@link dev.polite.micrometer.PoliteMetrics}, a
 * {@link dev.polite.PoliteListener} and a Micrometer {@code MeterBinder} in one.
 *
 * <p>Micrometer is the application's own (micrometer-core, an automatic module named
 * {@code micrometer.core}): polite-micrometer reads it, and so does every module that reads it,
 * since its API speaks in its types. It reads no HTTP engine: the meters hear polite on any.
 */
@SuppressWarnings({"requires-automatic", "requires-transitive-automatic"})
module dev.polite.micrometer {
  requires transitive dev.polite;
  requires transitive micrometer.core;
  // The API's nullness annotations: optional at run time, visible to every reader at compile time.
  requires static transitive org.jspecify;

  exports dev.polite.micrometer;
}
