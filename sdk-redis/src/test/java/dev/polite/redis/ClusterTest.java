package dev.polite.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.polite.SharedKey;
import dev.polite.Ticker;
import dev.polite.demo.DemoServer;
import dev.polite.demo.HeaderStyle;
import dev.polite.demo.StatsSnapshot;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The fleet on a real Redis Cluster ({@link RedisCluster}: three masters, a replica each), against
 * real demo servers: keys spread over every master, and a master killed mid-run fails no call,
 * its replica takes over, and each instance logs once as the master goes and once as it is back.
 */
class ClusterTest {
  private static final String PREFIX = "cluster-test:";
  private final List<AutoCloseable> opened = new ArrayList<>();

  @AfterEach
  void closeAll() throws Exception {
    for (int i = opened.size() - 1; i >= 0; i--) {
      opened.get(i).close();
    }
  }

  private <T extends AutoCloseable> T open(T resource) {
    opened.add(resource);
    return resource;
  }

  private RedisSharedState state(RedisCluster cluster, String prefix) {
    return open(RedisSharedState.builder(cluster.uri()).prefix(prefix).build());
  }

  @Test
  void keysOfOneFleetSpreadOverEveryMaster() throws Exception {
    RedisCluster cluster = open(RedisCluster.start());
    // A timeout no loaded machine misses: each key's first answer must be Redis's, not a time-out.
    RedisSharedState state = open(RedisSharedState.builder(cluster.uri()).prefix("spread:")
        .timeout(Duration.ofSeconds(2)).build());
    Ticker ticker = Ticker.system();
    // 48 keys over 3 masters: that one master gets none has a chance of 3 (2/3)^48, about 1e-8.
    List<SharedKey> keys = new ArrayList<>();
    for (int i = 0; i < 48; i++) {
      SharedKey key = state.join("https://api-" + i + ".example:443", ticker, () -> {});
      key.paceLearned(10, 10, true, ticker.read());
      key.take(1, 1, 0, ticker.read());
      keys.add(key);
    }
    List<Integer> masters = cluster.masters();
    assertThat(masters).hasSize(3);
    // The leases are asked in the background; Redis, not the keys' callbacks (which an answer in
    // before its handler is attached does not run), says where their state went.
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (System.nanoTime() < deadline && !masters.stream().allMatch(port -> cluster.keysOn(port) > 1)) {
      Thread.sleep(50); // real redis-servers: only polling tells
    }
    assertThat(masters).as("every master holds some of the fleet's keys")
        .allSatisfy(port -> assertThat(cluster.keysOn(port)).isGreaterThan(1));
    keys.forEach(SharedKey::leave);
  }

  @Test
  void aMasterKilledMidRunFailsNoCallAndItsReplicaTakesOver() throws Exception {
    RedisCluster cluster = open(RedisCluster.start());
    // Two servers, so two keys, on two different masters: the one killed and one that stays.
    List<DemoServer> servers = serversOnTwoMasters(cluster);
    DemoServer victimServer = servers.get(0);
    DemoServer otherServer = servers.get(1);
    String victimKey = stateKey(victimServer);
    int victim = cluster.masterOf(victimKey);
    assertThat(cluster.masterOf(stateKey(otherServer))).isNotEqualTo(victim);

    List<RedisSharedState> states = List.of(state(cluster, PREFIX), state(cluster, PREFIX));
    Iterator<RedisSharedState> next = states.iterator();
    ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();
    FleetRun run;
    try {
      ScheduledFuture<?> killed = scheduler.schedule(() -> {
        cluster.kill(victim);
        return null;
      }, 2, TimeUnit.SECONDS);
      run = FleetRun.run(List.of(victimServer.url(), otherServer.url()), 2, 4, Duration.ofSeconds(8), next::next);
      killed.get(10, TimeUnit.SECONDS);
    } finally {
      scheduler.shutdownNow();
    }

    assertThat(run.failures).as("no call fails because a master did").isEmpty();
    assertThat(run.ok.get()).isGreaterThan(40);
    // While the master is gone each instance paces alone at its share of the fleet's pace, the
    // server's count unshared: the tolerance of a fleet that cannot share the server's count,
    // max(3, 5 %) of the key's calls, not the none of a fleet that can.
    StatsSnapshot victimStats = victimServer.stats();
    long victimBound = Math.max(3, Math.round(0.05 * (victimStats.admitted() + victimStats.rejected())));
    assertThat(victimStats.rejected()).as("refused, the killed master's key").isLessThanOrEqualTo(victimBound);
    assertThat(otherServer.stats().rejected()).as("refused, the other key").isLessThanOrEqualTo(3);
    int successor = cluster.awaitFailover(victimKey, victim, Duration.ofSeconds(20));
    for (RedisSharedState state : states) {
      FleetTest.awaitRejoined(state, victimServer, Duration.ofSeconds(20));
      // One WARN as the master went, one INFO as its replica answered: no flapping between them,
      // though the other master's key answered in time all along.
      assertThat(state.transitions()).as("lines logged going alone and coming back").isLessThanOrEqualTo(2);
    }
    assertThat(cluster.keysOn(successor)).as("the key's state lives on in the promoted replica").isPositive();
    System.out.printf("cluster failover: 2 instances x 4 threads for 8 s, the master of one key killed at 2 s: "
        + "%d ok, %d failed; refused %d (that key) and %d (the other); WARN + INFO lines per instance %s%n",
        run.ok.get(), run.failed.get(), victimServer.stats().rejected(), otherServer.stats().rejected(),
        states.stream().map(RedisSharedState::transitions).toList());
  }

  /** Demo servers until two have keys on different masters; the others are closed. */
  private List<DemoServer> serversOnTwoMasters(RedisCluster cluster) {
    List<DemoServer> tried = new ArrayList<>();
    for (int i = 0; i < 30; i++) {
      DemoServer server = DemoServer.builder().limit(10).window(Duration.ofSeconds(1)).headers(HeaderStyle.IETF).start();
      int master = cluster.masterOf(stateKey(server));
      for (DemoServer before : tried) {
        if (cluster.masterOf(stateKey(before)) != master) {
          tried.stream().filter(s -> s != before).forEach(DemoServer::close);
          return List.of(open(before), open(server));
        }
      }
      tried.add(server);
    }
    tried.forEach(DemoServer::close);
    throw new AssertionError("30 servers' keys all on one master");
  }

  /** The Redis key of the fleet's state for {@code server}'s key (its scheme, host and port). */
  private static String stateKey(DemoServer server) {
    URI url = server.url();
    String key = url.getScheme() + "://" + url.getHost() + ":" + url.getPort();
    return PREFIX + "{" + Hex.digest("SHA-256", key).substring(0, 32) + "}:state";
  }
}
