package dev.polite.examples.zoo;

import dev.polite.demo.Algorithm;
import dev.polite.demo.HeaderStyle;
import dev.polite.demo.SecondPolicy;
import dev.polite.examples.clients.ClientKind;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Which cells the zoo runs: the limiters (rows), the concurrencies (columns), the clients, and
 * the requests per cell; the full zoo, or {@code --quick}'s cells that matter most.
 *
 * <p>The rate limiters allow 20 requests per second each: the demo server's token bucket (burst 20) in
 * each header dialect (the Retry-After date from a clock a minute ahead of ours), its fixed
 * window, sliding log and queueing leaky bucket (a queue of 20) with no headers at all and with
 * IETF headers, the fixed window with the counts that name no reset (Shopify's used/limit, Azure's
 * remaining), and HAProxy's sliding rate when {@code haproxy} is installed. Then the shapes of a
 * limit, each its own row: a cap of {@value #CAP} calls in flight per key (each admitted call taking
 * 50 ms, under a token bucket far above what a cell needs) refused with 429 or with GitHub's 403, a
 * fixed window whose every 10th answer states a reset 200 days out, a quota of 20 an hour that
 * the cell spends (refused with 403), judged by {@link Verdict#spentQuota}, and one host with two
 * budgets, as GitHub's {@code core} and {@code search} ({@code budgets/x-ratelimit}: a fixed window,
 * core 20 per second and {@code /api/search} its own 5 per second, each answer naming its budget in
 * {@code x-ratelimit-resource}; 3 calls in 4 go to core, 1 in 4 to search, and the floor is the
 * larger of the two budgets' floors for their shares), the same two budgets in X's dialect with no
 * answer naming its budget ({@code budgets/unnamed}), the cap refused with a bare 429
 * ({@code concurrency/none}), two policies in one IETF field (the bucket and a window of 60 per
 * 5 s, {@code policies/ietf}), a block of 1 s that every early call restarts
 * ({@code block/restarted}), a limiter that refuses everything ({@code refuses/everything}, judged
 * by {@link Verdict#refusesEverything}), and every 10th answer a refusal saying "come back in a
 * day" on the bucket that says Retry-After alone ({@code hints/unusable}, judged by
 * {@link Verdict#unusableHints}).
 *
 * <p>polite, polite-jdk and polite-adaptive run every cell. A peer runs only where its input differs, since
 * the rest would repeat a row: {@code naive} and {@code paced} read no header, so they run one row
 * per algorithm; {@code retry-after} and {@code failsafe} read only Retry-After, so they run the
 * token bucket's rows whose Retry-After differs (seconds, a date, none) plus one row per other
 * algorithm. The cap, the quota, the two budgets, the two policies, the block, the limiter that
 * refuses everything and the unusable hints are limiters of their own, so every peer runs
 * {@code concurrency/x-ratelimit}, {@code quota/spent}, {@code budgets/x-ratelimit},
 * {@code policies/ietf}, {@code block/restarted}, {@code refuses/everything} and
 * {@code hints/unusable} (a peer that reads no header still meets a different limiter there: the
 * mix spends search four times as fast as core, and its floor is search's); GitHub's 403 differs
 * from the 429 only for a peer that retries (the status decides whether it does), so {@code paced},
 * which never retries, skips {@code concurrency/github-403}; the bare 429 of
 * {@code concurrency/none} differs only for a reader of Retry-After; no peer reads a budget's name,
 * so none runs {@code budgets/unnamed}; and no peer reads a reset, so none runs
 * {@code fixed-window/wrong-reset}. {@link Selection#everyCell()} runs every client everywhere.
 *
 * <p>Usage: {@code ZooMatrix matrix = ZooMatrix.quick(Selection.DEFAULT, Executables.onPath("haproxy"));}
 */
final class ZooMatrix {
  /** Every limiter's limit: 20 requests ... */
  public static final long LIMIT = 20;
  /** ... per second. */
  public static final Duration WINDOW = Duration.ofSeconds(1);
  /** The bucket's capacity and the leaky queue's slots. */
  public static final long BURST = 20;
  /** How far ahead of ours the clock of the server that sends Retry-After as a date runs. */
  public static final Duration CLOCK_AHEAD = Duration.ofSeconds(60);
  /** Calls per cell in the full zoo: the floors are 4 to 5 s at 20 per second. */
  public static final int REQUESTS = 100;
  /**
   * Calls per cell in {@code --quick}: as many as the full zoo, so that a quick cell is judged on
   * the same yardstick as its full twin (with 60, the few refusals any client without a word
   * from the server pays to find a limit weighed two thirds more against the 10 % target).
   */
  public static final int QUICK_REQUESTS = REQUESTS;
  /** The cap rows' calls in flight per key ... */
  public static final int CAP = 2;
  /** ... each admitted call taking this long. */
  public static final Duration CAP_LATENCY = Duration.ofMillis(50);
  /**
   * The cap rows' token bucket, per second and burst alike: far above what a cell can ask of it
   * (at most {@code CAP} calls per {@code CAP_LATENCY}, 40 per second), so only the cap binds.
   */
  public static final long CAP_BUCKET = 1000;
  /** The wrong-reset row: every 10th answer states a reset 200 days out. */
  public static final int WRONG_RESET_EVERY = 10;
  /** The spent quota: 20 calls ... */
  public static final long QUOTA = 20;
  /** ... per hour, far longer than any call may wait. */
  public static final Duration QUOTA_WINDOW = Duration.ofHours(1);
  /** The two-budget row's own route: {@code /api/search} ... */
  public static final String SEARCH_PREFIX = "/api/search";
  /** ... a budget named {@code search} ... */
  public static final String SEARCH_NAME = "search";
  /** ... of 5 calls per {@link #WINDOW}, beside core's {@link #LIMIT}; */
  public static final long SEARCH_LIMIT = 5;
  /** 3 calls in every 4 go to core ... */
  public static final int CORE_CALLS = 3;
  /** ... and 1 to search. */
  public static final int SEARCH_CALLS = 1;
  /** The block row's block: 1 s after the latest refused call. */
  public static final Duration BLOCK_FOR = Duration.ofSeconds(1);
  /**
   * The two-policy row's second policy: a fixed window of 60 per 5 s beside the bucket's 20 per
   * second, burst 20. Both bind in a cell of 100 calls from one caller to 64: the bucket for the
   * window's first 60 calls (2 s), the window until the next opens (3 s more), the bucket again
   * for the rest.
   */
  public static final SecondPolicy SECOND_POLICY = new SecondPolicy("window", 60, Duration.ofSeconds(5));
  /**
   * The unusable hints' row: every 10th answer a refusal saying "come back in a day", on the zoo's
   * bucket of 20 a second whose own refusals say Retry-After alone.
   */
  public static final int BOGUS_EVERY = 10;
  /** The full zoo's columns. */
  public static final List<Integer> CONCURRENCY = List.of(1, 4, 16, 64);
  /** The printed note (and the JSON summary's) when HAProxy's rows are skipped. */
  public static final String HAPROXY_MISSING =
      "haproxy is not on the PATH: its rows are skipped (apt-get install haproxy to run them)";

  /** The quick zoo's cells for polite and polite-jdk: limiter and concurrency. */
  private static final List<Spot> QUICK = List.of(
      new Spot("token-bucket/none", 16), new Spot("token-bucket/none", 64),
      new Spot("token-bucket/legacy", 16), new Spot("token-bucket/legacy", 64),
      new Spot("token-bucket/x-ratelimit", 16), new Spot("token-bucket/x-ratelimit", 64),
      new Spot("token-bucket/retry-after-date", 16), new Spot("token-bucket/retry-after-date", 64),
      new Spot("token-bucket/ietf", 64),
      new Spot("fixed-window/none", 16),
      new Spot("haproxy", 4), new Spot("haproxy", 16),
      new Spot("fixed-window/wrong-reset", 16),
      new Spot("budgets/x-ratelimit", 16), new Spot("budgets/x-ratelimit", 64),
      new Spot("quota/spent", 4), new Spot("quota/spent", 16),
      new Spot("concurrency/x-ratelimit", 4), new Spot("concurrency/github-403", 16),
      new Spot("concurrency/none", 16), new Spot("fixed-window/used-limit", 16),
      new Spot("budgets/unnamed", 16), new Spot("policies/ietf", 64), new Spot("block/restarted", 16),
      new Spot("refuses/everything", 16), new Spot("hints/unusable", 64));

  /**
   * The quick zoo's cells for polite on the other engines ({@link #QUICK_ENGINES}): the same core
   * as polite-jdk's, carried by another adapter, so the cells where an adapter can go wrong: calls
   * paced from refusals alone, a cap on calls in flight, stray refusals beside a limiter, and a
   * limiter that refuses everything.
   */
  private static final List<Spot> QUICK_ENGINE_SPOTS = List.of(
      new Spot("token-bucket/none", 16), new Spot("concurrency/none", 16), new Spot("hints/unusable", 64),
      new Spot("refuses/everything", 16));

  /** polite on the other engines in the quick zoo: RestClient (on the JDK's request factory), WebClient, HttpClient 5. */
  public static final List<ClientKind> QUICK_ENGINES = List.of(ClientKind.POLITE_SPRING, ClientKind.POLITE_WEBCLIENT,
      ClientKind.POLITE_HC5);
  /** The quick zoo's one cell for polite-adaptive: no headers, the most callers. */
  private static final Spot QUICK_ADAPTIVE = new Spot("token-bucket/none", 64);

  /** Clients that read no rate-limit header at all. */
  private static final Set<ClientKind> HEADER_BLIND = EnumSet.of(ClientKind.NAIVE, ClientKind.PACED);
  /** Peers that retry a refusal, so that its status (429, or GitHub's 403) decides what they do. */
  private static final Set<ClientKind> RETRYING = EnumSet.of(ClientKind.NAIVE, ClientKind.RETRY_AFTER,
      ClientKind.FAILSAFE);
  /** Clients that read Retry-After and nothing else. */
  private static final Set<ClientKind> RETRY_AFTER_ONLY = EnumSet.of(ClientKind.RETRY_AFTER, ClientKind.FAILSAFE);
  /**
   * The token bucket's dialects whose Retry-After differs for a reader of Retry-After alone:
   * seconds (every other dialect sends the same seconds), a date from a clock ahead, and none.
   */
  private static final Set<HeaderStyle> RETRY_AFTER_SHAPES = EnumSet.of(HeaderStyle.RETRY_AFTER,
      HeaderStyle.RETRY_AFTER_DATE, HeaderStyle.NONE);

  private final List<ZooCell> cells;
  private final List<String> notes;
  private final int requests;
  private final boolean quick;

  private ZooMatrix(List<ZooCell> cells, List<String> notes, int requests, boolean quick) {
    this.cells = List.copyOf(cells);
    this.notes = List.copyOf(notes);
    this.requests = requests;
    this.quick = quick;
  }

  /**
   * What the user asked for on the command line; empty lists mean "the default".
   *
   * @param clients the clients, in the table's order
   * @param servers substrings of limiter names: a limiter runs when its name contains any
   * @param concurrency the columns
   * @param everyCell run every client on every limiter, not only where its input differs
   */
  public record Selection(List<ClientKind> clients, List<String> servers, List<Integer> concurrency,
      boolean everyCell) {
    /** Nothing chosen: the defaults. */
    public static final Selection DEFAULT = new Selection(List.of(), List.of(), List.of(), false);

    public Selection {
      clients = List.copyOf(clients);
      servers = List.copyOf(servers);
      concurrency = List.copyOf(concurrency);
    }

    boolean wants(ZooServer server) {
      return servers.isEmpty() || servers.stream().anyMatch(part -> server.name().contains(part));
    }

    boolean wants(int c) {
      return concurrency.isEmpty() || concurrency.contains(c);
    }
  }

  /** A limiter (by name) at one concurrency. */
  private record Spot(String server, int concurrency) {}

  /** The full zoo, less what {@code selection} leaves out. */
  public static ZooMatrix full(Selection selection, Optional<Path> haproxy) {
    List<ClientKind> clients = selection.clients().isEmpty() ? defaultClients() : selection.clients();
    List<Integer> columns = selection.concurrency().isEmpty() ? CONCURRENCY : selection.concurrency();
    List<ZooServer> servers = servers(haproxy).stream().filter(selection::wants).toList();
    List<ZooCell> cells = new ArrayList<>();
    for (ClientKind client : clients) {
      for (ZooServer server : servers) {
        if (!selection.everyCell() && !tells(client, server)) {
          continue;
        }
        for (int c : columns) {
          cells.add(new ZooCell(client, server, c, REQUESTS));
        }
      }
    }
    return new ZooMatrix(cells, notes(selection, haproxy), REQUESTS, false);
  }

  /**
   * The quick zoo: polite, then polite-jdk, on the cells that matter most (the token bucket with
   * no headers, the legacy and GitHub dialects and a Retry-After date from a clock a minute ahead,
   * at 16 and 64 callers; IETF at 64; a fixed window with no headers at 16; HAProxy at 4 and 16; a
   * fixed window with a wrong reset now and then, at 16; two budgets on one host at 16 and 64; the
   * spent quota at 4 and 16; the caps), polite-adaptive on one of them, and polite on the other
   * engines on four ({@link #QUICK_ENGINES}); with {@code --clients}, each named client on those cells.
   */
  public static ZooMatrix quick(Selection selection, Optional<Path> haproxy) {
    List<ZooServer> servers = servers(haproxy);
    List<ZooCell> cells = new ArrayList<>();
    if (selection.clients().isEmpty()) {
      addSpots(cells, ClientKind.POLITE, QUICK, servers, selection);
      addSpots(cells, ClientKind.POLITE_JDK, QUICK, servers, selection);
      addSpots(cells, ClientKind.POLITE_ADAPTIVE, List.of(QUICK_ADAPTIVE), servers, selection);
      for (ClientKind engine : QUICK_ENGINES) {
        addSpots(cells, engine, QUICK_ENGINE_SPOTS, servers, selection);
      }
    } else {
      for (ClientKind client : selection.clients()) {
        addSpots(cells, client, QUICK, servers, selection);
      }
    }
    return new ZooMatrix(cells, notes(selection, haproxy), QUICK_REQUESTS, true);
  }

  /**
   * Every limiter of the zoo, in the table's order: the token bucket's dialects, the other
   * algorithms, the shapes of a limit, and HAProxy last, only when it is installed.
   */
  public static List<ZooServer> servers(Optional<Path> haproxy) {
    List<ZooServer> servers = new ArrayList<>();
    for (HeaderStyle style : List.of(HeaderStyle.IETF, HeaderStyle.LEGACY, HeaderStyle.X_RATELIMIT,
        HeaderStyle.USED_LIMIT, HeaderStyle.AZURE, HeaderStyle.RETRY_AFTER, HeaderStyle.RETRY_AFTER_MS,
        HeaderStyle.RETRY_AFTER_DATE, HeaderStyle.NONE)) {
      servers.add(demo(Algorithm.TOKEN_BUCKET, style,
          style == HeaderStyle.RETRY_AFTER_DATE ? CLOCK_AHEAD : Duration.ZERO));
    }
    for (Algorithm algorithm : List.of(Algorithm.FIXED_WINDOW, Algorithm.SLIDING_LOG, Algorithm.LEAKY_QUEUE)) {
      servers.add(demo(algorithm, HeaderStyle.NONE, Duration.ZERO));
      servers.add(demo(algorithm, HeaderStyle.IETF, Duration.ZERO));
      if (algorithm == Algorithm.FIXED_WINDOW) {
        // counts with no reset, against a window whose count jumps back when it turns
        servers.add(demo(algorithm, HeaderStyle.USED_LIMIT, Duration.ZERO));
        servers.add(demo(algorithm, HeaderStyle.AZURE, Duration.ZERO));
      }
    }
    servers.addAll(shapes());
    haproxy.ifPresent(binary -> servers.add(new HaproxyZooServer(binary, LIMIT, WINDOW)));
    return servers;
  }

  /**
   * The shapes of a limit: the cap on calls in flight with 429s, with GitHub's 403s and with a bare
   * 429, a wrong reset now and then, a spent quota, two budgets on one host (named in the answers,
   * and not), two policies in one field, a block that early calls restart, a limiter that refuses
   * everything, and refusals whose hint no client can use.
   */
  static List<DemoZooServer> shapes() {
    Split coreAndSearch = new Split(CORE_CALLS,
        List.of(new Route(SEARCH_PREFIX, SEARCH_NAME, SEARCH_LIMIT, WINDOW, SEARCH_CALLS)));
    return List.of(
        new DemoZooServer("concurrency/x-ratelimit", Algorithm.TOKEN_BUCKET, HeaderStyle.X_RATELIMIT, CAP_BUCKET,
            WINDOW, CAP_BUCKET, Duration.ZERO, Shape.cap(CAP, CAP_LATENCY, 429)),
        new DemoZooServer("concurrency/github-403", Algorithm.TOKEN_BUCKET, HeaderStyle.X_RATELIMIT, CAP_BUCKET,
            WINDOW, CAP_BUCKET, Duration.ZERO, Shape.cap(CAP, CAP_LATENCY, 403)),
        new DemoZooServer("concurrency/none", Algorithm.TOKEN_BUCKET, HeaderStyle.NONE, CAP_BUCKET, WINDOW,
            CAP_BUCKET, Duration.ZERO, Shape.cap(CAP, CAP_LATENCY, 429)),
        new DemoZooServer("fixed-window/wrong-reset", Algorithm.FIXED_WINDOW, HeaderStyle.X_RATELIMIT, LIMIT, WINDOW,
            BURST, Duration.ZERO, Shape.wrongReset(WRONG_RESET_EVERY)),
        new DemoZooServer("quota/spent", Algorithm.FIXED_WINDOW, HeaderStyle.X_RATELIMIT, QUOTA, QUOTA_WINDOW, QUOTA,
            Duration.ZERO, Shape.spent(403)),
        new DemoZooServer("budgets/x-ratelimit", Algorithm.FIXED_WINDOW, HeaderStyle.X_RATELIMIT, LIMIT, WINDOW, BURST,
            Duration.ZERO, Shape.budgets(coreAndSearch)),
        new DemoZooServer("budgets/unnamed", Algorithm.FIXED_WINDOW, HeaderStyle.X_RATE_LIMIT, LIMIT, WINDOW, BURST,
            Duration.ZERO, Shape.budgets(coreAndSearch.unnamed())),
        new DemoZooServer("policies/ietf", Algorithm.TOKEN_BUCKET, HeaderStyle.IETF, LIMIT, WINDOW, BURST,
            Duration.ZERO, Shape.twoPolicies(SECOND_POLICY)),
        new DemoZooServer("block/restarted", Algorithm.TOKEN_BUCKET, HeaderStyle.RETRY_AFTER, LIMIT, WINDOW, BURST,
            Duration.ZERO, Shape.block(BLOCK_FOR)),
        new DemoZooServer("refuses/everything", Algorithm.TOKEN_BUCKET, HeaderStyle.NONE, LIMIT, WINDOW, BURST,
            Duration.ZERO, Shape.refusesEverything()),
        new DemoZooServer("hints/unusable", Algorithm.TOKEN_BUCKET, HeaderStyle.RETRY_AFTER, LIMIT, WINDOW,
            BURST, Duration.ZERO, Shape.unusableHints(BOGUS_EVERY, Duration.ZERO)));
  }

  /**
   * Whether {@code client} meets something new on {@code server}: polite's clients everywhere; a
   * peer that reads no header only on one row per algorithm (IETF headers, or HAProxy), which
   * stands for the rows it cannot tell apart; a reader of Retry-After alone on the token bucket's
   * rows whose Retry-After differs, and on one row per other algorithm. Of the shapes, every peer
   * on the cap with 429s, the spent quota, the two named budgets, the two policies, the block, the
   * limiter that refuses everything and the unusable hints (limiters of their own), a peer that
   * retries on the cap with GitHub's 403s (the status decides whether it retries), a reader of
   * Retry-After on the cap's bare 429 (the one it differs for), and none on the unnamed budgets (no
   * peer reads a budget's name) or the wrong reset (no peer reads a reset).
   */
  static boolean tells(ClientKind client, ZooServer server) {
    if (!(server instanceof DemoZooServer demo)) {
      return true;
    }
    if (client.hasPolite()) {
      return true;
    }
    Shape shape = demo.shape();
    if (!shape.split().none()) {
      return shape.split().named();
    }
    if (shape.spentQuota() || shape.refuseAll() || shape.bogusRefusalEvery() > 0 || shape.secondPolicy() != null
        || !shape.blockFor().isZero()) {
      return true;
    }
    if (shape.concurrency() > 0) {
      if (demo.headers() == HeaderStyle.NONE) {
        return RETRY_AFTER_ONLY.contains(client);
      }
      return shape.rejectStatus() == 429 || RETRYING.contains(client);
    }
    if (shape.wrongResetEvery() > 0) {
      return false;
    }
    boolean bucket = demo.algorithm() == Algorithm.TOKEN_BUCKET;
    if (HEADER_BLIND.contains(client)) {
      return demo.headers() == HeaderStyle.IETF;
    }
    if (RETRY_AFTER_ONLY.contains(client)) {
      return bucket ? RETRY_AFTER_SHAPES.contains(demo.headers()) : demo.headers() == HeaderStyle.IETF;
    }
    return true;
  }

  /** The cells, in the order they run: client by client, limiter by limiter, concurrency rising. */
  public List<ZooCell> cells() {
    return cells;
  }

  /** Lines to print before the table, such as {@link #HAPROXY_MISSING}. */
  public List<String> notes() {
    return notes;
  }

  /** Calls per cell. */
  public int requests() {
    return requests;
  }

  /** Whether this is {@code --quick}'s matrix. */
  public boolean quick() {
    return quick;
  }

  /**
   * polite, polite-jdk and polite-adaptive first (the subjects), then the peers in the table's usual
   * order; polite on the other engines (Spring's, HttpClient 5's) only when named, since each adds a
   * quarter of an hour of cells that run what polite-jdk runs, on another engine.
   */
  static List<ClientKind> defaultClients() {
    List<ClientKind> clients = new ArrayList<>(List.of(ClientKind.POLITE, ClientKind.POLITE_JDK,
        ClientKind.POLITE_ADAPTIVE));
    for (ClientKind kind : ClientKind.values()) {
      if (!clients.contains(kind) && kind.engine() == ClientKind.Engine.OKHTTP) {
        clients.add(kind);
      }
    }
    return clients;
  }

  private static void addSpots(List<ZooCell> cells, ClientKind client, List<Spot> spots, List<ZooServer> servers,
      Selection selection) {
    for (Spot spot : spots) {
      for (ZooServer server : servers) {
        if (server.name().equals(spot.server()) && selection.wants(server) && selection.wants(spot.concurrency())) {
          cells.add(new ZooCell(client, server, spot.concurrency(), QUICK_REQUESTS));
        }
      }
    }
  }

  private static List<String> notes(Selection selection, Optional<Path> haproxy) {
    boolean haproxyWanted = selection.servers().isEmpty()
        || selection.servers().stream().anyMatch("haproxy"::contains);
    return haproxy.isEmpty() && haproxyWanted ? List.of(HAPROXY_MISSING) : List.of();
  }

  private static DemoZooServer demo(Algorithm algorithm, HeaderStyle headers, Duration clockSkew) {
    return new DemoZooServer(algorithm, headers, LIMIT, WINDOW, BURST, clockSkew);
  }
}
