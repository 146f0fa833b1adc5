package dev.polite.vendors.github;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.polite.RateLimitedException;
import dev.polite.vendors.LoopbackServer;
import dev.polite.vendors.StalledCall;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.kohsuke.github.GitHub;
import org.kohsuke.github.HttpException;

/**
 * A {@code core} quota spent for the next hour (403, remaining 0, reset in 3,600 s). github-api's
 * handlers wait for the reset whoever sits below them: alone, and with polite under its default
 * {@code WAIT} handlers (polite gives the 403 back at once, as the wait is past its max wait, and
 * github-api sleeps it out). With the README's layering the call fails at once with github-api's
 * own {@link HttpException} 403, and the next call fails without being sent.
 */
class GitHubSpentQuotaTest {
  @org.junit.jupiter.api.BeforeAll
  static void warmUp() throws Exception {
    GitHubClients.warmUp();
  }


  private static void assertStillWaitingAfterPatience(GitHubClients way) throws Exception {
    try (LoopbackServer server = new LoopbackServer(GitHubApi.spentQuota())) {
      GitHub github = way.connect(server.url());
      assertThat(StalledCall.stillWaitingAfter(StalledCall.PATIENCE,
          i -> github.getRepository("octo/hello"))).isTrue();
      assertThat(server.requests()).isEqualTo(1);
      StalledCall.report(way.label, "still waiting after " + StalledCall.PATIENCE.toSeconds()
          + " s (for the reset, 3600 s)", server.requests());
    }
  }

  @Test
  void githubApiAloneWaitsForTheReset() throws Exception {
    assertStillWaitingAfterPatience(GitHubClients.ALONE);
  }

  @Test
  void githubApisWaitHandlersWaitForTheResetEvenWithPoliteBelow() throws Exception {
    assertStillWaitingAfterPatience(GitHubClients.POLITE_AND_HANDLERS);
  }

  @Test
  void theReadmesLayeringFailsAtOnceAndSendsNoMore() throws Exception {
    try (LoopbackServer server = new LoopbackServer(GitHubApi.spentQuota())) {
      GitHub github = GitHubClients.POLITE.connect(server.url());
      long start = System.nanoTime();
      CompletableFuture<Void> first = CompletableFuture.runAsync(() -> {
        try {
          github.getRepository("octo/hello");
        } catch (java.io.IOException e) {
          throw new java.util.concurrent.CompletionException(e);
        }
      });
      assertThatThrownBy(() -> first.get(10, TimeUnit.SECONDS))
          .cause().isInstanceOf(HttpException.class)
          .satisfies(e -> assertThat(((HttpException) e).getResponseCode()).isEqualTo(403));
      double firstSeconds = (System.nanoTime() - start) / 1e9;
      // The key is paused for the hour: the next call is refused by polite, not sent.
      assertThatThrownBy(() -> github.getRepository("octo/hello"))
          .hasRootCauseInstanceOf(RateLimitedException.class);
      assertThat(server.requests()).isEqualTo(1);
      assertThat(firstSeconds).isLessThan(StalledCall.PATIENCE.toSeconds());
      StalledCall.report(GitHubClients.POLITE.label, String.format(java.util.Locale.ROOT,
          "HttpException 403 after %.2f s; next call RateLimitedException, unsent", firstSeconds),
          server.requests());
    }
  }
}
