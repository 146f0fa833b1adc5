package dev.polite.httpclient5;

import dev.polite.Exchange;
import dev.polite.Polite;
import dev.polite.PoliteAdapter;
import dev.polite.PoliteBuilder;
import dev.polite.PoliteConfig;
import dev.polite.RateLimitedException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.Objects;
import java.util.function.BooleanSupplier;
import org.apache.hc.client5.http.classic.ExecChain;
import org.apache.hc.client5.http.classic.ExecChainHandler;
import org.apache.hc.client5.http.impl.ChainElement;
import org.apache.hc.client5.http.impl.classic.HttpClientBuilder;
import org.apache.hc.client5.http.impl.classic.RequestFailedException;
import org.apache.hc.core5.http.ClassicHttpRequest;
import org.apache.hc.core5.http.ClassicHttpResponse;
import org.apache.hc.core5.http.HttpEntity;
import org.apache.hc.core5.http.HttpException;
import org.apache.hc.core5.http.io.entity.EntityUtils;
import org.apache.hc.core5.http.io.support.ClassicRequestBuilder;
import org.apache.hc.core5.http.protocol.HttpContext;

/**
 * Makes Apache HttpClient 5's classic client a polite caller of rate-limited APIs: it paces calls
 * per key, learns each key's limit from the server's headers, pauses a key the server asked to
 * wait, and retries what is safe to retry, never sooner than the server asked. What it decides is
 * polite's core ({@link Polite}, the same on every engine); this handler only carries HttpClient's
 * calls to it.
 *
 * <pre>{@code
 * CloseableHttpClient client = PoliteExecChainHandler.create()
 *     .install(HttpClients.custom())
 *     .build();
 * }</pre>
 *
 * <h2>Where it sits, and which retry layer stays</h2>
 * HttpClient's chain runs, outermost first: back-off, {@code REDIRECT}, {@code RETRY},
 * {@code COMPRESS}, {@code PROTOCOL} (authentication, cookies), {@code CONNECT},
 * {@code MAIN_TRANSPORT}. {@link #install} removes HttpClient's own retry handler
 * ({@code disableAutomaticRetries()}) and puts polite just outside {@code PROTOCOL}: polite is then
 * the one layer that retries, and the one that waits.
 * <ul>
 *   <li>Inside {@code REDIRECT}: each hop of a redirect is a call of its own, paced and keyed by
 *       the host it goes to, and a redirect's answer (its Location) is the caller's, not a
 *       refusal. Inside {@code COMPRESS} too: a refusal polite drops is never decompressed, and
 *       the answer it returns is, on its way up.
 *   <li>Outside {@code PROTOCOL}, {@code CONNECT} and the transport: each attempt is a whole
 *       exchange, authentication challenges answered, and what polite judges is the answer the
 *       caller would get.
 *   <li>HttpClient's retry handler off, because two retry layers multiply, and the other one
 *       does not wait politely: its {@code DefaultHttpRequestRetryStrategy} retries a 429 or 503
 *       once, after sleeping the server's whole Retry-After on the calling thread, uncapped (a
 *       Retry-After of a day is a day's sleep). Left outside polite, it resends the refusal polite
 *       gave back (after that sleep); put inside polite (polite before {@code RETRY}), it would
 *       resend each 429 before polite saw it, two requests for every one polite paced. polite
 *       retries what it did: 429 and 503 always, 502, 504 and I/O errors for idempotent requests,
 *       within the max wait.
 * </ul>
 * Installing by hand is {@code builder.disableAutomaticRetries()} and
 * {@code builder.addExecInterceptorBefore(ChainElement.PROTOCOL.name(), PoliteExecChainHandler.NAME,
 * handler)}. Not {@code addExecInterceptorBefore(ChainElement.RETRY.name(), ...)}: with retries
 * disabled there is no {@code RETRY} element, and HttpClient drops a handler placed before a
 * missing element without a word. A client that keeps a retry strategy of its own must leave
 * responses to polite (answer false to {@code retryRequest(HttpResponse, ...)}); its I/O retries
 * then resend through polite, each a call of its own.
 *
 * <h2>Bodies and connections</h2>
 * polite decides from an answer's status and headers: an answer it does not return is consumed
 * and closed, as HttpClient's own redirect handler drops one, so its connection goes back to the
 * pool before the wait. The answer it returns is handed up unread. A request whose entity is not
 * repeatable ({@link HttpEntity#isRepeatable()} false) is sent once, whatever its answer. The body
 * of a refusal is not read for hints ({@code readRetryHintsFromBody} reads headers only here).
 *
 * <h2>HttpClient's conventions</h2>
 * Waits block the calling thread (a virtual thread is welcome: polite parks, never pins). An
 * interrupted wait throws {@link InterruptedIOException}, the interrupt kept, as HttpClient's own
 * retry handler does; a request {@linkplain org.apache.hc.client5.http.classic.methods.HttpUriRequestBase#cancel()
 * cancelled} while it waits ends the wait within a few milliseconds, and a cancelled call throws
 * HttpClient's {@link RequestFailedException} ("Request aborted"), as HttpClient's retry handler
 * has it throw. The request's response timeout bounds
 * polite's waits (see {@link ResponseTimeout}); without one, the max wait does. Giving up returns
 * the last refusal untouched, or throws {@link RateLimitedException} (an
 * {@link IOException}) when asked to. Hints ({@link dev.polite.RequestCost}) come in the call's
 * context: {@link RequestHints}.
 *
 * <p>Thread-safe and stateless but for polite's keys: share one, as you share the client.
 */
public final class PoliteExecChainHandler implements ExecChainHandler, PoliteAdapter {
  /** The name {@link #install} gives the handler in HttpClient's chain. */
  public static final String NAME = "polite";

  private final Polite polite;

  private PoliteExecChainHandler(Polite polite) {
    this.polite = polite;
  }

  /**
   * A handler with every default: told nothing about the server.
   *
   * <pre>{@code PoliteExecChainHandler.create().install(HttpClients.custom()).build()}</pre>
   */
  public static PoliteExecChainHandler create() {
    return builder().build();
  }

  /**
   * A handler over {@code polite}, sharing its keys with every other adapter over it (an async
   * client's handler, say).
   *
   * <pre>{@code PoliteExecChainHandler.create(polite)}</pre>
   */
  public static PoliteExecChainHandler create(Polite polite) {
    return new PoliteExecChainHandler(Objects.requireNonNull(polite, "polite"));
  }

  /**
   * Starts a configuration; every option has a default (see the README's reference).
   *
   * <pre>{@code PoliteExecChainHandler.builder().maxWait(Duration.ofSeconds(10)).build()}</pre>
   */
  public static Builder builder() {
    return new Builder();
  }

  /** A builder holding this handler's configuration, to derive another (with fresh keys). */
  public Builder toBuilder() {
    return new Builder(polite.config());
  }

  /**
   * Puts this handler in {@code builder}'s chain in the place of HttpClient's retry handler, which
   * it disables (see the class comment); {@code builder}, to go on with.
   *
   * <pre>{@code CloseableHttpClient client = handler.install(HttpClients.custom()).build();}</pre>
   */
  public HttpClientBuilder install(HttpClientBuilder builder) {
    return Objects.requireNonNull(builder, "builder")
        .disableAutomaticRetries()
        .addExecInterceptorBefore(ChainElement.PROTOCOL.name(), NAME, this);
  }

  /** The polite caller this handler carries HttpClient's calls to; its keys are this one's. */
  @Override
  public Polite polite() {
    return polite;
  }

  @Override
  public ClassicHttpResponse execute(ClassicHttpRequest request, ExecChain.Scope scope,
      ExecChain chain) throws IOException, HttpException {
    ChainAttempts attempts = new ChainAttempts(request, scope, chain);
    try {
      return polite.call(attempts, ResponseTimeout.nanosOf(scope.clientContext), attempts, attempts);
    } catch (ProtocolFailure e) {
      throw e.getCause();
    } catch (IOException e) {
      if (attempts.getAsBoolean() && !(e instanceof RequestFailedException)
          && !(e instanceof RateLimitedException)) {
        // HttpClient's word for a cancelled request, whether it waited or was on the wire: its
        // retry handler, which polite replaces, says it so
        throw new RequestFailedException("Request aborted", e);
      }
      throw e;
    }
  }

  /**
   * Lets go of an answer polite does not return: its body read to the end and the response
   * closed, as HttpClient's {@code RedirectExec} drops one, so that its connection goes back to
   * the pool; when reading fails, closing discards the connection instead.
   */
  static void release(ClassicHttpResponse response) {
    try {
      EntityUtils.consume(response.getEntity());
    } catch (IOException brokenBody) {
      // the close below discards the connection
    } finally {
      try {
        response.close();
      } catch (IOException ignored) {
        // nothing more to let go of
      }
    }
  }

  @Override
  public String toString() {
    return "PoliteExecChainHandler{" + polite.config() + '}';
  }

  /**
   * A call as polite sees it (its request's view), its attempts down the rest of HttpClient's
   * chain, each a copy of the request (the handlers below add headers to what they are given),
   * each answer judged as it comes back and released when polite does not keep it; and whether the
   * request was cancelled. One object per call.
   */
  private static final class ChainAttempts extends ChainRequestView
      implements Exchange<ClassicHttpResponse>, BooleanSupplier {
    private final ClassicHttpRequest request;
    private final ExecChain.Scope scope;
    private final ExecChain chain;

    ChainAttempts(ClassicHttpRequest request, ExecChain.Scope scope, ExecChain chain) {
      this.request = request;
      this.scope = scope;
      this.chain = chain;
    }

    @Override
    ClassicHttpRequest request() {
      return request;
    }

    @Override
    HttpContext context() {
      return scope.clientContext;
    }

    @Override
    public boolean bodyRepeatable() {
      HttpEntity entity = request.getEntity();
      return entity == null || entity.isRepeatable();
    }

    @Override
    public ClassicHttpResponse send(Judge judge) throws IOException {
      ClassicHttpResponse response;
      try {
        response = chain.proceed(ClassicRequestBuilder.copy(request).build(), scope);
      } catch (HttpException e) {
        throw new ProtocolFailure(e);
      }
      judge.keep(new ChainResponseView(response));
      return response;
    }

    @Override
    public void discard(ClassicHttpResponse response) {
      release(response);
    }

    /** Whether the request was cancelled ({@code HttpUriRequestBase.cancel()}): every wait polls it. */
    @Override
    public boolean getAsBoolean() {
      return scope.execRuntime.isExecutionAborted();
    }
  }

  /**
   * HttpClient's protocol failure, carried through polite's core unchecked: the core retries
   * {@link IOException}s, and HttpClient retries no {@link HttpException}, so polite does not
   * either. Unwrapped as it leaves the handler.
   */
  private static final class ProtocolFailure extends RuntimeException {
    private static final long serialVersionUID = 1L;

    ProtocolFailure(HttpException cause) {
      super(cause);
    }

    @Override
    public synchronized HttpException getCause() {
      return (HttpException) super.getCause();
    }
  }

  /**
   * Configures a {@link PoliteExecChainHandler}: every option of {@link PoliteBuilder}. Not
   * thread-safe; the handler it builds is.
   *
   * <pre>{@code
   * PoliteExecChainHandler polite = PoliteExecChainHandler.builder()
   *     .key(RateLimitKey.header("X-Api-Key"))
   *     .maxWait(Duration.ofSeconds(10))
   *     .build();
   * }</pre>
   */
  public static final class Builder extends PoliteBuilder<Builder> {
    private Builder() {}

    private Builder(PoliteConfig config) {
      super(config);
    }

    /** The handler; each has its own keys, and its own copy of this configuration. */
    public PoliteExecChainHandler build() {
      return new PoliteExecChainHandler(buildPolite());
    }
  }
}
