package dev.polite.vendors;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URL;
import java.util.Collections;
import java.util.List;
import okhttp3.OkHttp;
import org.junit.jupiter.api.Test;

/**
 * Both SDKs run on one OkHttp, the project's (anthropic-java's own 4.12.0 is excluded; github-api
 * leaves OkHttp to the user), with one Kotlin standard library and one Jackson.
 */
class OneOkHttpTest {
  private static List<URL> providers(String resource) throws Exception {
    return Collections.list(OneOkHttpTest.class.getClassLoader().getResources(resource));
  }

  @Test
  void oneOkHttpAndItIsTheProjects() throws Exception {
    assertThat(providers("okhttp3/OkHttpClient.class")).hasSize(1);
    String running = (String) OkHttp.class.getField("VERSION").get(null); // not inlined
    assertThat(running).isEqualTo(System.getProperty("polite.okhttp.version"));
  }

  @Test
  void oneKotlinStandardLibraryAndOneJacksonDatabind() throws Exception {
    assertThat(providers("kotlin/Unit.class")).hasSize(1);
    assertThat(providers("com/fasterxml/jackson/databind/ObjectMapper.class")).hasSize(1);
  }
}
