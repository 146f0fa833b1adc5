package dev.polite.adaptive;

import java.io.IOException;

/**
 * A request the adaptive throttle dropped on the client: it never reached the network, because
 * the server has lately been refusing more than the throttle lets through. Retrying it at once
 * is pointless; the throttle lets requests through again as the server accepts them.
 *
 * <p>It is an {@link IOException} so that it travels through every engine's synchronous and
 * asynchronous paths like any failure (anything else would crash OkHttp's async callbacks); tell
 * it apart from a network failure by its type. Its message never carries credentials.
 *
 * <pre>{@code
 * try (Response r = client.newCall(request).execute()) { ... }
 * catch (ThrottledLocallyException e) { serveFromCache(); }
 * }</pre>
 */
public final class ThrottledLocallyException extends IOException {
  private static final long serialVersionUID = 1L;

  private final String key;
  private final Criticality criticality;
  private final double probability;

  /**
   * @param key the key the request was throttled under
   * @param criticality the request's level
   * @param probability the drop probability it was judged with
   */
  public ThrottledLocallyException(String key, Criticality criticality, double probability) {
    super(String.format(java.util.Locale.ROOT,
        "polite: %s request to %s dropped locally by adaptive throttling (drop probability %.3f);"
            + " it was not sent", criticality, key, probability));
    this.key = key;
    this.criticality = criticality;
    this.probability = probability;
  }

  /** The rate-limit key the request was throttled under. */
  public String key() {
    return key;
  }

  /** The request's criticality. */
  public Criticality criticality() {
    return criticality;
  }

  /** The drop probability the request was judged with, in (0, 1]. */
  public double probability() {
    return probability;
  }
}
