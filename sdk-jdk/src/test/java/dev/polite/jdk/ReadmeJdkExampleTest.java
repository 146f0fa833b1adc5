package dev.polite.jdk;

import static org.assertj.core.api.Assertions.assertThat;

import dev.polite.testing.ReadmeProgram;
import java.nio.file.Path;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The README's whole program on the JDK client, {@code PoliteJdkExample}, as it stands in the
 * README: compiled against this module and the core, then run for one call that polite retries.
 */
class ReadmeJdkExampleTest {
  @Test
  void theReadmesJdkProgramCompilesAndMakesItsCall(@TempDir Path out) throws Exception {
    ReadmeProgram.Compiled program = ReadmeProgram.named("PoliteJdkExample").compile(out);

    try (MockWebServer server = new MockWebServer()) {
      server.enqueue(new MockResponse.Builder().code(429).addHeader("Retry-After", "0").build());
      server.enqueue(new MockResponse.Builder().code(200).body("hello").build());
      server.start();
      assertThat(program.run(server.url("/hello").toString())).as("the 429 retried, the 200 printed")
          .isEqualTo("200");
      assertThat(server.getRequestCount()).isEqualTo(2);
    }
  }
}
