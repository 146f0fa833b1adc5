package dev.polite.vendors.anthropic;

import com.anthropic.core.RequestOptions;
import com.anthropic.core.http.Headers;
import com.anthropic.core.http.HttpClient;
import com.anthropic.core.http.HttpRequest;
import com.anthropic.core.http.HttpRequestBody;
import com.anthropic.core.http.HttpResponse;
import com.anthropic.errors.AnthropicIoException;
import dev.polite.RateLimitedException;
import dev.polite.RequestCost;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import okhttp3.Call;
import okhttp3.Callback;
import okhttp3.MediaType;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.RequestBody;
import okhttp3.Response;
import okio.BufferedSink;
import org.jspecify.annotations.Nullable;

/**
 * The SDK's {@link HttpClient} that {@link PoliteAnthropicInterceptor} puts in front of the next
 * one: each attempt becomes an OkHttp request through polite's chain (the same method, URL and
 * headers, so that polite's key and cost functions see what the SDK sends; the body is never
 * written there, {@link HandBack} sends the SDK's own), with the SDK's request timeout as the
 * call's deadline, so that polite never waits past it.
 */
final class PacedHttpClient implements HttpClient {
  private static final String NO_RETRY = "x-should-retry";

  private final HttpClient next;
  private final OkHttpClient chain;
  private final boolean budgetsTokens;
  private final boolean settles;
  private final boolean sdkRetriesRefusals;

  PacedHttpClient(HttpClient next, OkHttpClient chain, boolean budgetsTokens, boolean settles,
      boolean sdkRetriesRefusals) {
    this.next = next;
    this.chain = chain;
    this.budgetsTokens = budgetsTokens;
    this.settles = settles;
    this.sdkRetriesRefusals = sdkRetriesRefusals;
  }

  @Override
  public HttpResponse execute(HttpRequest request, RequestOptions options) {
    RequestCost cost = reservation(request);
    Call call = call(request, options, cost);
    try {
      return answer(call.execute(), cost);
    } catch (IOException e) {
      throw failure(e);
    }
  }

  /**
   * An attempt's failure as the SDK's transport throws it ({@link AnthropicIoException}, which the
   * SDK retries), except polite's refusal to send on a key paused past its max wait: retrying it
   * would only sleep the SDK's backoff and be refused again, so unless the SDK may retry refusals
   * it leaves as an {@link UncheckedIOException}, which the SDK passes to the caller at once.
   */
  private RuntimeException failure(IOException e) {
    if (e instanceof RateLimitedException && !sdkRetriesRefusals) {
      return new UncheckedIOException(e);
    }
    return new AnthropicIoException("Request failed", e); // as the SDK's own transport throws
  }

  @Override
  public CompletableFuture<HttpResponse> executeAsync(HttpRequest request, RequestOptions options) {
    RequestCost cost = reservation(request);
    Call call = call(request, options, cost);
    CompletableFuture<HttpResponse> future = new CompletableFuture<>();
    call.enqueue(new Callback() {
      @Override
      public void onResponse(Call c, Response response) {
        try {
          future.complete(answer(response, cost));
        } catch (IOException e) {
          future.completeExceptionally(failure(e));
        }
      }

      @Override
      public void onFailure(Call c, IOException e) {
        future.completeExceptionally(failure(e));
      }
    });
    future.whenComplete((r, e) -> {
      if (future.isCancelled()) {
        call.cancel();
      }
    });
    return future;
  }

  @Override
  public void close() {
    next.close();
    chain.dispatcher().executorService().shutdown();
  }

  private @Nullable RequestCost reservation(HttpRequest request) {
    if (!budgetsTokens) {
      return null;
    }
    OptionalLong tokens = TokenUsage.reservation(request);
    return tokens.isPresent() && tokens.getAsLong() > 0 ? RequestCost.reserve(tokens.getAsLong()) : null;
  }

  private Call call(HttpRequest request, RequestOptions options, @Nullable RequestCost cost) {
    Request.Builder mirror = new Request.Builder().url(request.url())
        .tag(SdkAttempt.class, new SdkAttempt(next, request, options));
    for (String name : request.headers().names()) {
      for (String value : request.headers().values(name)) {
        mirror.addHeader(name, value);
      }
    }
    String method = request.method().name();
    boolean needsBody = method.equals("POST") || method.equals("PUT") || method.equals("PATCH");
    mirror.method(method, request.body().map(PacedHttpClient::unsent)
        .orElse(needsBody ? RequestBody.create(new byte[0]) : null));
    if (cost != null) {
      mirror.tag(RequestCost.class, cost);
    }
    Call call = chain.newCall(mirror.build());
    options.timeout().ifPresent(t -> call.timeout().timeout(t.request().toMillis(), TimeUnit.MILLISECONDS));
    return call;
  }

  /** The SDK's body as OkHttp sees it: its type and length, written only if someone asks. */
  private static RequestBody unsent(HttpRequestBody body) {
    String type = body.contentType();
    return new RequestBody() {
      @Override
      public @Nullable MediaType contentType() {
        return type == null ? null : MediaType.parse(type);
      }

      @Override
      public long contentLength() {
        return body.contentLength();
      }

      @Override
      public void writeTo(BufferedSink sink) {
        body.writeTo(sink.outputStream());
      }
    };
  }

  /**
   * The answer polite returned, as the SDK's: the reservation settled from its usage (a refusal
   * used nothing), and a 429 polite gave back marked for the SDK not to retry, unless it may.
   */
  private HttpResponse answer(Response response, @Nullable RequestCost cost) throws IOException {
    byte[] buffered = null;
    if (cost != null && settles) {
      if (response.isSuccessful() && !isStream(response)) {
        buffered = response.body().bytes(); // a Messages answer is small; its usage is in it
        OptionalLong used = TokenUsage.used(buffered);
        cost.settle(used.isPresent() ? used.getAsLong() : cost.units());
      } else if (response.code() >= 400) {
        cost.settle(0); // refused before any token was read or written
      } // a stream stays charged in full: its usage comes at its end
    }
    Headers.Builder headers = Headers.builder();
    for (String name : response.headers().names()) {
      headers.put(name, response.headers(name));
    }
    if (response.code() == 429 && !sdkRetriesRefusals) {
      headers.replace(NO_RETRY, "false");
    }
    return new SdkResponse(response, headers.build(), buffered);
  }

  private static boolean isStream(Response response) {
    String type = response.header("Content-Type");
    return type != null && type.startsWith("text/event-stream");
  }

  /** An OkHttp answer as the SDK reads one. */
  private record SdkResponse(Response response, Headers headers, byte @Nullable [] bytes)
      implements HttpResponse {
    @Override
    public int statusCode() {
      return response.code();
    }

    @Override
    public InputStream body() {
      return bytes != null ? new ByteArrayInputStream(bytes) : response.body().byteStream();
    }

    @Override
    public void close() {
      response.close();
    }
  }
}
