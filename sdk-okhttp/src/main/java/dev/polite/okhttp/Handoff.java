package dev.polite.okhttp;

/**
 * The tag on one attempt of a {@link PoliteCallFactory} call, as it goes through the application's
 * client: polite already waited for the attempt's turn, and learns from its answer as the
 * attempt's callback hears it, so the client's {@link PoliteInterceptor} only passes it on.
 */
enum Handoff {
  /** The one tag: an attempt carries no state of its own. */
  ATTEMPT
}
