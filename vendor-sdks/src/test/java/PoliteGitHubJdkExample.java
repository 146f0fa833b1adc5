import dev.polite.jdk.PoliteHttpClient;
import java.net.http.HttpClient;
import org.kohsuke.github.GHRepository;
import org.kohsuke.github.GitHub;
import org.kohsuke.github.GitHubAbuseLimitHandler;
import org.kohsuke.github.GitHubBuilder;
import org.kohsuke.github.GitHubRateLimitHandler;
import org.kohsuke.github.extras.HttpClientGitHubConnector;

public final class PoliteGitHubJdkExample {
  public static void main(String[] args) throws Exception {
    // The client github-api builds by default (it follows redirects itself), made polite:
    // learns core and search apart, waits, retries.
    HttpClient http = PoliteHttpClient.wrap(HttpClient.newHttpClient());
    GitHub github = new GitHubBuilder()
        .withEndpoint(args.length > 0 ? args[0] : "https://api.github.com")
        .withConnector(new HttpClientGitHubConnector(http))
        // One layer waits: polite. github-api's default handlers sleep until the reset, however
        // far (an hour for a spent quota), after polite has judged the wait too long; FAIL hands
        // you that 403 as github-api's own HttpException, at once.
        .withRateLimitHandler(GitHubRateLimitHandler.FAIL)
        .withAbuseLimitHandler(GitHubAbuseLimitHandler.FAIL)
        .build();
    GHRepository repo = github.getRepository("octo/hello");
    System.out.println(repo.getFullName());
  }
}
