package dev.polite.examples.zoo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.polite.examples.Executables;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;
import org.junit.jupiter.api.Test;

/** A real HAProxy in front of the bare backend: it admits the limit, then refuses with a bare 429, and leaves nothing behind. */
class HaproxyProcessTest {

  @Test
  void admitsTheLimitAtOnceThenRefusesWith429AndNoHeaderAndStopsClean() throws Exception {
    Optional<Path> binary = Executables.onPath("haproxy");
    assumeTrue(binary.isPresent(), "haproxy is not installed");
    OkHttpClient client = new OkHttpClient();
    Path dir;
    HaproxyProcess kept;
    try (BareBackend backend = BareBackend.start();
        HaproxyProcess haproxy = HaproxyProcess.start(binary.get(), backend.port(), 5, Duration.ofSeconds(1))) {
      kept = haproxy;
      dir = haproxy.directory();
      assertThat(dir.resolve("haproxy.cfg")).exists();
      Request request = new Request.Builder().url("http://127.0.0.1:" + haproxy.port() + "/api/items").build();
      int ok = 0;
      int refused = 0;
      for (int i = 0; i < 10; i++) {
        try (Response response = client.newCall(request).execute()) {
          if (response.code() == 200) {
            ok++;
          } else if (response.code() == 429) {
            refused++;
            assertThat(response.header("Retry-After")).isNull();
          }
        }
      }
      assertThat(ok).isEqualTo(5);
      assertThat(refused).isEqualTo(5);
    }
    assertThat(kept.alive()).isFalse();
    assertThat(Files.exists(dir)).as("its temporary directory is deleted").isFalse();
    client.connectionPool().evictAll();
  }
}
