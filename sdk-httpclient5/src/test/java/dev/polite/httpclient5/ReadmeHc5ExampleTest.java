package dev.polite.httpclient5;

import static org.assertj.core.api.Assertions.assertThat;

import dev.polite.testing.ReadmeProgram;
import java.nio.file.Path;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The README's program on Apache HttpClient 5, {@code PoliteHc5Example}, as it stands there:
 * compiled against this module, the core and HttpClient 5, then run for one call that polite
 * retries.
 */
class ReadmeHc5ExampleTest {
  @Test
  void theReadmesHc5ProgramCompilesAndMakesItsCall(@TempDir Path out) throws Exception {
    ReadmeProgram.Compiled program = ReadmeProgram.named("PoliteHc5Example").compile(out);

    try (MockWebServer server = new MockWebServer()) {
      server.enqueue(new MockResponse.Builder().code(429).addHeader("Retry-After", "0").build());
      server.enqueue(new MockResponse.Builder().code(200).body("hello").build());
      server.start();
      assertThat(program.run(server.url("/hello").toString())).as("the 429 retried, the body printed")
          .isEqualTo("hello");
      assertThat(server.getRequestCount()).as("polite's retry alone: HttpClient's own is off").isEqualTo(2);
    }
  }
}
