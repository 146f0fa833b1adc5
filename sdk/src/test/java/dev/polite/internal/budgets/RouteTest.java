package dev.polite.internal.budgets;

import static org.assertj.core.api.Assertions.assertThat;

import dev.polite.HeaderLines;
import dev.polite.RequestView;
import java.net.URI;
import org.junit.jupiter.api.Test;

/** A request's route, from its encoded path, segment by segment as OkHttp lists them. */
class RouteTest {
  private static Route route(String method, String url) {
    return Route.of(RequestView.of(method, URI.create(url), HeaderLines.empty()));
  }

  @Test
  void segmentsThatNameOneThingAreTemplated() {
    assertThat(route("GET", "https://api.github.com/repos/123/issues/7?x=1"))
        .isEqualTo(new Route("GET /repos/{id}/issues/{id}", "GET /repos/{id}/issues/*", "/repos/*"));
    assertThat(route("POST", "https://h.test/a/0123456789abcdef0123"))
        .isEqualTo(new Route("POST /a/{id}", null, "/a/*"));
  }

  @Test
  void theRootAndATrailingSlashAreSegmentsOfTheirOwn() {
    assertThat(route("GET", "https://h.test/")).isEqualTo(new Route("GET /", null, "//*"));
    assertThat(route("GET", "https://h.test")).isEqualTo(new Route("GET /", null, "//*"));
    assertThat(route("GET", "https://h.test/search/")).isEqualTo(new Route("GET /search/", null, "/search/*"));
  }

  @Test
  void aPathKeepsAtMostItsFirstSegmentsEachCut() {
    String longSegment = "x".repeat(100);
    Route r = route("GET", "https://h.test/a/b/c/d/e/f/g/h/" + longSegment);
    assertThat(r.exact()).isEqualTo("GET /a/b/c/d/e/f");
    assertThat(route("GET", "https://h.test/" + longSegment).exact())
        .isEqualTo("GET /" + "x".repeat(Route.MAX_SEGMENT));
  }

  @Test
  void aFamilyIsDrawnPastAnApisVersionAndBase() {
    assertThat(route("GET", "https://api.x.com/2/tweets/123").family()).isEqualTo("/{id}/tweets/*");
    assertThat(route("GET", "https://api.x.com/2/users/by/username/jack").family()).isEqualTo("/{id}/users/*");
    assertThat(route("GET", "https://h.test/api/v1.2/search/code").family()).isEqualTo("/api/v1.2/search/*");
    assertThat(route("GET", "https://h.test/api/items").family()).isEqualTo("/api/items/*");
    assertThat(route("GET", "https://h.test/v1/v2/v3/x").family()).as("two prefixes at most").isEqualTo("/v1/v2/v3/*");
    assertThat(route("GET", "https://h.test/api").family()).isEqualTo("/api/*");
    assertThat(route("GET", "https://h.test/vendors").family()).isEqualTo("/vendors/*");
  }
}
