package dev.polite.spring;

import static org.assertj.core.api.Assertions.assertThat;

import dev.polite.testing.ReadmeProgram;
import java.nio.file.Path;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The Spring programs as the pages show them, {@code RestClient}'s (README.md) and
 * {@code WebClient}'s (docs/spring.md): compiled against this module, the core and Spring, then
 * run for one call that polite retries.
 */
class ReadmeSpringExampleTest {
  @ParameterizedTest
  @CsvSource({"PoliteSpringExample, README.md", "PoliteWebClientExample, docs/spring.md"})
  void theSpringProgramCompilesAndMakesItsCall(String name, String page, @TempDir Path out) throws Exception {
    ReadmeProgram.Compiled program = ReadmeProgram.named(name, page).compile(out);

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
