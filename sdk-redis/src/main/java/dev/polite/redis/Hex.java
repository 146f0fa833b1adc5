package dev.polite.redis;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/** Digests as Redis names things by them: the lease script's SHA-1, a key's hash tag's SHA-256. */
final class Hex {
  private Hex() {}

  /** {@code algorithm}'s digest of {@code text} (UTF-8), in lower-case hex. */
  static String digest(String algorithm, String text) {
    try {
      byte[] digest = MessageDigest.getInstance(algorithm).digest(text.getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(digest);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e); // every JVM has SHA-1 and SHA-256
    }
  }
}
