package dev.polite.vendors.github;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.polite.RateLimitedException;
import dev.polite.vendors.LoopbackServer;
import dev.polite.vendors.StalledCall;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.kohsuke.github.GitHub;
import org.kohsuke.github.HttpException;

/**
 * A {@code core} quota spent for the next hour (403, remaining 0, reset in 3,600 s), on each of
 * github-api's engines (OkHttp, and its default JDK connector). github-api's handlers wait for the
 * reset whoever sits below them: alone, and with polite under its default {@code WAIT} handlers
 * (polite gives the 403 back at once, as the wait is past its max wait, and github-api sleeps it
 * out). With the README's layering the call fails at once with github-api's own
 * {@link HttpException} 403, and the next call fails without being sent.
 */
class GitHubSpentQuotaTest {
  @org.junit.jupiter.api.BeforeAll
  static void warmUp() throws Exception {
    GitHubClients.warmUp();
  }

  private static void report(GitHubClients way, String outcome, int sent) {
    StalledCall.report(GitHubClients.labelWidth(), way.label, outcome, sent);
  }

  private static void assertStillWaitingAfterPatience(GitHubClients way) throws Exception {
    GitHubApi api = GitHubApi.spentQuota();
    try (LoopbackServer server = new LoopbackServer(api)) {
      GitHub github = way.connect(server.url());
      assertThat(StalledCall.stillWaitingAfter(StalledCall.PATIENCE,
          i -> github.getRepository("octo/hello"))).isTrue();
      assertThat(server.requests()).isEqualTo(1);
      way.assertSentBy(api);
      report(way, "still waiting after " + StalledCall.PATIENCE.toSeconds()
          + " s (for the reset, 3600 s)", server.requests());
    }
  }

  @ParameterizedTest
  @EnumSource(names = {"ALONE", "JDK_ALONE"})
  void githubApiAloneWaitsForTheReset(GitHubClients way) throws Exception {
    assertStillWaitingAfterPatience(way);
  }

  @ParameterizedTest
  @EnumSource(names = {"POLITE_AND_HANDLERS", "JDK_POLITE_AND_HANDLERS"})
  void githubApisWaitHandlersWaitForTheResetEvenWithPoliteBelow(GitHubClients way)
      throws Exception {
    assertStillWaitingAfterPatience(way);
  }

  @ParameterizedTest
  @EnumSource(names = {"POLITE", "JDK_POLITE"})
  void theReadmesLayeringFailsAtOnceAndSendsNoMore(GitHubClients way) throws Exception {
    GitHubApi api = GitHubApi.spentQuota();
    try (LoopbackServer server = new LoopbackServer(api)) {
      GitHub github = way.connect(server.url());
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
      way.assertSentBy(api);
      assertThat(firstSeconds).isLessThan(StalledCall.PATIENCE.toSeconds());
      report(way, String.format(java.util.Locale.ROOT,
          "HttpException 403 after %.2f s; next call RateLimitedException, unsent", firstSeconds),
          server.requests());
    }
  }
}
