package dev.polite.redis;

import static org.assertj.core.api.Assertions.fail;

import dev.polite.demo.internal.RedisProcess;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.cluster.SlotHash;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;

/**
 * A real Redis Cluster of Debian's {@code redis-server}: three masters and a replica each, on free
 * loopback ports, made by {@code redis-cli --cluster create}, and killed with every node by
 * {@link #close()}. {@code cluster-node-timeout} is 1 s (the default is 15 s), so that a killed
 * master's replica takes over within seconds. Test-only.
 *
 * <p>Usage: {@code try (RedisCluster cluster = RedisCluster.start()) { ... cluster.uri() ... }}
 */
final class RedisCluster implements AutoCloseable {
  /** How long Redis waits for a node before calling it failed, in ms: one second, for the tests. */
  static final int NODE_TIMEOUT_MILLIS = 1000;
  private static final int NODES = 6;
  private static final Duration READY_WITHIN = Duration.ofSeconds(30);

  private final List<Node> nodes = new ArrayList<>();

  /** One redis-server of the cluster. */
  record Node(int port, Process process, Path dir) {}

  private RedisCluster() {}

  /** Starts six nodes, makes them a cluster of three masters with a replica each, and waits until it is ok. */
  static RedisCluster start() throws IOException, InterruptedException {
    Path server = RedisProcess.findOnPath("redis-server");
    Path cli = RedisProcess.findOnPath("redis-cli");
    if (server == null || cli == null) {
      Assumptions.assumeFalse("1".equals(System.getenv("POLITE_SKIP_REDIS_TESTS")),
          "POLITE_SKIP_REDIS_TESTS=1: skipping the Redis tests");
      fail("redis-server and redis-cli must be on the PATH for the Cluster tests "
          + "(Debian/Ubuntu: apt-get install -y redis-server), or set POLITE_SKIP_REDIS_TESTS=1");
    }
    RedisCluster cluster = new RedisCluster();
    try {
      for (int i = 0; i < NODES; i++) {
        cluster.nodes.add(launch(server, freeClusterPort()));
      }
      for (Node node : cluster.nodes) {
        RedisProcess.awaitPong(node.process(), node.port(), node.dir().resolve("redis.log"));
      }
      List<String> create = new ArrayList<>(List.of(cli.toString(), "--cluster", "create"));
      cluster.nodes.forEach(node -> create.add("127.0.0.1:" + node.port()));
      create.addAll(List.of("--cluster-replicas", "1", "--cluster-yes"));
      // Its output goes to a file, so that the wait below is bounded: a read of its pipe would
      // block, uninterruptibly, for as long as it ran (it waits for the nodes to agree).
      Path said = Files.createTempFile("polite-cluster-create", ".log");
      try {
        Process made = new ProcessBuilder(create).redirectErrorStream(true).redirectOutput(said.toFile()).start();
        if (!made.waitFor(60, TimeUnit.SECONDS)) {
          made.destroyForcibly();
          fail("redis-cli --cluster create did not end within 60 s: " + Files.readString(said));
        }
        if (made.exitValue() != 0) {
          fail("redis-cli --cluster create failed: " + Files.readString(said));
        }
      } finally {
        Files.deleteIfExists(said);
      }
      cluster.awaitReady();
      return cluster;
    } catch (IOException | InterruptedException | RuntimeException | AssertionError e) {
      cluster.close();
      throw e;
    }
  }

  /** {@code redis-cluster://} and every node, as {@link RedisSharedState} takes it. */
  String uri() {
    StringBuilder uri = new StringBuilder("redis-cluster://");
    for (Node node : nodes) {
      uri.append(uri.length() > "redis-cluster://".length() ? "," : "").append("127.0.0.1:").append(node.port());
    }
    return uri.toString();
  }

  /** The port of the master that serves {@code redisKey}'s slot now, as a live node sees it. */
  int masterOf(String redisKey) {
    int slot = SlotHash.getSlot(redisKey);
    for (String line : clusterNodes()) {
      String[] fields = line.split(" ");
      if (fields.length < 9 || !fields[2].contains("master") || fields[2].contains("fail")) {
        continue;
      }
      for (int i = 8; i < fields.length; i++) {
        String[] range = fields[i].split("-");
        if (range[0].startsWith("[")) {
          continue; // a slot being migrated
        }
        int from = Integer.parseInt(range[0]);
        int to = range.length > 1 ? Integer.parseInt(range[1]) : from;
        if (slot >= from && slot <= to) {
          return port(fields[1]);
        }
      }
    }
    throw new AssertionError("no live master serves slot " + slot + ": " + clusterNodes());
  }

  /** The ports of the masters that serve slots now. */
  List<Integer> masters() {
    return clusterNodes().stream().map(line -> line.split(" "))
        .filter(f -> f.length >= 9 && f[2].contains("master") && !f[2].contains("fail"))
        .map(f -> port(f[1])).sorted().toList();
  }

  /** How many keys the node on {@code port} holds. */
  long keysOn(int port) {
    return sync(port, c -> c.sync().dbsize());
  }

  /** Kills the node on {@code port} (SIGKILL) and waits for it to exit. */
  void kill(int port) throws InterruptedException {
    for (Node node : nodes) {
      if (node.port() == port) {
        node.process().destroyForcibly().waitFor();
        return;
      }
    }
    throw new IllegalArgumentException("no node on " + port);
  }

  /** Waits until a live node sees a master other than {@code killed} serving {@code redisKey}. */
  int awaitFailover(String redisKey, int killed, Duration within) throws InterruptedException {
    long deadline = System.nanoTime() + within.toNanos();
    while (System.nanoTime() < deadline) {
      try {
        int master = masterOf(redisKey);
        if (master != killed) {
          return master;
        }
      } catch (AssertionError | RuntimeException notYet) {
        // the slot is uncovered while the replica is elected
      }
      Thread.sleep(100);
    }
    throw new AssertionError("no replica took over from " + killed + " within " + within.toSeconds() + " s: "
        + clusterNodes());
  }

  private List<String> clusterNodes() {
    for (Node node : nodes) {
      if (!node.process().isAlive()) {
        continue;
      }
      try {
        return List.of(sync(node.port(), c -> c.sync().clusterNodes()).split("\n"));
      } catch (RuntimeException tryAnother) {
        // a node that is going away
      }
    }
    throw new AssertionError("no live node of the cluster answers");
  }

  private void awaitReady() throws InterruptedException {
    long deadline = System.nanoTime() + READY_WITHIN.toNanos();
    while (System.nanoTime() < deadline) {
      if (nodes.stream().allMatch(this::clusterOk)
          && nodes.stream().filter(this::replicaInSync).count() == NODES / 2) {
        return;
      }
      Thread.sleep(100);
    }
    fail("the cluster was not ok within " + READY_WITHIN.toSeconds() + " s: " + clusterNodes());
  }

  /** The node knows every other and sees every slot served. */
  private boolean clusterOk(Node node) {
    try {
      return sync(node.port(), c -> {
        String info = c.sync().clusterInfo();
        return info.contains("cluster_state:ok") && info.contains("cluster_known_nodes:" + NODES);
      });
    } catch (RuntimeException notYet) {
      return false;
    }
  }

  /** The node is a replica with its master's data, so that it can take over. */
  private boolean replicaInSync(Node node) {
    try {
      return sync(node.port(), c -> {
        String replication = c.sync().info("replication");
        return replication.contains("role:slave") && replication.contains("master_link_status:up");
      });
    } catch (RuntimeException notYet) {
      return false;
    }
  }

  private static <T> T sync(int port, java.util.function.Function<StatefulRedisConnection<String, String>, T> use) {
    RedisClient client = RedisClient.create("redis://127.0.0.1:" + port);
    try (StatefulRedisConnection<String, String> connection = client.connect()) {
      return use.apply(connection);
    } finally {
      client.shutdown(0, 1, TimeUnit.SECONDS);
    }
  }

  private static int port(String address) {
    String hostPort = address.split("@")[0];
    return Integer.parseInt(hostPort.substring(hostPort.lastIndexOf(':') + 1));
  }

  private static Node launch(Path server, int port) throws IOException {
    Path dir = Files.createTempDirectory("polite-cluster-" + port);
    Process process = new ProcessBuilder(server.toString(), "--port", Integer.toString(port),
        "--bind", "127.0.0.1", "--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf",
        "--cluster-node-timeout", Integer.toString(NODE_TIMEOUT_MILLIS), "--save", "",
        "--appendonly", "no", "--dir", dir.toString(), "--daemonize", "no", "--loglevel", "warning")
        .redirectErrorStream(true)
        .redirectOutput(dir.resolve("redis.log").toFile())
        .start();
    return new Node(port, process, dir);
  }

  /**
   * A port that is free, and whose cluster bus port (10000 above it) is too: drawn below the
   * kernel's ephemeral range (32768 up), where a bus port 10000 higher still fits.
   */
  private static int freeClusterPort() throws IOException {
    for (int attempt = 0; attempt < 200; attempt++) {
      int port = ThreadLocalRandom.current().nextInt(15000, 22000);
      if (free(port) && free(port + 10000)) {
        return port;
      }
    }
    throw new IOException("no free pair of ports (port, port + 10000) found");
  }

  private static boolean free(int port) {
    try (ServerSocket socket = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
      return true;
    } catch (IOException taken) {
      return false;
    }
  }

  @Override
  public void close() {
    for (Node node : nodes) {
      node.process().destroyForcibly();
    }
    for (Node node : nodes) {
      try {
        node.process().waitFor(5, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      try (Stream<Path> files = Files.walk(node.dir())) {
        files.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
      } catch (IOException e) {
        // a scratch directory left in the temp directory is harmless
      }
    }
  }
}
