package dev.polite.examples.load;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Locale;

/**
 * What the calls to one URL of a run came to, when a run spreads its calls over several
 * ({@code load --url A --url B}): one line of the breakdown.
 *
 * <p>Usage: {@code result.urls().forEach(url -> out.println(url.line(width)));}
 *
 * @param url the URL, as given
 * @param calls calls made to it
 * @param succeeded those that ended in a 2xx answer
 * @param failed those that ended in an exception, local drops not included
 * @param refused rate-limit refusals (429, or 403 with a spent limit) its calls met, over all
 *     their attempts
 * @param dropped those an adaptive throttle refused on the client
 * @param seconds from the run's start to the end of the last of its calls
 */
public record UrlResult(String url, int calls, int succeeded, int failed, long refused, int dropped,
    double seconds) {

  /** {@code url, calls, ok, failed, refused, seconds}, then {@code local_drops} only when some were dropped. */
  public ObjectNode toJsonNode(ObjectMapper mapper) {
    ObjectNode node = mapper.createObjectNode();
    node.put("url", url);
    node.put("calls", calls);
    node.put("ok", succeeded);
    node.put("failed", failed);
    node.put("refused", refused);
    node.put("seconds", Math.round(seconds * 1000) / 1000.0);
    if (dropped > 0) {
      node.put("local_drops", dropped);
    }
    return node;
  }

  /**
   * One line of the text breakdown, the URL padded to {@code width}:
   * {@code   http://127.0.0.1:8080/api/search   10 calls  10 ok  0 failed  2 refused   4.1 s}.
   */
  public String line(int width) {
    return String.format(Locale.ROOT, "  %-" + Math.max(1, width) + "s %4d calls %4d ok %4d failed %4d refused %6.1f s%s",
        url, calls, succeeded, failed, refused, seconds, dropped > 0 ? "  " + dropped + " dropped locally" : "");
  }
}
