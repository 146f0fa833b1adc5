package dev.polite.examples.load;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.polite.examples.clients.SentAttempt;
import java.util.List;

/**
 * What one client achieved in one run: the contract's numbers (the JSON line that scripts and
 * tests read) and the attempts behind them (what the report draws).
 *
 * <p>Usage: {@code System.out.println(result.toJson(mapper));}
 *
 * @param client the client's command-line name, such as {@code polite}
 * @param requests calls made (each may have been sent several times)
 * @param succeeded calls that ended in a 2xx answer
 * @param rejected rate-limit rejections received, over all attempts
 * @param sent attempts put on the wire, counted where they happen (see
 *     {@link dev.polite.examples.clients.WireCount#sent()}): every request written to a connection
 *     the server had not closed, answered or not, the client's retries and the engine's own silent
 *     re-sends included
 * @param retries attempts beyond each call's first, summed over the calls: the client's own and
 *     the engine's silent re-sends alike (counted per call, so never negative: a call dropped
 *     before it left adds nothing; {@code sent - requests} when no call was dropped)
 * @param failed calls that ended in an exception instead of an answer, local drops not included
 * @param dropped calls an adaptive throttle refused on the client
 *     ({@link dev.polite.adaptive.ThrottledLocallyException}): never sent, so neither a server
 *     rejection nor an attempt
 * @param seconds wall time from the first call's start to the last call's end
 * @param attempts every attempt, in the order sent
 * @param urls what each URL's calls came to, when the calls went to several URLs (in the order
 *     first given, each URL once); empty for a run against one
 * @param staleConnections attempts OkHttp began on a pooled connection the server had already
 *     closed, held back before anything was written and sent again by OkHttp on a new connection:
 *     not in {@code sent}, not retries (see {@link dev.polite.examples.clients.AttemptCounter})
 */
public record RunResult(String client, int requests, int succeeded, long rejected, long sent,
    long retries, int failed, int dropped, double seconds, List<SentAttempt> attempts, List<UrlResult> urls,
    long staleConnections) {

  public RunResult {
    if (retries < 0) {
      throw new IllegalArgumentException("retries: must not be negative, was " + retries);
    }
    if (staleConnections < 0) {
      throw new IllegalArgumentException("staleConnections: must not be negative, was " + staleConnections);
    }
    attempts = List.copyOf(attempts);
    urls = List.copyOf(urls);
  }

  /** A run that met no stale connection. */
  public RunResult(String client, int requests, int succeeded, long rejected, long sent, long retries, int failed,
      int dropped, double seconds, List<SentAttempt> attempts, List<UrlResult> urls) {
    this(client, requests, succeeded, rejected, sent, retries, failed, dropped, seconds, attempts, urls, 0);
  }

  /** A run against one URL: no breakdown. */
  public RunResult(String client, int requests, int succeeded, long rejected, long sent, long retries, int failed,
      int dropped, double seconds, List<SentAttempt> attempts) {
    this(client, requests, succeeded, rejected, sent, retries, failed, dropped, seconds, attempts, List.of());
  }

  /**
   * The contract's JSON object, fields in this order: {@code client, requests, succeeded, failed,
   * rejected, sent, retries, seconds}, then {@code local_drops} only when a throttle dropped calls
   * on the client, {@code stale_connections} only when some attempt met a pooled connection the
   * server had closed, and {@code urls} (each URL's {@link UrlResult#toJsonNode breakdown}) only
   * when the calls went to several URLs (so the contract's fields stay exactly these in every
   * other run).
   */
  public ObjectNode toJsonNode(ObjectMapper mapper) {
    ObjectNode node = mapper.createObjectNode();
    node.put("client", client);
    node.put("requests", requests);
    node.put("succeeded", succeeded);
    node.put("failed", failed);
    node.put("rejected", rejected);
    node.put("sent", sent);
    node.put("retries", retries);
    node.put("seconds", Math.round(seconds * 1000) / 1000.0);
    if (dropped > 0) {
      node.put("local_drops", dropped);
    }
    if (staleConnections > 0) {
      node.put("stale_connections", staleConnections);
    }
    if (!urls.isEmpty()) {
      ArrayNode perUrl = node.putArray("urls");
      urls.forEach(url -> perUrl.add(url.toJsonNode(mapper)));
    }
    return node;
  }

  /** {@link #toJsonNode} on one line. */
  public String toJson(ObjectMapper mapper) {
    try {
      return mapper.writeValueAsString(toJsonNode(mapper));
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new IllegalStateException("an ObjectNode of numbers and a string always serialises", e);
    }
  }

  /**
   * One row of {@code compare}'s table, such as
   * {@code 1. retry at once   5/30 ok  150 rejected  155 requests sent   0.2 s}, the label padded
   * to 28 characters.
   */
  public String tableRow(String label) {
    return tableRow(label, 28);
  }

  /** {@link #tableRow(String)} with the label padded to {@code width}, to line up longer labels. */
  public String tableRow(String label, int width) {
    return String.format(java.util.Locale.ROOT, "%-" + Math.max(1, width) + "s %3d/%d ok  %4d rejected  %4d requests sent  %5.1f s%s",
        label, succeeded, requests, rejected, sent, seconds,
        (failed > 0 ? "  " + failed + " failed" : "") + (dropped > 0 ? "  " + dropped + " dropped locally" : ""));
  }
}
