package dev.polite.spring;

import static org.assertj.core.api.Assertions.assertThat;

import dev.polite.testing.ReadmeProgram;
import java.nio.file.Path;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The README's Spring programs as they stand there, {@code RestClient}'s and {@code WebClient}'s:
 * compiled against this module, the core and Spring, then run for one call that polite retries.
 */
class ReadmeSpringExampleTest {
  @ParameterizedTest
  @ValueSource(strings = {"PoliteSpringExample", "PoliteWebClientExample"})
  void theReadmesSpringProgramCompilesAndMakesItsCall(String name, @TempDir Path out) throws Exception {
    ReadmeProgram.Compiled program = ReadmeProgram.named(name).compile(out);

    try (MockWebServer server = new MockWebServer()) {
      server.enqueue(new MockResponse.Builder().code(429).addHeader("Retry-After", "0").build());
      server.enqueue(new MockResponse.Builder().code(200).body("hello").build());
      server.start();
      assertThat(program.run(server.url("/hello").toString())).as("the 429 retried, the body printed")
          .isEqualTo("hello");
      assertThat(server.getRequestCount()).isEqualTo(2);
    }
  }
}
