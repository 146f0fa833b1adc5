package dev.polite.httpclient5;

import org.apache.hc.client5.http.config.RequestConfig;
import org.apache.hc.client5.http.protocol.HttpClientContext;
import org.apache.hc.core5.util.TimeValue;
import org.apache.hc.core5.util.Timeout;

/**
 * The time a call has, on HttpClient 5: the response timeout of its {@link RequestConfig} (the
 * request's own, which HttpClient puts in the context, else the client's default), counted from the
 * call's start; no limit when none is set.
 *
 * <p>HttpClient has no timeout for a whole call: the response timeout bounds each read on the
 * wire, and HttpClient enforces that itself, attempt by attempt. But HttpClient's own retry
 * handler does not begin a delay longer than the response timeout (HTTPCLIENT-2141): a caller who
 * gave an answer that long does not want to be kept waiting longer for a retry. polite keeps that
 * promise the way its core can: the response timeout is the call's time, and polite begins no wait
 * that would end past it (the call then ends at once: the refusal in hand is returned, or a call
 * that cannot even be sent in time throws {@link dev.polite.RateLimitedException}). The max wait
 * bounds the waits too, whichever is shorter.
 */
final class ResponseTimeout {
  private ResponseTimeout() {}

  /** The nanoseconds a call in {@code context} has; {@link Long#MAX_VALUE} for no limit. */
  static long nanosOf(HttpClientContext context) {
    RequestConfig config = context.getRequestConfigOrDefault();
    Timeout timeout = config.getResponseTimeout();
    if (timeout == null || !TimeValue.isPositive(timeout)) {
      return Long.MAX_VALUE; // none, or disabled (0): HttpClient waits for ever on the wire too
    }
    return timeout.toNanoseconds(); // saturated by TimeUnit
  }
}
