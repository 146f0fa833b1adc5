package dev.polite.examples.clients;

import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * Reads {@code --client} by its command-line name ({@code retry-after}, not {@code RETRY_AFTER}).
 *
 * <p>Usage: {@code @Option(names = "--client", converter = ClientKindConverter.class) ClientKind kind;}
 */
public final class ClientKindConverter implements ITypeConverter<ClientKind> {
  @Override
  public ClientKind convert(String value) {
    try {
      return ClientKind.parse(value);
    } catch (IllegalArgumentException e) {
      throw new TypeConversionException(e.getMessage());
    }
  }
}
