package dev.polite.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Finding a program on the PATH as a shell would: the first executable file of that name. */
class ExecutablesTest {
  @TempDir
  Path dir;

  @Test
  void findsTheFirstExecutableAndSkipsWhatIsNot() throws Exception {
    Path empty = Files.createDirectory(dir.resolve("empty"));
    Path plain = Files.createDirectory(dir.resolve("plain"));
    Path bin = Files.createDirectory(dir.resolve("bin"));
    Files.writeString(plain.resolve("haproxy"), "not executable");
    Path program = Files.writeString(bin.resolve("haproxy"), "#!/bin/sh\n");
    Files.setPosixFilePermissions(program, PosixFilePermissions.fromString("rwxr-xr-x"));
    String path = String.join(File.pathSeparator, empty.toString(), "", plain.toString(), bin.toString());

    assertThat(Executables.onPath("haproxy", path)).contains(program);
    assertThat(Executables.onPath("nginx", path)).isEmpty();
    assertThat(Executables.onPath("haproxy", "")).isEmpty();
    assertThat(Executables.onPath("haproxy", null)).isEmpty();
  }
}
