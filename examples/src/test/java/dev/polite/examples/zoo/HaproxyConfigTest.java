package dev.polite.examples.zoo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.polite.examples.Executables;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The HAProxy configuration: the common stick-table rule, our ports and limit, and HAProxy accepts it. */
class HaproxyConfigTest {
  @TempDir
  Path dir;

  @Test
  void theStickTableRuleWithOurPortsAndLimit() {
    String cfg = HaproxyConfig.render(41001, 41002, 20, Duration.ofSeconds(1));

    assertThat(cfg).contains(
        "    bind 127.0.0.1:41001\n",
        "    stick-table type ip size 100k expire 10000ms store http_req_rate(1000ms)\n",
        "    http-request track-sc0 src\n",
        "    http-request deny deny_status 429 if { sc_http_req_rate(0) gt 20 }\n",
        "    default_backend app\n",
        "    server s1 127.0.0.1:41002\n",
        "    mode http\n");
    assertThat(cfg.indexOf("frontend api")).isLessThan(cfg.indexOf("backend app"));
  }

  @Test
  void aLongPeriodKeepsItsEntryForTwoPeriods() {
    assertThat(HaproxyConfig.render(1, 2, 5, Duration.ofSeconds(10)))
        .contains("expire 20000ms store http_req_rate(10000ms)", "gt 5 }");
  }

  @Test
  void badValuesAreRefusedByName() {
    assertThatThrownBy(() -> HaproxyConfig.render(0, 2, 5, Duration.ofSeconds(1))).hasMessageContaining("frontendPort");
    assertThatThrownBy(() -> HaproxyConfig.render(1, 70000, 5, Duration.ofSeconds(1))).hasMessageContaining("backendPort");
    assertThatThrownBy(() -> HaproxyConfig.render(1, 2, 0, Duration.ofSeconds(1))).hasMessageContaining("limit");
    assertThatThrownBy(() -> HaproxyConfig.render(1, 2, 5, Duration.ofNanos(10))).hasMessageContaining("period");
  }

  @Test
  void haproxyItselfAcceptsIt() throws Exception {
    Optional<Path> haproxy = Executables.onPath("haproxy");
    assumeTrue(haproxy.isPresent(), "haproxy is not installed");
    Path cfg = dir.resolve("haproxy.cfg");
    Files.writeString(cfg, HaproxyConfig.render(41001, 41002, 20, Duration.ofSeconds(1)), StandardCharsets.UTF_8);

    Process check = new ProcessBuilder(haproxy.get().toString(), "-c", "-f", cfg.toString())
        .redirectErrorStream(true).start();
    String output = new String(check.getInputStream().readAllBytes(), StandardCharsets.UTF_8);

    assertThat(check.waitFor(10, TimeUnit.SECONDS)).isTrue();
    assertThat(check.exitValue()).as(output).isZero();
  }
}
