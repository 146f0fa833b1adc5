package dev.polite.examples;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;
import picocli.CommandLine.IVersionProvider;

/**
 * What {@code --version} prints: {@code polite-examples 0.1.0-SNAPSHOT}. The version comes from a
 * resource the build filters, not from the jar's manifest: the manifest exists only in the shaded
 * jar, while the resource is there wherever the classes are (the jar, the tests, an IDE).
 *
 * <p>Usage: {@code java -jar polite-examples.jar --version}
 */
final class ExamplesVersion implements IVersionProvider {
  private static final String RESOURCE = "version.properties";

  @Override
  public String[] getVersion() {
    return new String[] {"polite-examples " + version()};
  }

  /** The project's version, or {@code unknown} if the build did not stamp it. */
  static String version() {
    try (InputStream in = ExamplesVersion.class.getResourceAsStream(RESOURCE)) {
      if (in != null) {
        Properties properties = new Properties();
        properties.load(in);
        String version = properties.getProperty("version", "").strip();
        // An unfiltered copy (run from sources without Maven) still says ${project.version}.
        if (!version.isEmpty() && !version.startsWith("${")) {
          return version;
        }
      }
    } catch (IOException e) {
      // Fall through: a version line that says so beats a stack trace.
    }
    return "unknown";
  }
}
