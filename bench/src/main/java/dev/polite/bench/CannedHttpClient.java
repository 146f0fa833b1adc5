package dev.polite.bench;

import java.net.Authenticator;
import java.net.CookieHandler;
import java.net.ProxySelector;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandler;
import java.net.http.HttpResponse.BodySubscriber;
import java.net.http.HttpResponse.PushPromiseHandler;
import java.net.http.HttpResponse.ResponseInfo;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.Flow;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSession;

/**
 * A JDK {@link HttpClient} with no network behind it, the JDK client's counterpart of
 * {@link CannedChain}: {@code send} hands the caller's body handler the canned answer's status
 * and headers, as the JDK does before reading a body, and returns the canned answer at once. The
 * answer is a 200 with ordinary headers and IETF draft-11 quota fields advertising {@code quota}
 * a second, nearly all remaining, as {@link CannedChain#ietf200}'s.
 */
final class CannedHttpClient extends HttpClient {
  private final HttpRequest request;
  private final Answer answer;

  CannedHttpClient(long quota) {
    this.request = HttpRequest.newBuilder(URI.create("https://api.example.com/v1/items?page=2")).build();
    Map<String, List<String>> headers = new LinkedHashMap<>();
    headers.put("Date", List.of(Responses.DATE));
    headers.put("Content-Type", List.of("application/json; charset=utf-8"));
    headers.put("Content-Length", List.of("17"));
    headers.put("Cache-Control", List.of("no-store"));
    headers.put("Vary", List.of("Accept-Encoding"));
    headers.put("Server", List.of("bench"));
    headers.put("RateLimit-Policy", List.of("\"default\";q=" + quota + ";w=1"));
    headers.put("RateLimit", List.of("\"default\";r=" + (quota - 1) + ";t=1"));
    this.answer = new Answer(request, HttpHeaders.of(headers, (name, value) -> true));
  }

  /** The request every benchmark sends. */
  HttpRequest request() {
    return request;
  }

  @Override
  @SuppressWarnings("unchecked")
  public <T> HttpResponse<T> send(HttpRequest request, BodyHandler<T> handler) {
    // The JDK asks the handler before any body (polite judges there), then feeds its subscriber
    // the body (none here) to its end.
    BodySubscriber<T> body = handler.apply(answer);
    body.onSubscribe(NO_BODY);
    body.onComplete();
    body.getBody().toCompletableFuture().join();
    return (HttpResponse<T>) answer;
  }

  /** The subscription of an empty body: nothing to request, nothing to cancel. */
  private static final Flow.Subscription NO_BODY = new Flow.Subscription() {
    @Override
    public void request(long n) {}

    @Override
    public void cancel() {}
  };

  @Override
  public <T> CompletableFuture<HttpResponse<T>> sendAsync(HttpRequest request, BodyHandler<T> handler) {
    return CompletableFuture.completedFuture(send(request, handler));
  }

  @Override
  public <T> CompletableFuture<HttpResponse<T>> sendAsync(HttpRequest request,
      BodyHandler<T> handler, PushPromiseHandler<T> pushPromises) {
    return sendAsync(request, handler);
  }

  @Override public Optional<CookieHandler> cookieHandler() { return Optional.empty(); }
  @Override public Optional<Duration> connectTimeout() { return Optional.empty(); }
  @Override public Redirect followRedirects() { return Redirect.NEVER; }
  @Override public Optional<ProxySelector> proxy() { return Optional.empty(); }
  @Override public SSLContext sslContext() { return null; }
  @Override public SSLParameters sslParameters() { return new SSLParameters(); }
  @Override public Optional<Authenticator> authenticator() { return Optional.empty(); }
  @Override public Version version() { return Version.HTTP_1_1; }
  @Override public Optional<Executor> executor() { return Optional.empty(); }

  /** The canned answer: its status and headers, and no body. */
  private record Answer(HttpRequest request, HttpHeaders headers)
      implements HttpResponse<Object>, ResponseInfo {
    @Override public int statusCode() { return 200; }
    @Override public Optional<HttpResponse<Object>> previousResponse() { return Optional.empty(); }
    @Override public Object body() { return null; }
    @Override public Optional<SSLSession> sslSession() { return Optional.empty(); }
    @Override public URI uri() { return request.uri(); }
    @Override public Version version() { return Version.HTTP_1_1; }
  }

}
