package dev.polite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import org.junit.jupiter.api.Test;

/** A request's parts as the core reads them, whatever engine made the view. */
class RequestViewTest {
  private static RequestView get(String url) {
    return RequestView.of("GET", URI.create(url), HeaderLines.of("X-Tenant", "t1"));
  }

  @Test
  void theUrisPartsHaveTheSchemesDefaultsAndOneHostTextOnEveryEngine() {
    RequestView r = get("https://API.Example.com/v1/items?page=2");
    assertThat(r.scheme()).isEqualTo("https");
    assertThat(r.host()).as("lower case, as OkHttp's").isEqualTo("api.example.com");
    assertThat(r.port()).isEqualTo(443);
    assertThat(r.encodedPath()).isEqualTo("/v1/items");
    assertThat(get("http://[::1]:8080/").host()).as("IPv6 without its brackets, as OkHttp's")
        .isEqualTo("::1");
    assertThat(get("http://h.test").encodedPath()).isEqualTo("/");
    assertThat(r.header("x-tenant")).isEqualTo("t1");
  }

  @Test
  void aRequestInALogShowsItsMethodAndOriginOnly() {
    assertThat(RequestView.redacted(get("https://u:secret@api.example.com/users/42?token=s")))
        .isEqualTo("GET https://api.example.com/...");
    assertThat(RequestView.redacted(get("http://[::1]:8080/a"))).isEqualTo("GET http://[::1]:8080/...");
  }

  @Test
  void aViewNeedsAnAbsoluteUriWithAHost() {
    assertThatThrownBy(() -> get("/relative")).isInstanceOf(IllegalArgumentException.class);
  }
}
