package dev.polite.vendors.github;

import static org.assertj.core.api.Assertions.assertThat;

import dev.polite.jdk.PoliteHttpClient;
import dev.polite.okhttp.PoliteInterceptor;
import java.io.IOException;
import java.net.http.HttpClient;
import java.util.Arrays;
import okhttp3.OkHttpClient;
import org.kohsuke.github.GitHub;
import org.kohsuke.github.GitHubAbuseLimitHandler;
import org.kohsuke.github.GitHubBuilder;
import org.kohsuke.github.GitHubRateLimitHandler;
import org.kohsuke.github.RateLimitChecker;
import org.kohsuke.github.extras.HttpClientGitHubConnector;
import org.kohsuke.github.extras.okhttp3.OkHttpGitHubConnector;

/**
 * The ways of calling GitHub the scenarios compare, each a github-api client on one of its two
 * engines: its OkHttp connector, and its default, {@link HttpClientGitHubConnector} (the JDK's
 * {@link HttpClient}; the jar is multi-release, and only its Java 11 class works). On each, the
 * SDK as it comes (its handlers sleep out a spent limit and a secondary limit, then retry, three
 * attempts in all), polite in the engine's client with the SDK's handlers left on, and the
 * README's layering: polite, and the handlers set to {@code FAIL}, so that only one layer waits.
 * On OkHttp also the SDK with its own pacing turned on (a {@link RateLimitChecker} that sleeps
 * until the reset when nothing is left), which is github-api's, the same on either engine.
 */
enum GitHubClients {
  ALONE("github-api alone on OkHttp (WAIT handlers)", Engine.OKHTTP) {
    @Override
    GitHubBuilder configure(GitHubBuilder b) {
      return b.withConnector(new OkHttpGitHubConnector(new OkHttpClient()));
    }
  },
  CHECKER("github-api alone on OkHttp + RateLimitChecker(0)", Engine.OKHTTP) {
    @Override
    GitHubBuilder configure(GitHubBuilder b) {
      return ALONE.configure(b).withRateLimitChecker(new RateLimitChecker.LiteralValue(0));
    }
  },
  POLITE_AND_HANDLERS("polite-okhttp + github-api's WAIT handlers", Engine.OKHTTP) {
    @Override
    GitHubBuilder configure(GitHubBuilder b) {
      return b.withConnector(new OkHttpGitHubConnector(politeOkHttp()));
    }
  },
  POLITE("polite-okhttp + FAIL handlers (README)", Engine.OKHTTP) {
    @Override
    GitHubBuilder configure(GitHubBuilder b) {
      return failHandlers(POLITE_AND_HANDLERS.configure(b));
    }
  },
  /**
   * No connector given: github-api's {@code GitHubConnector.DEFAULT}, an
   * {@link HttpClientGitHubConnector} on Java 11 and later (HttpURLConnection's before, which the
   * tests would see: {@link Engine#JDK}'s user agent is the JDK client's).
   */
  JDK_ALONE("github-api alone on its JDK connector (WAIT handlers)", Engine.JDK) {
    @Override
    GitHubBuilder configure(GitHubBuilder b) {
      return b;
    }
  },
  JDK_POLITE_AND_HANDLERS("polite-jdk + github-api's WAIT handlers", Engine.JDK) {
    @Override
    GitHubBuilder configure(GitHubBuilder b) {
      return b.withConnector(new HttpClientGitHubConnector(politeJdk()));
    }
  },
  JDK_POLITE("polite-jdk + FAIL handlers (README)", Engine.JDK) {
    @Override
    GitHubBuilder configure(GitHubBuilder b) {
      return failHandlers(JDK_POLITE_AND_HANDLERS.configure(b));
    }
  };

  /** The HTTP client a way's requests leave by, as the stand-in tells it: by its user agent. */
  enum Engine {
    OKHTTP("okhttp/"),
    JDK("Java-http-client/");

    /** How the engine's {@code User-Agent} begins (github-api sends none of its own). */
    final String userAgent;

    Engine(String userAgent) {
      this.userAgent = userAgent;
    }
  }

  final String label;
  final Engine engine;

  GitHubClients(String label, Engine engine) {
    this.label = label;
    this.engine = engine;
  }

  abstract GitHubBuilder configure(GitHubBuilder builder);

  /** The longest label, for lines that print one. */
  static int labelWidth() {
    return Arrays.stream(values()).mapToInt(way -> way.label.length()).max().orElse(0);
  }

  /** Fails unless every request {@code api} received left by this way's engine. */
  void assertSentBy(GitHubApi api) {
    assertThat(api.userAgents()).as(label + ": the user agents the stand-in saw").isNotEmpty()
        .allMatch(agent -> agent.startsWith(engine.userAgent));
  }

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

  /** The README's layering: github-api's handlers hand every limit's 403 to the caller. */
  private static GitHubBuilder failHandlers(GitHubBuilder b) {
    return b.withRateLimitHandler(GitHubRateLimitHandler.FAIL)
        .withAbuseLimitHandler(GitHubAbuseLimitHandler.FAIL);
  }

  /** polite as a new user gets it: told nothing about GitHub. */
  private static OkHttpClient politeOkHttp() {
    return new OkHttpClient.Builder().addInterceptor(PoliteInterceptor.create()).build();
  }

  /**
   * polite as a new user gets it, around the JDK client github-api would have built: the
   * defaults' {@code Redirect.NEVER} is its own (github-api follows redirects itself).
   */
  private static HttpClient politeJdk() {
    return PoliteHttpClient.wrap(HttpClient.newHttpClient());
  }
}
