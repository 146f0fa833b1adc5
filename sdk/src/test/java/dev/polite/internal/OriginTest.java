package dev.polite.internal;

import static org.assertj.core.api.Assertions.assertThat;

import okhttp3.HttpUrl;
import org.junit.jupiter.api.Test;

/** A URL's origin is its scheme, host and port, and the same String for the same origin. */
class OriginTest {

  @Test
  void theOriginOfAUrlIsSchemeHostAndPort() {
    assertThat(Origin.of(HttpUrl.get("https://api.example.com/v1/items?page=2")))
        .isEqualTo("https://api.example.com:443");
    assertThat(Origin.of(HttpUrl.get("http://api.example.com/"))).isEqualTo("http://api.example.com:80");
    assertThat(Origin.of(HttpUrl.get("http://127.0.0.1:8080/x"))).isEqualTo("http://127.0.0.1:8080");
  }

  @Test
  void theSameOriginIsTheSameStringWhateverThePath() {
    String first = Origin.of(HttpUrl.get("https://same.example.com/a"));
    assertThat(Origin.of(HttpUrl.get("https://same.example.com/b?q=1"))).isSameAs(first);
  }

  @Test
  void originsThatShareASlotStillReadAsThemselves() {
    // more origins than slots, twice over: each must read as itself whatever it met in its slot
    for (int round = 0; round < 2; round++) {
      for (int port = 1000; port < 1000 + 3 * Origin.SLOTS; port++) {
        assertThat(Origin.of(HttpUrl.get("http://h.example.com:" + port + "/")))
            .isEqualTo("http://h.example.com:" + port);
        assertThat(Origin.of(HttpUrl.get("https://h.example.com:" + port + "/")))
            .isEqualTo("https://h.example.com:" + port);
      }
    }
  }
}
