package dev.polite.okhttp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.polite.RateLimitedException;
import dev.polite.okhttp.SeveralBudgetsTest.Style;
import dev.polite.okhttp.SeveralBudgetsTest.TwoBudgets;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import okhttp3.OkHttpClient;
import okhttp3.Response;
import org.assertj.core.data.Percentage;
import org.junit.jupiter.api.Test;

/**
 * One host with two budgets it never names, as X's API v2 keeps them: each endpoint answers with
 * its own {@code x-rate-limit-limit}, and nothing says which budget that is. The quotas alone
 * tell them apart: what the tight endpoint teaches must never pace or pause the generous one.
 */
class UnnamedBudgetsTest extends HarnessTest {
  private static final String CORE = "/2/tweets/1234";
  private static final String SEARCH = "/2/users/by/username/jack";

  private PoliteInterceptor polite() {
    return h.polite().maxWait(Duration.ofSeconds(5)).throwWhenRateLimited(true).build();
  }

  private String key() {
    return "http://" + h.server.getHostName() + ":" + h.server.getPort();
  }

  private int code(OkHttpClient client, String path) throws IOException {
    try (Response r = client.newCall(h.get(path)).execute()) {
      return r.code();
    }
  }

  @Test
  void aSpentTightBudgetNeitherPausesNorPacesTheGenerousOne() throws Exception {
    TwoBudgets server = new TwoBudgets(h.clock, 900, Duration.ofMinutes(15), 3, Duration.ofMinutes(1), Style.UNNAMED);
    server.searchPrefix = "/2/users";
    h.server.setDispatcher(server);
    PoliteInterceptor polite = polite();
    OkHttpClient client = h.client(polite);

    assertThat(code(client, CORE)).isEqualTo(200);
    for (int i = 0; i < 3; i++) {
      assertThat(code(client, SEARCH)).isEqualTo(200);
    }
    // The tight budget is spent for the rest of its minute: its next call fails at once, even
    // for another user (the route's parent), and the generous budget's calls go on.
    assertThatThrownBy(() -> code(client, "/2/users/by/username/other")).isInstanceOf(RateLimitedException.class);
    double before = h.clock.elapsedSeconds();
    for (int i = 0; i < 20; i++) {
      assertThat(code(client, "/2/tweets/" + (1000 + i))).isEqualTo(200);
    }

    assertThat(h.clock.elapsedSeconds() - before).as("the generous budget waited for the tight one").isLessThan(0.01);
    assertThat(server.core.refused.get()).isZero();
    assertThat(server.search.refused.get()).isZero();
    assertThat(polite.snapshot(key() + " [3]")).hasValueSatisfying(s -> {
      assertThat(s.pace()).isCloseTo(3 / 60.0, Percentage.withPercentage(3));
      assertThat(s.pausedFor()).isPositive();
    });
    assertThat(polite.snapshot(key())).hasValueSatisfying(s -> {
      assertThat(s.pace()).isCloseTo(900 / 900.0, Percentage.withPercentage(3));
      assertThat(s.pausedFor()).isZero();
    });
  }

  @Test
  void theTightBudgetHeardFirstIsTheKeysOwnAndTheGenerousOneSplitsOff() throws Exception {
    TwoBudgets server = new TwoBudgets(h.clock, 900, Duration.ofMinutes(15), 2, Duration.ofMinutes(1), Style.UNNAMED);
    server.searchPrefix = "/2/users";
    h.server.setDispatcher(server);
    OkHttpClient client = h.client(polite());

    assertThat(code(client, SEARCH)).isEqualTo(200);
    assertThat(code(client, CORE)).isEqualTo(200); // another quota: a budget of its own
    assertThat(code(client, SEARCH)).isEqualTo(200); // the tight budget's last: spent
    for (int i = 0; i < 10; i++) {
      assertThat(code(client, "/2/tweets/" + i)).isEqualTo(200);
    }
    assertThatThrownBy(() -> code(client, SEARCH)).isInstanceOf(RateLimitedException.class);

    assertThat(server.core.refused.get()).isZero();
    assertThat(server.search.refused.get()).isZero();
    assertThat(h.clock.elapsedSeconds()).isLessThan(0.01);
  }

  @Test
  void manyThreadsOnTwoUnnamedBudgetsFailNothingAndTheGenerousOneIsNeverRefused() throws Exception {
    TwoBudgets server = new TwoBudgets(h.clock, 5000, Duration.ofHours(1), 6, Duration.ofSeconds(10), Style.UNNAMED);
    server.searchPrefix = "/2/users";
    h.server.setDispatcher(server);
    OkHttpClient client = h.client(h.polite().maxWait(Duration.ofSeconds(60)).build());

    ExecutorService pool = Executors.newFixedThreadPool(8);
    try {
      List<Future<Integer>> results = new ArrayList<>();
      for (int i = 0; i < 52; i++) {
        String path = i % 4 == 3 ? "/2/users/by/username/u" + i : "/2/tweets/" + i;
        results.add(pool.submit(() -> code(client, path)));
      }
      for (Future<Integer> r : results) {
        assertThat(r.get(30, TimeUnit.SECONDS)).isEqualTo(200);
      }
    } finally {
      pool.shutdownNow();
    }

    assertThat(server.core.admitted.get()).isEqualTo(39);
    assertThat(server.search.admitted.get()).isEqualTo(13);
    assertThat(server.core.refused.get()).as("paced by the tight budget, it would be").isZero();
    assertThat(server.search.refused.get()).isLessThanOrEqualTo(3);
  }

  @Test
  void asynchronousCallsSplitTheBudgetsAlike() throws Exception {
    TwoBudgets server = new TwoBudgets(h.clock, 5000, Duration.ofHours(1), 2, Duration.ofMinutes(1), Style.UNNAMED);
    server.searchPrefix = "/2/users";
    SeveralBudgetsTest.asynchronousCallsSplitTheBudgets(h, server, polite(), CORE, SEARCH);
  }
}
