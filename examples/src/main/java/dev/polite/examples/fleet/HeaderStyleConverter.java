package dev.polite.examples.fleet;

import dev.polite.demo.HeaderStyle;
import picocli.CommandLine.ITypeConverter;

/** Reads {@code --headers ietf,none}: picocli's side of {@link HeaderStyle#parse}. */
final class HeaderStyleConverter implements ITypeConverter<HeaderStyle> {
  @Override
  public HeaderStyle convert(String value) {
    return HeaderStyle.parse(value);
  }
}
