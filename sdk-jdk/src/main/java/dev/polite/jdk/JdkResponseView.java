package dev.polite.jdk;

import dev.polite.HeaderLines;
import dev.polite.ResponseView;
import java.net.http.HttpClient;
import java.net.http.HttpHeaders;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.ResponseInfo;
import java.util.List;
import java.util.Objects;
import java.util.function.BiConsumer;
import org.jspecify.annotations.Nullable;

/**
 * A JDK answer as polite reads it, from the {@link ResponseInfo} its body handler is given before
 * any of the body is read: its status, and its headers laid out line by line (the JDK keeps them
 * as a map of names, in name order, each name's lines in the order they came).
 *
 * <pre>{@code RateLimitSignals s = RateLimitHeaders.standard().parse(JdkResponseView.of(response));}</pre>
 *
 * <p>polite reads the lines once each, walking the JDK's map as it is
 * ({@link #forEachLine}); they are laid out one by one only when asked by index. Read by one
 * thread at a time.
 */
public final class JdkResponseView
    implements ResponseView, HeaderLines, BiConsumer<String, List<String>> {
  private final ResponseInfo info;
  private String @Nullable [] lines;
  // The walk in progress: who reads, and the next line's index.
  private @Nullable LineReader reader;
  private int walked;

  private JdkResponseView(ResponseInfo info) {
    this.info = info;
  }

  /** The view of the answer {@code info} describes. */
  public static JdkResponseView of(ResponseInfo info) {
    return new JdkResponseView(Objects.requireNonNull(info, "info"));
  }

  /** The view of {@code response}. */
  public static JdkResponseView of(HttpResponse<?> response) {
    Objects.requireNonNull(response, "response");
    return new JdkResponseView(new ResponseInfo() {
      @Override
      public int statusCode() {
        return response.statusCode();
      }

      @Override
      public HttpHeaders headers() {
        return response.headers();
      }

      @Override
      public HttpClient.Version version() {
        return response.version();
      }
    });
  }

  @Override
  public int status() {
    return info.statusCode();
  }

  @Override
  public HeaderLines headers() {
    return this;
  }

  @Override
  public @Nullable String header(String name) {
    return info.headers().firstValue(name).orElse(null);
  }

  @Override
  public @Nullable String first(String name) {
    return info.headers().firstValue(name).orElse(null);
  }

  @Override
  public List<String> values(String name) {
    return info.headers().allValues(name);
  }

  /**
   * Hands each line to {@code reader} as the JDK's map holds them (names in order, each name's
   * values in the order they came), with the index {@link #name} and {@link #value} give it.
   * {@code forEach}, which the JDK's read-only map hands straight to the map under it: iterating
   * instead would make iterators, and wrap each entry, on every answer.
   */
  /** Not by index: the JDK keeps headers as a map of names. */
  @Override
  public boolean indexed() {
    return false;
  }

  @Override
  public void forEachLine(LineReader reader) {
    this.reader = reader;
    walked = 0;
    try {
      info.headers().map().forEach(this);
    } finally {
      this.reader = null;
    }
  }

  /** One name of the walk: its lines, to the reader. */
  @Override
  public void accept(String name, List<String> values) {
    LineReader to = Objects.requireNonNull(reader);
    for (int i = 0, n = values.size(); i < n; i++) {
      to.line(walked++, name, values.get(i));
    }
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

  /** Names and values in pairs, laid out at the first read by index. */
  private String[] lines() {
    String[] laid = lines;
    if (laid == null) {
      int count = 0;
      for (List<String> values : info.headers().map().values()) {
        count += values.size();
      }
      String[] out = new String[2 * count];
      forEachLine((index, name, value) -> {
        out[2 * index] = name;
        out[2 * index + 1] = value;
      });
      lines = laid = out;
    }
    return laid;
  }

  @Override
  public <T> @Nullable T unwrap(Class<T> type) {
    return type.isInstance(info) ? type.cast(info) : null;
  }

  @Override
  public String toString() {
    return "JdkResponseView{" + info.statusCode() + '}';
  }
}
