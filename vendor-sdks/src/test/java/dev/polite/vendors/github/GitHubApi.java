package dev.polite.vendors.github;

import dev.polite.vendors.LoopbackServer.Api;
import dev.polite.vendors.LoopbackServer.Exchange;
import dev.polite.vendors.LoopbackServer.Reply;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A stand-in for api.github.com, answering as its REST API documents and as captured answers show
 * (reference/header-dialects.md §3.1): every answer carries {@code x-ratelimit-limit},
 * {@code -remaining}, {@code -used}, {@code -reset} (epoch seconds) and {@code -resource}; a spent
 * primary limit is a 403 with remaining 0 and the reset; a secondary limit is a 403 with
 * {@code retry-after} while remaining is still high, with the message GitHub sends. The bodies are
 * the JSON github-api parses for {@code getRepository}, {@code searchRepositories} and
 * {@code getRateLimit}.
 *
 * <p>The limits are GitHub's shapes at a scale that runs in seconds: fixed windows per resource
 * (GitHub's {@code core} is 5,000 an hour; here 20 per 2 s, {@code search} 5 per 2 s), aligned to
 * the epoch's even seconds so that the whole-second reset GitHub sends is exact; and the secondary
 * limit GitHub documents as "no more than N concurrent requests", here 2. {@link #spentQuota}
 * makes {@code core} a quota spent for the next hour, as a token that ran out is.
 */
public final class GitHubApi implements Api {
  /** GitHub's documentation link for primary limits, as its 403 body carries it. */
  static final String PRIMARY_DOCS = "https://docs.github.com/rest/overview/rate-limits-for-the-rest-api";

  private final FixedWindow core;
  private final FixedWindow search;
  private final int maxInFlight;
  private final Duration serviceTime;
  private final boolean spentQuota;
  private final AtomicInteger inFlight = new AtomicInteger();
  private final AtomicInteger admitted = new AtomicInteger();
  private final AtomicInteger primaryRefusals = new AtomicInteger();
  private final AtomicInteger secondaryRefusals = new AtomicInteger();
  private final Set<String> userAgents = ConcurrentHashMap.newKeySet();

  private GitHubApi(FixedWindow core, FixedWindow search, int maxInFlight, Duration serviceTime,
      boolean spentQuota) {
    this.core = core;
    this.search = search;
    this.maxInFlight = maxInFlight;
    this.serviceTime = serviceTime;
    this.spentQuota = spentQuota;
  }

  /** The scenario's limits: core 20 and search 5 per 2 s, 2 calls in flight, 15 ms a call. */
  public static GitHubApi scaledDown() {
    return new GitHubApi(new FixedWindow("core", 20, 2_000), new FixedWindow("search", 5, 2_000),
        2, Duration.ofMillis(15), false);
  }

  /** A {@code core} quota spent until an hour from now. */
  public static GitHubApi spentQuota() {
    return new GitHubApi(new FixedWindow("core", 5_000, 3_600_000),
        new FixedWindow("search", 30, 60_000), 100, Duration.ZERO, true);
  }

  @Override
  public Reply answer(Exchange request) throws InterruptedException {
    userAgents.add(String.valueOf(request.header("user-agent")));
    if (request.path().equals("/rate_limit")) {
      return Reply.json(200, Map.of(), rateLimitBody()); // GitHub: /rate_limit costs nothing
    }
    FixedWindow budget = request.path().startsWith("/search/") ? search : core;
    int flying = inFlight.incrementAndGet();
    try {
      long now = System.currentTimeMillis();
      if (flying > maxInFlight) {
        secondaryRefusals.incrementAndGet();
        Map<String, String> headers = budget.headers(now);
        headers.put("retry-after", "1");
        return Reply.json(403, headers, GitHubBodies.secondaryLimit());
      }
      if (spentQuota && budget == core) {
        primaryRefusals.incrementAndGet();
        return Reply.json(403, FixedWindow.spentHeaders("core", 5_000, now + 3_600_000),
            GitHubBodies.primaryLimit(PRIMARY_DOCS));
      }
      Map<String, String> headers = budget.take(now);
      if (headers == null) {
        primaryRefusals.incrementAndGet();
        return Reply.json(403, budget.headers(now), GitHubBodies.primaryLimit(PRIMARY_DOCS));
      }
      admitted.incrementAndGet();
      Thread.sleep(serviceTime.toMillis());
      String body = budget == search ? GitHubBodies.searchResult() : GitHubBodies.repository(
          request.path().substring("/repos/".length()));
      return Reply.json(200, headers, body);
    } finally {
      inFlight.decrementAndGet();
    }
  }

  private String rateLimitBody() {
    long now = System.currentTimeMillis();
    // github-api requires all four records (GHRateLimit's constructor checks them).
    String untouched = "{\"limit\":5000,\"used\":0,\"remaining\":5000,\"reset\":"
        + (now / 1000 + 3600) + "}";
    return "{\"resources\":{\"core\":" + core.record(now) + ",\"search\":" + search.record(now)
        + ",\"graphql\":" + untouched + ",\"integration_manifest\":" + untouched
        + "},\"rate\":" + core.record(now) + "}";
  }

  /** Calls answered 200. */
  public int admitted() {
    return admitted.get();
  }

  /** 403s for a spent primary limit (remaining 0) and for the secondary limit, together. */
  public int refusals() {
    return primaryRefusals.get() + secondaryRefusals.get();
  }

  public int secondaryRefusals() {
    return secondaryRefusals.get();
  }

  /** Every {@code User-Agent} the requests came with ("null" for none): which client sent them. */
  public Set<String> userAgents() {
    return Set.copyOf(userAgents);
  }

  /** Headers of a quota, ordered as GitHub sends them. */
  static Map<String, String> rateHeaders(String resource, long limit, long remaining, long resetEpochSeconds) {
    Map<String, String> h = new LinkedHashMap<>();
    h.put("x-ratelimit-limit", Long.toString(limit));
    h.put("x-ratelimit-remaining", Long.toString(remaining));
    h.put("x-ratelimit-reset", Long.toString(resetEpochSeconds));
    h.put("x-ratelimit-used", Long.toString(limit - remaining));
    h.put("x-ratelimit-resource", resource);
    return h;
  }
}
