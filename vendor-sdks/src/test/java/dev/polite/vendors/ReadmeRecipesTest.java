package dev.polite.vendors;

import static org.assertj.core.api.Assertions.assertThat;

import dev.polite.vendors.anthropic.AnthropicApi;
import dev.polite.vendors.github.GitHubApi;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * vendor-sdks/README.md's recipes are {@code src/test/java/PoliteGitHubExample.java} (github-api
 * on OkHttp), {@code PoliteGitHubJdkExample.java} (on its default JDK connector) and
 * {@code PoliteAnthropicExample.java}, word for word: so they compile against the SDKs and
 * polite, and they run, each against its stand-in.
 */
class ReadmeRecipesTest {
  private static final Pattern JAVA_BLOCK = Pattern.compile("```java\n(.*?)```", Pattern.DOTALL);

  @ParameterizedTest
  @ValueSource(strings = {
      "PoliteGitHubExample", "PoliteGitHubJdkExample", "PoliteAnthropicExample"})
  void theReadmeRecipeIsTheCompiledOne(String name) throws Exception {
    String readme = Files.readString(Path.of(System.getProperty("polite.readme")));
    String source = Files.readString(Path.of(System.getProperty("polite.recipes"), name + ".java"));
    String snippet = null;
    Matcher m = JAVA_BLOCK.matcher(readme);
    while (m.find()) {
      if (m.group(1).contains("class " + name + " ")) {
        snippet = m.group(1);
      }
    }
    assertThat(snippet).as("a ```java block in vendor-sdks/README.md with class " + name).isNotNull();
    assertThat(snippet.strip()).isEqualTo(source.strip());
  }

  private static String run(String name, LoopbackServer.Api api) throws Exception {
    PrintStream out = System.out;
    ByteArrayOutputStream printed = new ByteArrayOutputStream();
    try (LoopbackServer server = new LoopbackServer(api)) {
      System.setOut(new PrintStream(printed, true, StandardCharsets.UTF_8));
      try {
        Class.forName(name).getMethod("main", String[].class)
            .invoke(null, (Object) new String[] {server.url()});
      } finally {
        System.setOut(out);
      }
      assertThat(server.requests()).isEqualTo(1);
    }
    return printed.toString(StandardCharsets.UTF_8).strip();
  }

  @ParameterizedTest
  @ValueSource(strings = {"PoliteGitHubExample", "PoliteGitHubJdkExample"})
  void theGitHubRecipesReadARepository(String name) throws Exception {
    assertThat(run(name, GitHubApi.scaledDown())).isEqualTo("octo/hello");
  }

  @Test
  void theAnthropicRecipeSendsAMessage() throws Exception {
    assertThat(run("PoliteAnthropicExample", AnthropicApi.neverOverloaded()))
        .isEqualTo(AnthropicApi.OUTPUT_TOKENS + " tokens written");
  }
}
