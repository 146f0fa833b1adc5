package dev.polite.spring;

import dev.polite.Exchange;
import dev.polite.Polite;
import dev.polite.PoliteAdapter;
import dev.polite.PoliteBuilder;
import java.io.IOException;
import java.util.Objects;
import org.springframework.http.HttpRequest;
import org.springframework.http.client.ClientHttpRequestExecution;
import org.springframework.http.client.ClientHttpRequestInterceptor;
import org.springframework.http.client.ClientHttpResponse;

/**
 * Makes Spring's {@code RestClient} and {@code RestTemplate} polite callers of rate-limited APIs,
 * on whichever request factory is under them (Apache HttpClient 5, Jetty, Reactor Netty, the
 * JDK's, the simple one): it paces calls per key, learns each key's limit from the server's
 * headers, pauses a key the server asked to wait, and retries what is safe to retry, never
 * sooner than the server asked. What it decides is polite's core ({@link Polite}, the same on
 * every engine); this interceptor only carries Spring's calls to it.
 *
 * <pre>{@code
 * RestClient client = RestClient.builder()
 *     .requestInterceptor(PoliteRequestInterceptor.create())
 *     .build();
 * }</pre>
 *
 * <h2>Where it sits</h2>
 * Spring runs interceptors in the order they were added, the first outermost. Each of polite's
 * attempts is {@code execution.execute(request, body)} again, which Spring Framework 7 supports:
 * the interceptors added after this one run again on every attempt. So add it before those that
 * sign a request or stamp it with the time, so each attempt is signed anew; but after one that adds
 * a header your key function reads (an API key, when the key is {@code RateLimitKey.header}),
 * since polite reads the request as it is given it. The body is the bytes Spring buffered for the
 * interceptors, so every request can be sent again.
 *
 * <h2>Spring's conventions</h2>
 * An answer polite retries is closed unread; the one it returns goes to your status handlers as
 * usual, so a refusal polite gave up on (it would wait past the max wait, or the retries are
 * spent) becomes {@code HttpClientErrorException.TooManyRequests} under {@code RestClient}'s
 * default handler, with the server's headers and body. A call that cannot be sent in time, or a
 * refusal when {@link PoliteBuilder#throwWhenRateLimited} is set, throws
 * {@link dev.polite.RateLimitedException}, and an interrupted wait an
 * {@link java.io.InterruptedIOException} (the interrupt kept): I/O errors, which
 * {@code RestClient} and {@code RestTemplate} hand you as a {@code ResourceAccessException}
 * whose cause they are. Spring's interceptors have no per-call deadline: a call waits at most the
 * max wait ({@link PoliteBuilder#maxWait}), and the request factory's own timeouts bound each
 * attempt. A request's hints (its {@link dev.polite.RequestCost}) travel in its attributes
 * ({@link RequestHints}).
 *
 * <p>Thread-safe: share one across clients; clients over one interceptor, or over one
 * {@link Polite}, share its keys.
 */
public final class PoliteRequestInterceptor implements ClientHttpRequestInterceptor, PoliteAdapter {
  private final Polite polite;

  private PoliteRequestInterceptor(Polite polite) {
    this.polite = polite;
  }

  /**
   * An interceptor with every default: told nothing about the server.
   *
   * <pre>{@code RestClient.builder().requestInterceptor(PoliteRequestInterceptor.create())}</pre>
   */
  public static PoliteRequestInterceptor create() {
    return builder().build();
  }

  /**
   * An interceptor that carries its calls to {@code polite}, sharing its keys with every other
   * adapter over it (a {@link PoliteExchangeFilter}'s, an OkHttp client's).
   *
   * <pre>{@code PoliteRequestInterceptor.of(polite)}</pre>
   */
  public static PoliteRequestInterceptor of(Polite polite) {
    return new PoliteRequestInterceptor(Objects.requireNonNull(polite, "polite"));
  }

  /**
   * Starts a configuration; every option has a default.
   *
   * <pre>{@code PoliteRequestInterceptor.builder().maxWait(Duration.ofSeconds(10)).build()}</pre>
   */
  public static Builder builder() {
    return new Builder();
  }

  /** The polite caller this interceptor carries its calls to; its keys are this interceptor's. */
  @Override
  public Polite polite() {
    return polite;
  }

  @Override
  public ClientHttpResponse intercept(HttpRequest request, byte[] body, ClientHttpRequestExecution execution)
      throws IOException {
    return polite.call(SpringRequestView.of(request), Long.MAX_VALUE, () -> false, new Exchange<>() {
      @Override
      public ClientHttpResponse send(Judge judge) throws IOException {
        ClientHttpResponse response = execution.execute(request, body);
        try {
          judge.keep(SpringResponseView.of(response.getStatusCode().value(), response.getHeaders(), response));
        } catch (IOException | RuntimeException e) {
          response.close(); // no status: nothing to return, nothing to hold
          throw e;
        }
        return response;
      }

      @Override
      public void discard(ClientHttpResponse response) {
        response.close();
      }
    });
  }

  @Override
  public String toString() {
    return "PoliteRequestInterceptor{" + polite.config() + '}';
  }

  /**
   * Configures an interceptor: every option of {@link PoliteBuilder}. Not thread-safe; the
   * interceptor it builds is.
   *
   * <pre>{@code
   * PoliteRequestInterceptor polite = PoliteRequestInterceptor.builder()
   *     .key(RateLimitKey.header("X-Api-Key"))
   *     .maxWait(Duration.ofSeconds(10))
   *     .build();
   * }</pre>
   */
  public static final class Builder extends PoliteBuilder<Builder> {
    private Builder() {}

    /** The interceptor; each has its own keys, and its own copy of this configuration. */
    public PoliteRequestInterceptor build() {
      return new PoliteRequestInterceptor(buildPolite());
    }
  }
}
