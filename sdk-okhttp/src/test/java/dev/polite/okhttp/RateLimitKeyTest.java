package dev.polite.okhttp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.polite.RateLimitKey;
import dev.polite.RequestView;
import okhttp3.Request;
import org.junit.jupiter.api.Test;

class RateLimitKeyTest {
  private static RequestView get(String url, String... headers) {
    Request.Builder b = new Request.Builder().url(url);
    for (int i = 0; i < headers.length; i += 2) {
      b.header(headers[i], headers[i + 1]);
    }
    return OkHttpRequestView.of(b.build());
  }

  @Test
  void hostKeysBySchemeHostAndPort() {
    RateLimitKey host = RateLimitKey.host();
    assertThat(host.keyOf(get("https://api.example.com/a?x=1"))).isEqualTo("https://api.example.com:443");
    assertThat(host.keyOf(get("https://api.example.com/b"))).isEqualTo(host.keyOf(get("https://api.example.com/a")));
    assertThat(host.keyOf(get("http://api.example.com/a"))).isNotEqualTo(host.keyOf(get("https://api.example.com/a")));
  }

  @Test
  void routeAddsThePathButNotTheQuery() {
    RateLimitKey route = RateLimitKey.route();
    assertThat(route.keyOf(get("https://api.example.com/search?q=1"))).isEqualTo("https://api.example.com:443/search");
  }

  @Test
  void headerKeysNeverContainTheSecret() {
    RateLimitKey byKey = RateLimitKey.header("X-Api-Key");
    String a = byKey.keyOf(get("https://api.example.com/", "X-Api-Key", "sk_live_secret_a"));
    String b = byKey.keyOf(get("https://api.example.com/", "X-Api-Key", "sk_live_secret_b"));
    assertThat(a).doesNotContain("secret").startsWith("https://api.example.com:443 x-api-key#");
    assertThat(a).isNotEqualTo(b);
    assertThat(byKey.keyOf(get("https://api.example.com/"))).isEqualTo("https://api.example.com:443");
  }
}
