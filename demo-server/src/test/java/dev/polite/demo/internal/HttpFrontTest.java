package dev.polite.demo.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.BindException;
import org.junit.jupiter.api.Test;

class HttpFrontTest {
  @Test
  void theConnectionCapLeavesRoomUnderTheFileLimit() {
    // An accept that meets "too many open files" fails and backs off: never let the cap get there.
    assertThat(HttpFront.fitToFileLimit(10_000, 1_048_576)).isEqualTo(10_000);
    assertThat(HttpFront.fitToFileLimit(10_000, 20_000)).isEqualTo(10_000);
    assertThat(HttpFront.fitToFileLimit(10_000, 4_096)).isEqualTo(4_096 - HttpFront.RESERVED_FILES);
    assertThat(HttpFront.fitToFileLimit(10_000, 100)).isEqualTo(1);
    assertThat(HttpFront.fitToFileLimit(10_000, -1)).as("unknown limit").isEqualTo(10_000);
  }

  @Test
  void epollsFailedBindIsTheJdksBindException() {
    // what Netty's epoll transport throws when the port is taken
    IOException epoll = new IOException("bind(..) failed with error(-98): Address already in use");
    IOException said = HttpFront.bindFailure(epoll);
    assertThat(said).isInstanceOf(BindException.class).hasMessage("Address already in use").hasCause(epoll);

    BindException nio = new BindException("Address already in use");
    assertThat(HttpFront.bindFailure(nio)).isSameAs(nio);
    IOException other = new IOException("no route");
    assertThat(HttpFront.bindFailure(other)).isSameAs(other);
  }
}
