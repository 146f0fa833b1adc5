package dev.polite.bench;

import java.net.Proxy;
import java.net.ProxySelector;
import java.util.concurrent.TimeUnit;
import javax.net.SocketFactory;
import javax.net.ssl.HostnameVerifier;
import javax.net.ssl.SSLSocketFactory;
import javax.net.ssl.X509TrustManager;
import okhttp3.Authenticator;
import okhttp3.Cache;
import okhttp3.Call;
import okhttp3.CertificatePinner;
import okhttp3.Connection;
import okhttp3.ConnectionPool;
import okhttp3.CookieJar;
import okhttp3.Dns;
import okhttp3.EventListener;
import okhttp3.Headers;
import okhttp3.Interceptor;
import okhttp3.MediaType;
import okhttp3.OkHttpClient;
import okhttp3.Protocol;
import okhttp3.Request;
import okhttp3.Response;
import okhttp3.ResponseBody;

/**
 * An application interceptor's chain with no network behind it: {@link #proceed} answers a
 * prebuilt response at once. {@link #call()} is a real, never executed OkHttp call, so that what
 * an interceptor reads from it (its timeout, whether it is cancelled) is what it reads in use.
 * Everything else answers the client's defaults.
 */
final class CannedChain implements Interceptor.Chain {
  private final OkHttpClient client;
  private final Request request;
  private final Call call;
  private final Response response;

  /**
   * A GET answered by a 200 with ordinary headers and IETF draft-11 quota fields advertising
   * {@code quota} a second, nearly all remaining: a pace so fast that nobody ever waits for it.
   */
  static CannedChain ietf200(long quota) {
    Request request = new Request.Builder().url("https://api.example.com/v1/items?page=2").build();
    Response response = new Response.Builder()
        .request(request)
        .protocol(Protocol.HTTP_1_1)
        .code(200)
        .message("OK")
        .headers(new Headers.Builder()
            .add("Date", Responses.DATE)
            .add("Content-Type", "application/json; charset=utf-8")
            .add("Content-Length", "17")
            .add("Cache-Control", "no-store")
            .add("Vary", "Accept-Encoding")
            .add("Server", "bench")
            .add("RateLimit-Policy", "\"default\";q=" + quota + ";w=1")
            .add("RateLimit", "\"default\";r=" + (quota - 1) + ";t=1")
            .build())
        .body(ResponseBody.create("{\"ok\":true,\"n\":1}", MediaType.get("application/json")))
        .sentRequestAtMillis(Responses.NOW_MILLIS)
        .receivedResponseAtMillis(Responses.NOW_MILLIS)
        .build();
    return new CannedChain(new OkHttpClient(), request, response);
  }

  CannedChain(OkHttpClient client, Request request, Response response) {
    this.client = client;
    this.request = request;
    this.call = client.newCall(request);
    this.response = response;
  }

  @Override public Request request() { return request; }

  @Override public Response proceed(Request request) { return response; }

  /** Null, as for an application interceptor. */
  @Override public Connection connection() { return null; }

  @Override public Call call() { return call; }

  @Override public int connectTimeoutMillis() { return client.connectTimeoutMillis(); }
  @Override public int readTimeoutMillis() { return client.readTimeoutMillis(); }
  @Override public int writeTimeoutMillis() { return client.writeTimeoutMillis(); }
  @Override public Interceptor.Chain withConnectTimeout(int t, TimeUnit u) { return this; }
  @Override public Interceptor.Chain withReadTimeout(int t, TimeUnit u) { return this; }
  @Override public Interceptor.Chain withWriteTimeout(int t, TimeUnit u) { return this; }

  @Override public boolean getFollowSslRedirects() { return client.followSslRedirects(); }
  @Override public boolean getFollowRedirects() { return client.followRedirects(); }
  @Override public Dns getDns() { return client.dns(); }
  @Override public Interceptor.Chain withDns(Dns dns) { return this; }
  @Override public SocketFactory getSocketFactory() { return client.socketFactory(); }
  @Override public Interceptor.Chain withSocketFactory(SocketFactory f) { return this; }
  @Override public boolean getRetryOnConnectionFailure() { return client.retryOnConnectionFailure(); }
  @Override public Interceptor.Chain withRetryOnConnectionFailure(boolean r) { return this; }
  @Override public Authenticator getAuthenticator() { return client.authenticator(); }
  @Override public Interceptor.Chain withAuthenticator(Authenticator a) { return this; }
  @Override public CookieJar getCookieJar() { return client.cookieJar(); }
  @Override public Interceptor.Chain withCookieJar(CookieJar j) { return this; }
  @Override public Cache getCache() { return client.cache(); }
  @Override public Interceptor.Chain withCache(Cache c) { return this; }
  @Override public Proxy getProxy() { return client.proxy(); }
  @Override public Interceptor.Chain withProxy(Proxy p) { return this; }
  @Override public ProxySelector getProxySelector() { return client.proxySelector(); }
  @Override public Interceptor.Chain withProxySelector(ProxySelector s) { return this; }
  @Override public Authenticator getProxyAuthenticator() { return client.proxyAuthenticator(); }
  @Override public Interceptor.Chain withProxyAuthenticator(Authenticator a) { return this; }
  @Override public SSLSocketFactory getSslSocketFactoryOrNull() { return null; }
  @Override public Interceptor.Chain withSslSocketFactory(SSLSocketFactory f, X509TrustManager m) { return this; }
  @Override public X509TrustManager getX509TrustManagerOrNull() { return null; }
  @Override public HostnameVerifier getHostnameVerifier() { return client.hostnameVerifier(); }
  @Override public Interceptor.Chain withHostnameVerifier(HostnameVerifier v) { return this; }
  @Override public CertificatePinner getCertificatePinner() { return client.certificatePinner(); }
  @Override public Interceptor.Chain withCertificatePinner(CertificatePinner p) { return this; }
  @Override public ConnectionPool getConnectionPool() { return client.connectionPool(); }
  @Override public Interceptor.Chain withConnectionPool(ConnectionPool p) { return this; }
  @Override public EventListener getEventListener() { return EventListener.NONE; }
}
