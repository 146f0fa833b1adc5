package dev.polite.vendors.anthropic;

import com.anthropic.core.http.HttpResponse;
import com.anthropic.errors.AnthropicIoException;
import java.io.IOException;
import java.util.Objects;
import okhttp3.Headers;
import okhttp3.Interceptor;
import okhttp3.MediaType;
import okhttp3.Protocol;
import okhttp3.Response;
import okhttp3.ResponseBody;
import okio.ForwardingSource;
import okio.Okio;

/**
 * The last interceptor of polite's chain in {@link PoliteAnthropicInterceptor}: instead of
 * OkHttp's network, it sends the attempt on the SDK's own transport (its OkHttpClient, timeouts,
 * credentials and backend), and gives polite the answer as an OkHttp response to learn from, pace
 * by and retry on. It never calls {@code chain.proceed}, so OkHttp's own network interceptors never
 * run here: the SDK's transport below does all of that once.
 *
 * <p>The SDK's transport throws {@link AnthropicIoException} (unchecked); it is unwrapped to its
 * {@link IOException}, the only kind that may leave an OkHttp interceptor and the one polite's
 * retry rules judge. Blocking, also for asynchronous calls (it runs on OkHttp's dispatcher then).
 */
final class HandBack implements Interceptor {
  @Override
  public Response intercept(Chain chain) throws IOException {
    SdkAttempt attempt = Objects.requireNonNull(chain.request().tag(SdkAttempt.class),
        "HandBack serves only PoliteAnthropicInterceptor's requests");
    HttpResponse answer;
    try {
      answer = attempt.next().execute(attempt.request(), attempt.options());
    } catch (AnthropicIoException e) {
      throw e.getCause() instanceof IOException io ? io : new IOException(e.getMessage(), e);
    }
    Headers.Builder headers = new Headers.Builder();
    for (String name : answer.headers().names()) {
      for (String value : answer.headers().values(name)) {
        headers.addUnsafeNonAscii(name, value);
      }
    }
    String type = headers.get("Content-Type");
    // Closing the body closes the SDK's answer too, whoever closes it: polite (an attempt it
    // retries) or the SDK (the answer it was given).
    ForwardingSource source = new ForwardingSource(Okio.source(answer.body())) {
      @Override
      public void close() throws IOException {
        try {
          super.close();
        } finally {
          answer.close();
        }
      }
    };
    return new Response.Builder()
        .request(chain.request())
        .protocol(Protocol.HTTP_1_1)
        .code(answer.statusCode())
        .message("")
        .headers(headers.build())
        .body(ResponseBody.create(Okio.buffer(source), type == null ? null : MediaType.parse(type), -1))
        .build();
  }
}
