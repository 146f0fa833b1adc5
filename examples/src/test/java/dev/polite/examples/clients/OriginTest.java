package dev.polite.examples.clients;

import static org.assertj.core.api.Assertions.assertThat;

import okhttp3.HttpUrl;
import org.junit.jupiter.api.Test;

/** A relayed target's origin, and the Host header the client would have sent it. */
class OriginTest {
  @Test
  void theHostHeaderNamesThePortUnlessItIs80AndBracketsAnIpv6Address() {
    assertThat(Origin.of(HttpUrl.get("http://127.0.0.1:8080/api/items")).hostHeader()).isEqualTo("127.0.0.1:8080");
    assertThat(Origin.of(HttpUrl.get("http://example.com/x")).hostHeader()).isEqualTo("example.com");
    assertThat(Origin.of(HttpUrl.get("http://[::1]:9000/")).hostHeader()).isEqualTo("[::1]:9000");
    assertThat(Origin.of(HttpUrl.get("http://[::1]/"))).isEqualTo(new Origin("::1", 80));
  }
}
