package dev.polite.vendors.github;

import dev.polite.okhttp.PoliteInterceptor;
import java.io.IOException;
import okhttp3.OkHttpClient;
import org.kohsuke.github.GitHub;
import org.kohsuke.github.GitHubAbuseLimitHandler;
import org.kohsuke.github.GitHubBuilder;
import org.kohsuke.github.GitHubRateLimitHandler;
import org.kohsuke.github.RateLimitChecker;
import org.kohsuke.github.extras.okhttp3.OkHttpGitHubConnector;

/**
 * The ways of calling GitHub the scenarios compare, each a github-api client over its OkHttp
 * connector: the SDK as it comes (its handlers sleep out a spent limit and a secondary limit,
 * then retry, three attempts in all), the SDK with its own pacing turned on (a
 * {@link RateLimitChecker} that sleeps until the reset when nothing is left), polite in the
 * connector's OkHttpClient with the SDK's handlers left on, and the README's layering: polite, and
 * the handlers set to {@code FAIL}, so that only one layer waits.
 */
enum GitHubClients {
  ALONE("github-api alone (WAIT handlers)") {
    @Override
    GitHubBuilder configure(GitHubBuilder b) {
      return b.withConnector(new OkHttpGitHubConnector(new OkHttpClient()));
    }
  },
  CHECKER("github-api alone + RateLimitChecker(0)") {
    @Override
    GitHubBuilder configure(GitHubBuilder b) {
      return ALONE.configure(b).withRateLimitChecker(new RateLimitChecker.LiteralValue(0));
    }
  },
  POLITE_AND_HANDLERS("polite + github-api's WAIT handlers") {
    @Override
    GitHubBuilder configure(GitHubBuilder b) {
      return b.withConnector(new OkHttpGitHubConnector(politeOkHttp()));
    }
  },
  POLITE("polite + FAIL handlers (README)") {
    @Override
    GitHubBuilder configure(GitHubBuilder b) {
      return POLITE_AND_HANDLERS.configure(b)
          .withRateLimitHandler(GitHubRateLimitHandler.FAIL)
          .withAbuseLimitHandler(GitHubAbuseLimitHandler.FAIL);
    }
  };

  final String label;

  GitHubClients(String label) {
    this.label = label;
  }

  abstract GitHubBuilder configure(GitHubBuilder builder);

  private static boolean warm;

  /** One call each way against a server of its own, once per JVM, so that no run loads classes. */
  static synchronized void warmUp() throws Exception {
    if (warm) {
      return;
    }
    try (dev.polite.vendors.LoopbackServer server =
        new dev.polite.vendors.LoopbackServer(GitHubApi.scaledDown())) {
      for (GitHubClients way : values()) {
        way.connect(server.url()).getRepository("octo/hello");
      }
    }
    warm = true;
  }

  GitHub connect(String endpoint) throws IOException {
    return configure(new GitHubBuilder().withEndpoint(endpoint)).build();
  }

  /** polite as a new user gets it: told nothing about GitHub. */
  private static OkHttpClient politeOkHttp() {
    return new OkHttpClient.Builder().addInterceptor(PoliteInterceptor.create()).build();
  }
}
