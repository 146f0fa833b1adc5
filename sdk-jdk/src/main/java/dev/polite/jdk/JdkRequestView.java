package dev.polite.jdk;

import dev.polite.RequestView;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpRequest.BodyPublisher;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * A JDK {@link HttpRequest} as polite reads it: its method, URI and headers, the hints of a
 * {@link HintedRequest}, and whether its body can be sent again.
 *
 * <h2>Which bodies can be sent again</h2>
 * The JDK's own publishers that hold their content: {@code BodyPublishers.noBody()},
 * {@code ofString}, {@code ofByteArray} (and its slice), {@code ofByteArrays} and {@code ofFile}.
 * Not: {@code ofInputStream} (its supplier may hand the same stream twice), {@code fromPublisher},
 * {@code concat}, or a publisher of your own. A request that cannot be sent again is sent once,
 * whatever its answer: polite hands back a refusal of it rather than resend it.
 *
 * <pre>{@code String key = RateLimitKey.host().keyOf(JdkRequestView.of(request));}</pre>
 *
 * <p>Immutable. Not to be extended outside this package (its constructor is the package's):
 * {@link PoliteHttpClient}'s own view of a call is one, so that a call makes one object, not two.
 */
public abstract class JdkRequestView implements RequestView {
  /** The JDK's publishers (jdk.internal.net.http.RequestPublishers) that can be read again. */
  private static final Set<String> REPEATABLE = Set.of("ByteArrayPublisher", "StringPublisher",
      "EmptyPublisher", "FilePublisher", "IterablePublisher");
  private static final String JDK_PUBLISHERS = "jdk.internal.net.http.RequestPublishers$";

  JdkRequestView() {}

  /** The view of {@code request}. */
  public static JdkRequestView of(HttpRequest request) {
    return new Plain(Objects.requireNonNull(request, "request"));
  }

  /** The JDK request behind this view. */
  public abstract HttpRequest request();

  @Override
  public final String method() {
    return request().method();
  }

  @Override
  public final URI uri() {
    return request().uri();
  }

  @Override
  public final @Nullable String header(String name) {
    return request().headers().firstValue(name).orElse(null);
  }

  @Override
  public final <T> @Nullable T tag(Class<? extends T> type) {
    return request() instanceof HintedRequest hinted ? hinted.hint(type) : null;
  }

  @Override
  public final boolean bodyRepeatable() {
    Optional<BodyPublisher> body = request().bodyPublisher();
    return body.isEmpty() || repeatable(body.get());
  }

  /** Whether {@code body} is one of the JDK's publishers that hold their content. */
  static boolean repeatable(BodyPublisher body) {
    String name = body.getClass().getName();
    return name.startsWith(JDK_PUBLISHERS)
        && REPEATABLE.contains(name.substring(JDK_PUBLISHERS.length()));
  }

  @Override
  public final <T> @Nullable T unwrap(Class<T> type) {
    return type.isInstance(request()) ? type.cast(request()) : null;
  }

  @Override
  public final String toString() {
    return RequestView.redacted(this);
  }

  /** A view holding its request. */
  private static final class Plain extends JdkRequestView {
    private final HttpRequest request;

    Plain(HttpRequest request) {
      this.request = request;
    }

    @Override
    public HttpRequest request() {
      return request;
    }
  }
}
