package dev.polite.bench;

import dev.polite.HeaderLines;
import dev.polite.okhttp.OkHttpResponseView;
import okhttp3.Headers;
import okhttp3.Protocol;
import okhttp3.Request;
import okhttp3.Response;

/**
 * Typical responses of each rate-limit dialect family, as servers send them: the rate-limit
 * fields among the ordinary headers every response carries (the parser walks them all). Values
 * are the vendors' documented examples.
 */
final class Responses {
  /** The instant the responses' {@code Date} names: Tue, 14 Nov 2023 22:13:20 GMT. */
  static final long NOW_MILLIS = 1_700_000_000_000L;
  static final String DATE = "Tue, 14 Nov 2023 22:13:20 GMT";

  private Responses() {}

  /** A response: its status and headers. */
  record Canned(int status, Headers headers) {}

  /** {@code headers} as polite's OkHttp adapter reads them: the lines of a response's view. */
  static HeaderLines lines(Headers headers) {
    Request request = new Request.Builder().url("https://api.example.com/").build();
    Response response = new Response.Builder().request(request).protocol(Protocol.HTTP_1_1)
        .code(200).message("OK").headers(headers).build();
    return OkHttpResponseView.of(response).headers();
  }

  static Canned of(String dialect) {
    return switch (dialect) {
      // draft-ietf-httpapi-ratelimit-headers-11 (era E), what the demo server sends
      case "ietf" -> new Canned(200, common()
          .add("RateLimit-Policy", "\"default\";q=100;w=60")
          .add("RateLimit", "\"default\";r=42;t=18")
          .build());
      // IETF eras B/C, still the most deployed (express-rate-limit, the demo's --headers legacy)
      case "ietfLegacy" -> new Canned(200, common()
          .add("RateLimit-Limit", "100")
          .add("RateLimit-Remaining", "42")
          .add("RateLimit-Reset", "18")
          .build());
      case "github" -> new Canned(200, common()
          .add("x-ratelimit-limit", "5000")
          .add("x-ratelimit-remaining", "4987")
          .add("x-ratelimit-reset", "1700003600")
          .add("x-ratelimit-used", "13")
          .add("x-ratelimit-resource", "core")
          .build());
      case "openai" -> new Canned(200, common()
          .add("x-ratelimit-limit-requests", "60")
          .add("x-ratelimit-limit-tokens", "150000")
          .add("x-ratelimit-remaining-requests", "59")
          .add("x-ratelimit-remaining-tokens", "149984")
          .add("x-ratelimit-reset-requests", "1s")
          .add("x-ratelimit-reset-tokens", "6m0s")
          .build());
      case "anthropic" -> new Canned(200, common()
          .add("anthropic-ratelimit-requests-limit", "1000")
          .add("anthropic-ratelimit-requests-remaining", "999")
          .add("anthropic-ratelimit-requests-reset", "2023-11-14T22:13:21Z")
          .add("anthropic-ratelimit-tokens-limit", "96000")
          .add("anthropic-ratelimit-tokens-remaining", "96000")
          .add("anthropic-ratelimit-tokens-reset", "2023-11-14T22:13:20Z")
          .build());
      // Discord's documented 429, with fractional epoch and delay
      case "discord" -> new Canned(429, common()
          .add("Retry-After", "65")
          .add("X-RateLimit-Limit", "10")
          .add("X-RateLimit-Remaining", "0")
          .add("X-RateLimit-Reset", "1700000064.570")
          .add("X-RateLimit-Reset-After", "64.57")
          .add("X-RateLimit-Bucket", "abcd1234")
          .add("X-RateLimit-Scope", "user")
          .build());
      case "shopify" -> new Canned(200, common()
          .add("X-Shopify-Shop-Api-Call-Limit", "32/40")
          .build());
      // RFC 9110: a bare 429 with Retry-After and nothing else
      case "retryAfter429" -> new Canned(429, common()
          .add("Retry-After", "120")
          .build());
      // no rate-limit headers at all: the most common response on the wire
      case "none" -> new Canned(200, common().build());
      default -> throw new IllegalArgumentException("dialect: " + dialect);
    };
  }

  /** The headers every response has, before the rate-limit ones. */
  private static Headers.Builder common() {
    return new Headers.Builder()
        .add("Date", DATE)
        .add("Content-Type", "application/json; charset=utf-8")
        .add("Content-Length", "17")
        .add("Cache-Control", "no-store")
        .add("Vary", "Accept-Encoding")
        .add("Server", "bench");
  }
}
