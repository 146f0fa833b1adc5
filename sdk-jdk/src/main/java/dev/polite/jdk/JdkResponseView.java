package dev.polite.jdk;

import dev.polite.HeaderLines;
import dev.polite.ResponseView;
import java.net.http.HttpHeaders;
import java.net.http.HttpResponse.ResponseInfo;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A JDK answer as polite reads it, from the {@link ResponseInfo} its body handler is given before
 * any of the body is read: its status, and its headers laid out line by line (the JDK keeps them
 * as a map of names, in name order, each name's lines in the order they came).
 *
 * <pre>{@code RateLimitSignals s = RateLimitHeaders.standard().parse(JdkResponseView.of(response));}</pre>
 *
 * <p>Immutable; the lines are laid out once, when first read.
 */
public final class JdkResponseView implements ResponseView, HeaderLines {
  private final int status;
  private final HttpHeaders headers;
  private final @Nullable ResponseInfo info;
  private String @Nullable [] lines;

  private JdkResponseView(int status, HttpHeaders headers, @Nullable ResponseInfo info) {
    this.status = status;
    this.headers = headers;
    this.info = info;
  }

  /** The view of the answer {@code info} describes. */
  public static JdkResponseView of(ResponseInfo info) {
    Objects.requireNonNull(info, "info");
    return new JdkResponseView(info.statusCode(), info.headers(), info);
  }

  /** The view of {@code response}. */
  public static JdkResponseView of(java.net.http.HttpResponse<?> response) {
    Objects.requireNonNull(response, "response");
    return new JdkResponseView(response.statusCode(), response.headers(), null);
  }

  @Override
  public int status() {
    return status;
  }

  @Override
  public HeaderLines headers() {
    return this;
  }

  @Override
  public @Nullable String header(String name) {
    return headers.firstValue(name).orElse(null);
  }

  @Override
  public @Nullable String first(String name) {
    return headers.firstValue(name).orElse(null);
  }

  @Override
  public List<String> values(String name) {
    return headers.allValues(name);
  }

  @Override
  public int size() {
    return lines().length / 2;
  }

  @Override
  public String name(int index) {
    return lines()[2 * index];
  }

  @Override
  public String value(int index) {
    return lines()[2 * index + 1];
  }

  /** Names and values in pairs, laid out at the first read. */
  private String[] lines() {
    String[] laid = lines;
    if (laid == null) {
      int count = 0;
      for (List<String> values : headers.map().values()) {
        count += values.size();
      }
      laid = new String[2 * count];
      int i = 0;
      for (Map.Entry<String, List<String>> field : headers.map().entrySet()) {
        for (String value : field.getValue()) {
          laid[i++] = field.getKey();
          laid[i++] = value;
        }
      }
      lines = laid;
    }
    return laid;
  }

  @Override
  public <T> @Nullable T unwrap(Class<T> type) {
    return type.isInstance(info) ? type.cast(info) : null;
  }

  @Override
  public String toString() {
    return "JdkResponseView{" + status + '}';
  }
}
