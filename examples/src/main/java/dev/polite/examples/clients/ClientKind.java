package dev.polite.examples.clients;

import dev.polite.PoliteListener;
import dev.polite.adaptive.AdaptiveThrottle;
import dev.polite.okhttp.PoliteInterceptor;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.stream.Collectors;
import okhttp3.Interceptor;

/**
 * The clients the demo measures: three peers written the way people write them by hand, the
 * do-it-yourself peer a competent user builds from Failsafe, polite with the defaults a new user
 * gets, polite behind sdk-adaptive's throttle, and polite on the JDK's {@code HttpClient}. Each
 * is built on an {@link Engine}: every kind but {@code polite-jdk} is a chain of OkHttp
 * interceptors. The order is the order of {@code load --client}'s list; {@code compare} runs its
 * own five (see {@code CompareCommand.CLIENTS}).
 *
 * <p>Usage: {@code List<Interceptor> chain = ClientKind.parse("paced").interceptors(4.5, 5);}
 */
public enum ClientKind {
  /** Retries a rejection at once, up to 6 attempts in all. */
  NAIVE("naive", "retry at once",
      "Retries every 429 at once, up to 6 attempts: a wall of requests at the start, almost all refused."),
  /** Waits Retry-After plus growing jitter, up to 6 attempts in all. */
  RETRY_AFTER("retry-after", "Retry-After + jitter",
      "Sends until refused, then waits Retry-After plus jitter: bursts past the limit, rejections, pauses."),
  /** A client-side token bucket set by hand (4.5 per second, burst 4 by default). */
  PACED("paced", "client-side bucket",
      "A hand-set client-side bucket a little under the limit: never refused, a little slower than allowed."),
  /**
   * {@link FailsafeInterceptor}: a Failsafe 3 retry policy honouring Retry-After, behind a smooth
   * Failsafe rate limiter set by hand (the paced rate): what a user writes instead of polite.
   */
  FAILSAFE("failsafe", "OkHttp + Failsafe by hand",
      "Failsafe 3 by hand: a RetryPolicy that honours Retry-After (else jittered backoff), 6 attempts, behind a "
          + "smooth RateLimiter set a little under the documented limit: paced and patient, but it learns nothing."),
  /** {@link PoliteInterceptor#create()}: told nothing, it learns the limit from the headers. */
  POLITE("polite", "polite",
      "PoliteInterceptor.create(), told nothing: learns the limit from the first answer's headers and rides it."),
  /**
   * {@link AdaptiveThrottle#create()} as {@link PoliteInterceptor}'s load shedder, the
   * composition sdk-adaptive documents: the throttle sheds load locally (a dropped call throws
   * {@link dev.polite.adaptive.ThrottledLocallyException} and is never sent), polite paces.
   */
  POLITE_ADAPTIVE("polite-adaptive", "polite + adaptive throttling",
      "PoliteInterceptor with AdaptiveThrottle.create() as its load shedder: the throttle drops calls locally only "
          + "while the server refuses many; against a limit polite already rides it should never drop one."),
  /**
   * {@code PoliteHttpClient.wrap(HttpClient)} over the JDK's client (HTTP/1.1), told nothing: the
   * same core as {@link #POLITE}, carried by another engine. It has no interceptors.
   */
  POLITE_JDK("polite-jdk", "polite on the JDK's HttpClient", Engine.JDK,
      "PoliteHttpClient.wrap(HttpClient), told nothing: polite's core on the JDK's own client, which has no "
          + "interceptors; a relay on loopback counts what it puts on the wire."),
  /**
   * Spring's {@code RestClient} with {@code PoliteRequestInterceptor.create()}, on the JDK's
   * request factory: blocking only (RestClient has no async call).
   */
  POLITE_SPRING("polite-spring", "polite on Spring's RestClient (JDK)", Engine.SPRING_JDK,
      "RestClient with PoliteRequestInterceptor.create(), told nothing, on the JDK's request factory; a relay on "
          + "loopback counts what it puts on the wire."),
  /** As {@link #POLITE_SPRING}, on Apache HttpClient 5's request factory, its own retries off. */
  POLITE_SPRING_HC5("polite-spring-hc5", "polite on Spring's RestClient (HttpClient 5)", Engine.SPRING_HC5,
      "RestClient with PoliteRequestInterceptor.create(), told nothing, on HttpClient 5's request factory (its own "
          + "retries off: one layer waits)."),
  /** Spring's {@code WebClient} with {@code PoliteExchangeFilter.create()}, on Reactor Netty. */
  POLITE_WEBCLIENT("polite-webclient", "polite on Spring's WebClient", Engine.WEBCLIENT,
      "WebClient with PoliteExchangeFilter.create(), told nothing, on Reactor Netty: waits as scheduled tasks, "
          + "holding no thread."),
  /**
   * Apache HttpClient 5 with polite's exec-chain handler installed: the classic client blocking,
   * the async one with {@code --async}; HttpClient's own retries off.
   */
  POLITE_HC5("polite-hc5", "polite on Apache HttpClient 5", Engine.HC5,
      "HttpClient 5 with PoliteExecChainHandler (classic) or PoliteAsyncExecChainHandler (async) installed, told "
          + "nothing, its own retries off: one layer waits.");

  /** The HTTP client a kind is built on. */
  public enum Engine {
    /** OkHttp: the kind is a chain of application interceptors ({@link #interceptors}). */
    OKHTTP,
    /** The JDK's {@code java.net.http.HttpClient}, wrapped by polite-jdk's {@code PoliteHttpClient}. */
    JDK,
    /** Spring's {@code RestClient} on the JDK's request factory, with polite-spring's interceptor. */
    SPRING_JDK,
    /** Spring's {@code RestClient} on Apache HttpClient 5's request factory, with polite-spring's interceptor. */
    SPRING_HC5,
    /** Spring's {@code WebClient} on Reactor Netty, with polite-spring's filter. */
    WEBCLIENT,
    /** Apache HttpClient 5, classic and async, with polite-httpclient5's exec-chain handlers. */
    HC5
  }

  /** Attempts in all for the two retrying peers: a first try and five retries, a common choice. */
  public static final int PEER_ATTEMPTS = 6;

  private final String cliName;
  private final String label;
  private final Engine engine;
  private final String story;

  ClientKind(String cliName, String label, String story) {
    this(cliName, label, Engine.OKHTTP, story);
  }

  ClientKind(String cliName, String label, Engine engine, String story) {
    this.cliName = cliName;
    this.label = label;
    this.engine = engine;
    this.story = story;
  }

  /** The name on the command line and in JSON, such as {@code retry-after}. */
  public String cliName() {
    return cliName;
  }

  /** The table's label, such as {@code Retry-After + jitter}. */
  public String label(double pacedRate) {
    return this == PACED ? label + " " + trim(pacedRate) + "/s" : label;
  }

  /** One sentence on what the client does, for the report. */
  public String story() {
    return story;
  }

  /** The HTTP client it is built on. */
  public Engine engine() {
    return engine;
  }

  /** Whether polite makes its calls (so they can be made async, metered, observed only). */
  public boolean hasPolite() {
    return this == POLITE || this == POLITE_ADAPTIVE || engine != Engine.OKHTTP;
  }

  /**
   * Whether its calls can be made holding no thread ({@code --async}): polite's, but for
   * RestClient's, which has no async call.
   */
  public boolean hasAsync() {
    return hasPolite() && engine != Engine.SPRING_JDK && engine != Engine.SPRING_HC5;
  }

  /**
   * Fresh application interceptors of this kind, with state of their own, in the order to add
   * them ({@code addInterceptor} in list order: the first sees the call first).
   *
   * @param pacedRate the paced and failsafe clients' rate per second (ignored by the others)
   * @param pacedBurst the paced client's burst (ignored by the others; Failsafe's smooth limiter
   *     has none)
   */
  public List<Interceptor> interceptors(double pacedRate, double pacedBurst) {
    return interceptors(pacedRate, pacedBurst, PoliteListener.none());
  }

  /** As above, with {@code listener} added to polite's interceptor, for the kinds that have one. */
  public List<Interceptor> interceptors(double pacedRate, double pacedBurst, PoliteListener listener) {
    return interceptors(pacedRate, pacedBurst, listener, false);
  }

  /**
   * As above; when {@code observeOnly}, polite's interceptor only observes
   * ({@link PoliteInterceptor.Builder#observeOnly}): it sends every call at once and tells
   * {@code listener} what it would have done.
   *
   * @throws IllegalStateException for a kind not built on OkHttp
   */
  public List<Interceptor> interceptors(double pacedRate, double pacedBurst, PoliteListener listener,
      boolean observeOnly) {
    if (engine != Engine.OKHTTP) {
      throw new IllegalStateException(cliName + " is not built on OkHttp: it has no interceptors");
    }
    PoliteInterceptor.Builder politeBuilder = PoliteInterceptor.builder().addListener(listener)
        .observeOnly(observeOnly);
    switch (this) {
      case NAIVE:
        return List.of(new RetryAtOnceInterceptor(PEER_ATTEMPTS));
      case RETRY_AFTER:
        return List.of(new RetryAfterJitterInterceptor(PEER_ATTEMPTS, new SplittableRandom()));
      case PACED:
        return List.of(new PacedInterceptor(pacedRate, pacedBurst));
      case FAILSAFE:
        return List.of(FailsafeInterceptor.perSecond(pacedRate));
      case POLITE_ADAPTIVE:
        // sdk-adaptive's documented composition: the throttle is polite's load shedder, so it
        // judges each call once by its final answer and a drop never waits for polite's pace.
        return List.of(politeBuilder.loadShedder(AdaptiveThrottle.create()).build());
      case POLITE:
      default:
        return List.of(politeBuilder.build());
    }
  }

  /**
   * The kind named {@code name} on the command line.
   *
   * @throws IllegalArgumentException listing the accepted names
   */
  public static ClientKind parse(String name) {
    String wanted = name.trim().toLowerCase(Locale.ROOT);
    for (ClientKind kind : values()) {
      if (kind.cliName.equals(wanted)) {
        return kind;
      }
    }
    throw new IllegalArgumentException("unknown client '" + name + "', expected one of " + names());
  }

  /** The accepted names, {@code naive|retry-after|paced|failsafe|polite|polite-adaptive|polite-jdk}. */
  public static String names() {
    return Arrays.stream(values()).map(ClientKind::cliName).collect(Collectors.joining("|"));
  }

  @Override
  public String toString() {
    return cliName;
  }

  private static String trim(double value) {
    return value == Math.rint(value) ? Long.toString((long) value) : Double.toString(value);
  }
}
