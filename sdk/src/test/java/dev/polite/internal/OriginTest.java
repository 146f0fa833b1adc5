package dev.polite.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.polite.HeaderLines;
import dev.polite.RequestView;
import java.net.URI;
import org.junit.jupiter.api.Test;

/** A URL's origin is its scheme, host and port, and the same String for the same origin. */
class OriginTest {
  /** The origin of {@code url}, read through a request's view as the default key reads it. */
  private static String origin(String url) {
    RequestView request = RequestView.of("GET", URI.create(url), HeaderLines.empty());
    return Origin.of(request.scheme(), request.host(), request.port());
  }

  @Test
  void theOriginOfAUrlIsSchemeHostAndPort() {
    assertThat(origin("https://api.example.com/v1/items?page=2"))
        .isEqualTo("https://api.example.com:443");
    assertThat(origin("http://api.example.com/")).isEqualTo("http://api.example.com:80");
    assertThat(origin("http://127.0.0.1:8080/x")).isEqualTo("http://127.0.0.1:8080");
  }

  @Test
  void theSameOriginIsTheSameStringWhateverThePath() {
    String first = origin("https://same.example.com/a");
    assertThat(origin("https://same.example.com/b?q=1")).isSameAs(first);
  }

  @Test
  void originsThatShareASlotStillReadAsThemselves() {
    // more origins than slots, twice over: each must read as itself whatever it met in its slot
    for (int round = 0; round < 2; round++) {
      for (int port = 1000; port < 1000 + 3 * Origin.SLOTS; port++) {
        assertThat(origin("http://h.example.com:" + port + "/"))
            .isEqualTo("http://h.example.com:" + port);
        assertThat(origin("https://h.example.com:" + port + "/"))
            .isEqualTo("https://h.example.com:" + port);
      }
    }
  }
}
