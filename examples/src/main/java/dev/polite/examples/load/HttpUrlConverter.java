package dev.polite.examples.load;

import okhttp3.HttpUrl;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * Reads {@code --url}: an absolute http or https URL, refused at parse time (usage, exit 2)
 * rather than failing later inside OkHttp.
 *
 * <p>Usage: {@code @Option(names = "--url", converter = HttpUrlConverter.class) HttpUrl url;}
 */
final class HttpUrlConverter implements ITypeConverter<HttpUrl> {
  @Override
  public HttpUrl convert(String value) {
    HttpUrl url = HttpUrl.parse(value.trim());
    if (url == null) {
      throw new TypeConversionException("not an http(s) URL: '" + value + "'");
    }
    return url;
  }
}
