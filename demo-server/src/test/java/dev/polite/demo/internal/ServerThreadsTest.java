package dev.polite.demo.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.polite.demo.DemoServerConfig;
import org.junit.jupiter.api.Test;

/** The server's thread counts: what --io-threads says, else half the cores; eight task threads per I/O thread. */
class ServerThreadsTest {

  @Test
  void ioThreadsAreTheConfiguredCountElseHalfTheCoresAtLeastOne() {
    assertThat(ServerThreads.io(3, 16)).isEqualTo(3);
    assertThat(ServerThreads.io(0, 16)).isEqualTo(8);
    assertThat(ServerThreads.io(0, 3)).isEqualTo(1);
    assertThat(ServerThreads.io(0, 1)).as("at least one").isEqualTo(1);
  }

  @Test
  void taskThreadsAreEightPerIoThreadAndAtLeastSixteen() {
    assertThat(ServerThreads.tasks(1)).isEqualTo(16);
    assertThat(ServerThreads.tasks(2)).isEqualTo(16);
    assertThat(ServerThreads.tasks(5)).isEqualTo(40);
  }

  @Test
  void aConfigurationIsReadThroughTheSameRules() {
    DemoServerConfig config = DemoServerConfig.builder().ioThreads(4).build();
    assertThat(ServerThreads.io(config)).isEqualTo(4);
    assertThat(ServerThreads.tasks(config)).isEqualTo(32);
  }
}
