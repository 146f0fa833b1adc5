import dev.polite.okhttp.PoliteInterceptor;
import okhttp3.OkHttpClient;
import org.kohsuke.github.GHRepository;
import org.kohsuke.github.GitHub;
import org.kohsuke.github.GitHubAbuseLimitHandler;
import org.kohsuke.github.GitHubBuilder;
import org.kohsuke.github.GitHubRateLimitHandler;
import org.kohsuke.github.extras.okhttp3.OkHttpGitHubConnector;

public final class PoliteGitHubExample {
  public static void main(String[] args) throws Exception {
    OkHttpClient okhttp = new OkHttpClient.Builder()
        .addInterceptor(PoliteInterceptor.create()) // learns core and search apart, waits, retries
        .build();
    GitHub github = new GitHubBuilder()
        .withEndpoint(args.length > 0 ? args[0] : "https://api.github.com")
        .withConnector(new OkHttpGitHubConnector(okhttp))
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
