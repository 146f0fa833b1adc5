package dev.polite.vendors.github;

import static org.assertj.core.api.Assertions.assertThat;

import dev.polite.vendors.LoopbackServer;
import dev.polite.vendors.ScenarioTable;
import dev.polite.vendors.Workload;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.kohsuke.github.GitHub;

/**
 * github-api against the GitHub stand-in: 40 calls (30 {@code getRepository}, 10 repository
 * searches, interleaved) at 1 and 4 callers, each of {@link GitHubClients}' ways (on OkHttp and on
 * github-api's default JDK connector), on a fresh server each (core 20 and search 5 per 2 s, 2
 * calls in flight), counted the same way on both engines: by the server. Prints the table the
 * README quotes:
 * {@code mvn -B -q test -pl vendor-sdks -am -Dtest=GitHubScenarioTest
 * -Dsurefire.failIfNoSpecifiedTests=false}.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class GitHubScenarioTest {
  @org.junit.jupiter.api.BeforeAll
  static void warmUp() throws Exception {
    GitHubClients.warmUp();
  }

  private static final int CALLS = 40;
  /**
   * The least time the limits allow, for a run that starts as a window opens: both resources need
   * a second window (30 calls against core's 20, 10 against search's 5), 2 s later.
   */
  private static final double FLOOR_SECONDS = 2.0;
  private static final ScenarioTable TABLE = new ScenarioTable(
      "github-api 1.327, " + CALLS + " calls (30 core, 10 search); core 20 and search 5 per 2 s,"
          + " at most 2 in flight");

  @AfterAll
  static void print() {
    System.out.println(TABLE.render());
  }

  private static ScenarioTable.Row run(GitHubClients way, int concurrency) throws Exception {
    GitHubApi api = GitHubApi.scaledDown();
    try (LoopbackServer server = new LoopbackServer(api)) {
      GitHub github = way.connect(server.url());
      FixedWindow.awaitNextWindow(2_000);
      Workload.Outcome outcome = Workload.run(CALLS, concurrency, 60, i -> {
        if (i % 4 == 3) {
          assertThat(github.searchRepositories().q("polite").list().toList()).hasSize(1);
        } else {
          assertThat(github.getRepository("octo/hello").getFullName()).isEqualTo("octo/hello");
        }
      });
      ScenarioTable.Row row = new ScenarioTable.Row(way.label, concurrency, CALLS, outcome,
          api.refusals(), server.requests(), FLOOR_SECONDS,
          api.secondaryRefusals() + " secondary");
      TABLE.add(row);
      way.assertSentBy(api);
      return row;
    }
  }


  @Test
  @Order(1)
  void githubApiAloneSleepsOutEachRefusalAndRetries() throws Exception {
    for (GitHubClients way : List.of(GitHubClients.ALONE, GitHubClients.JDK_ALONE)) {
      for (int concurrency : List.of(1, 4)) {
        ScenarioTable.Row row = run(way, concurrency);
        assertThat(row.outcome().ok() + row.outcome().failed()).isEqualTo(CALLS);
      }
    }
  }

  @Test
  @Order(2)
  void githubApisOwnCheckerPacesOnlyWhatItHasSeen() throws Exception {
    for (int concurrency : List.of(1, 4)) {
      ScenarioTable.Row row = run(GitHubClients.CHECKER, concurrency);
      assertThat(row.outcome().ok() + row.outcome().failed()).isEqualTo(CALLS);
    }
  }

  @Test
  @Order(3)
  void withPoliteNoCallFailsAndRejectionsAreFew() throws Exception {
    for (GitHubClients way : List.of(GitHubClients.POLITE_AND_HANDLERS, GitHubClients.POLITE,
        GitHubClients.JDK_POLITE_AND_HANDLERS, GitHubClients.JDK_POLITE)) {
      for (int concurrency : List.of(1, 4)) {
        ScenarioTable.Row row = run(way, concurrency);
        assertThat(row.outcome().failures()).as(way.label + " at " + concurrency).isEmpty();
        assertThat(row.rejections()).as(way.label + " at " + concurrency).isLessThanOrEqualTo(10);
        assertThat(row.outcome().seconds()).isLessThan(30);
      }
    }
  }
}
