package dev.polite.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** Digests in lower-case hex, of the text's UTF-8 bytes: the FIPS 180 test vectors. */
class HexTest {
  @Test
  void digestsAreTheStandardOnesInLowerCaseHex() {
    assertThat(Hex.digest("SHA-1", "abc")).isEqualTo("a9993e364706816aba3e25717850c26c9cd0d89d");
    assertThat(Hex.digest("SHA-256", "abc"))
        .isEqualTo("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    assertThat(Hex.digest("SHA-1", "é")).as("UTF-8, not the platform's charset")
        .isEqualTo(Hex.digest("SHA-1", new String("é".getBytes(java.nio.charset.StandardCharsets.UTF_8),
            java.nio.charset.StandardCharsets.UTF_8)));
  }

  @Test
  void anAlgorithmTheJvmLacksIsAnIllegalState() {
    assertThatThrownBy(() -> Hex.digest("NO-SUCH-DIGEST", "abc")).isInstanceOf(IllegalStateException.class);
  }
}
