package dev.polite.okhttp;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URL;
import java.util.Collections;
import okhttp3.OkHttp;
import org.junit.jupiter.api.Test;

/**
 * The OkHttp these tests run on is the one the build asked for, and the only one: the
 * lowest-version run (the okhttp-4.12 profile) swaps OkHttp on the class path, and would prove
 * nothing if the swap silently failed.
 */
class OkHttpUnderTestTest {
  @Test
  void exactlyOneOkHttpAndTheExpectedOne() throws Exception {
    String expected = System.getProperty("okhttp.expected.version");
    if (expected != null) {
      assertThat(OkHttp.VERSION).isEqualTo(expected);
    } else {
      assertThat(OkHttp.VERSION).startsWith("5.");
    }
    var copies = Collections.list(getClass().getClassLoader().getResources("okhttp3/OkHttpClient.class"));
    assertThat(copies).extracting(URL::toString).hasSize(1);
  }
}
