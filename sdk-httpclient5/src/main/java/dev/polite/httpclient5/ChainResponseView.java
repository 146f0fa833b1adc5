package dev.polite.httpclient5;

import dev.polite.HeaderLines;
import dev.polite.ResponseView;
import java.util.ArrayList;
import java.util.List;
import org.apache.hc.core5.http.Header;
import org.apache.hc.core5.http.HttpResponse;
import org.jspecify.annotations.Nullable;

/**
 * An HttpClient 5 answer as polite reads it, as it comes up the chain before any of its body is
 * read: its status, and its header lines in the order they came. The lines are asked of the
 * answer once, at the first read by index ({@code getHeaders()} copies them); a single name is
 * looked up in place.
 *
 * <p>Read by one thread at a time.
 */
final class ChainResponseView implements ResponseView, HeaderLines {
  private final HttpResponse response;
  private Header @Nullable [] lines;

  ChainResponseView(HttpResponse response) {
    this.response = response;
  }

  @Override
  public int status() {
    return response.getCode();
  }

  @Override
  public HeaderLines headers() {
    return this;
  }

  @Override
  public @Nullable String header(String name) {
    return first(name);
  }

  @Override
  public @Nullable String first(String name) {
    Header header = response.getFirstHeader(name);
    return header == null ? null : header.getValue();
  }

  @Override
  public List<String> values(String name) {
    Header[] named = response.getHeaders(name);
    if (named.length == 0) {
      return List.of();
    }
    List<String> values = new ArrayList<>(named.length);
    for (Header header : named) {
      values.add(header.getValue());
    }
    return List.copyOf(values);
  }

  @Override
  public int size() {
    return lines().length;
  }

  @Override
  public String name(int index) {
    return lines()[index].getName();
  }

  @Override
  public String value(int index) {
    return lines()[index].getValue();
  }

  private Header[] lines() {
    Header[] laid = lines;
    if (laid == null) {
      lines = laid = response.getHeaders();
    }
    return laid;
  }

  @Override
  public <T> @Nullable T unwrap(Class<T> type) {
    return type.isInstance(response) ? type.cast(response) : null;
  }

  @Override
  public String toString() {
    return "ChainResponseView{" + response.getCode() + '}';
  }
}
