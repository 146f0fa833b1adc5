package dev.polite.compat;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URL;
import java.util.Collections;
import java.util.List;
import okhttp3.OkHttp;
import org.junit.jupiter.api.Test;

/**
 * Exactly one OkHttp (and one Kotlin standard library) on the class path, and it is the version
 * asked for: polite-okhttp brought none of its own.
 */
class OneOkHttpTest {
  private static List<URL> providers(String resource) throws Exception {
    return Collections.list(OneOkHttpTest.class.getClassLoader().getResources(resource));
  }

  @Test
  void oneJarProvidesOkHttpAndItIsTheVersionUnderTest() throws Exception {
    assertThat(providers("okhttp3/OkHttpClient.class"))
        .as("jars providing okhttp3.OkHttpClient (none: com.squareup.okhttp3:okhttp:5.x is an empty"
            + " jar for Maven, use okhttp-jvm)")
        .hasSize(1);
    // Read, not inlined: OkHttp.VERSION is a compile-time constant.
    String running = (String) OkHttp.class.getField("VERSION").get(null);
    assertThat(running).isEqualTo(System.getProperty("okhttp.compat.version"));
  }

  @Test
  void oneKotlinStandardLibrary() throws Exception {
    assertThat(providers("kotlin/Unit.class")).hasSize(1);
  }
}
