package dev.polite.spring.boot;

import dev.polite.RateLimitKey;
import dev.polite.RequestView;
import java.net.URI;
import org.jspecify.annotations.Nullable;

/** What a key function makes of {@code GET https://api.example.com/v1/things?page=2}, with one header. */
final class Keys {
  private Keys() {}

  static String of(RateLimitKey key, String header, String value) {
    return key.keyOf(new RequestView() {
      @Override
      public String method() {
        return "GET";
      }

      @Override
      public URI uri() {
        return URI.create("https://api.example.com/v1/things?page=2");
      }

      @Override
      public @Nullable String header(String name) {
        return name.equalsIgnoreCase(header) ? value : null;
      }
    });
  }
}
