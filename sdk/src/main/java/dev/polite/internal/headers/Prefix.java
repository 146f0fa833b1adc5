package dev.polite.internal.headers;

import org.jspecify.annotations.Nullable;

/**
 * Header families whose names carry a variable part: OpenAI's and Kong's
 * {@code x-ratelimit-<limit|remaining|reset>-<name>}, Anthropic's
 * {@code anthropic-ratelimit-<name>-<limit|remaining|reset>}, Azure's
 * {@code x-ms-ratelimit-remaining-<scope>} and Zendesk's {@code zendesk-ratelimit-<endpoint>}.
 * Only names no {@link Field} claims are tested, with case-insensitive {@link Ascii} matches.
 */
enum Prefix {
  X_RATELIMIT("x-ratelimit-"),
  ANTHROPIC("anthropic-ratelimit-"),
  AZURE("x-ms-ratelimit-remaining-"),
  ZENDESK("zendesk-ratelimit-");

  final String text;

  Prefix(String text) {
    this.text = text;
  }

  /** The family {@code name} belongs to, or {@code null}. */
  static @Nullable Prefix of(String name) {
    if (name.length() < 13) return null;
    char c = name.charAt(0);
    if (c == 'x' || c == 'X') {
      if (matches(name, X_RATELIMIT)) return X_RATELIMIT;
      if (matches(name, AZURE)) return AZURE;
    } else if (c == 'a' || c == 'A') {
      if (matches(name, ANTHROPIC)) return ANTHROPIC;
    } else if (c == 'z' || c == 'Z') {
      if (matches(name, ZENDESK)) return ZENDESK;
    }
    return null;
  }

  private static boolean matches(String name, Prefix p) {
    return name.length() > p.text.length() && Ascii.regionMatches(name, 0, p.text);
  }
}
