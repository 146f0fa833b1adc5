package dev.polite.examples.load;

import dev.polite.PoliteListener;
import dev.polite.examples.ProgressLine;
import dev.polite.examples.clients.ClientKind;
import dev.polite.examples.clients.ClientKindConverter;
import dev.polite.micrometer.PoliteMetrics;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import okhttp3.HttpUrl;
import okhttp3.OkHttpClient;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code load}: sends N GETs to a URL through one client and says what happened. This is how a
 * user tries polite against their own API, side by side with the peers, before adopting it.
 * Given {@code --url} several times, call {@code i} goes to URL {@code i mod n} (a fixed mix:
 * three core URLs and a search one send a quarter of the calls to search), and the summary breaks
 * the calls down per distinct URL.
 *
 * <p>Usage: {@code java -jar polite-examples.jar load --url http://127.0.0.1:8080/api/items --requests 30 --client polite --json}
 */
@Command(name = "load",
    description = {
        "Sends N GET requests to a URL through one client, C at a time, and prints a summary. "
            + "With --url given n times, call i goes to the (i mod n)th URL, round robin, and the summary "
            + "adds one line per distinct URL (with --json: urls, a list of url, calls, ok, failed, refused, "
            + "seconds to the end of its last call).",
        "With --json the last stdout line is one JSON object: "
            + "client, requests, succeeded, failed, rejected, sent, retries, seconds "
            + "(and local_drops when an adaptive throttle dropped calls on the client), threads_peak "
            + "(the most live threads in this JVM during the run) and, with --async, async: true. "
            + "sent counts every attempt put on the wire, counted where it happens (by a network interceptor; "
            + "for the other engines' polite by a relay on loopback), answered or not, the engine's own silent re-sends "
            + "included; retries the attempts beyond each call's first, the engine's re-sends among them; "
            + "stale_connections (only when non-zero) counts the attempts OkHttp began on a pooled connection "
            + "the server had already closed (as an HTTP/1.0 server does after each answer), held back before "
            + "anything was written and sent again on a new connection, in neither; "
            + "failed the calls that ended in an exception, rejected every rate-limit answer (429, or 403 with a spent limit).",
        "Exits 1 when a call failed (after printing) or the URL cannot be reached, 2 on bad options."},
    usageHelpAutoWidth = true, sortOptions = false)
public final class LoadCommand implements Callable<Integer> {
  @Spec
  CommandSpec spec;

  @Option(names = {"-h", "--help"}, usageHelp = true, description = "Show this help and exit.")
  boolean help;

  @Option(names = "--url", required = true, paramLabel = "URL", converter = HttpUrlConverter.class,
      description = "The http(s) URL to GET; repeatable: the calls go round robin over the URLs, in order "
          + "(a URL given twice gets twice the share).")
  List<HttpUrl> urls = new ArrayList<>();

  @Option(names = "--requests", required = true, paramLabel = "N", description = "Requests to send, at least 1.")
  int requests;

  @Option(names = "--concurrency", paramLabel = "C", defaultValue = "1",
      description = "Requests in flight at once (default: ${DEFAULT-VALUE}).")
  int concurrency;

  @Option(names = "--client", paramLabel = "CLIENT", defaultValue = "polite", converter = ClientKindConverter.class,
      description = "polite (the interceptor's defaults, told nothing), naive (retry at once, 6 attempts), "
          + "retry-after (Retry-After plus jitter, 6 attempts), paced (client-side bucket; see --rate, --burst), "
          + "failsafe (Failsafe 3 by hand: RetryPolicy honouring Retry-After, 6 attempts, behind a smooth "
          + "RateLimiter at --rate), polite-adaptive (PoliteInterceptor with AdaptiveThrottle.create() as its load "
          + "shedder), polite-jdk (PoliteHttpClient.wrap over the JDK's HttpClient, HTTP/1.1, told nothing), "
          + "polite-spring and polite-spring-hc5 (Spring's RestClient with PoliteRequestInterceptor, on the JDK's and "
          + "on HttpClient 5's request factory; blocking only), polite-webclient (Spring's WebClient with "
          + "PoliteExchangeFilter, on Reactor Netty) or polite-hc5 (Apache HttpClient 5 with polite's exec-chain "
          + "handler, classic, or async with --async). The engines other than OkHttp take http URLs only, since a relay "
          + "on loopback counts what they send. Default: ${DEFAULT-VALUE}.")
  ClientKind client;

  @Option(names = "--rate", paramLabel = "R", defaultValue = "4.5",
      description = "Requests per second the paced and failsafe clients are set to (default: ${DEFAULT-VALUE}).")
  double rate;

  @Option(names = "--burst", paramLabel = "B", defaultValue = "4",
      description = "The paced client's burst (default: ${DEFAULT-VALUE}).")
  double burst;

  @Option(names = "--async", description = "Make the calls without a thread each (polite clients only): "
      + "enqueue through a PoliteCallFactory over the OkHttp client, polite-jdk's sendAsync, polite-webclient's "
      + "subscription, or polite-hc5's async client (RestClient has none); a call waits "
      + "for its pace without holding a thread. Default: execute (send), one worker thread per call in flight.")
  boolean async;

  @Option(names = "--metrics", description = "Record polite's meters (polite-micrometer) in Micrometer's "
      + "simple registry and print them after the run, before the summary (polite clients only).")
  boolean metrics;

  @Option(names = "--observe-only", description = "polite only observes (observeOnly(true)): every call "
      + "goes at once and every answer comes back as sent, while its listener hears what it would have done; "
      + "with --metrics, the would-be meters show it (polite clients only).")
  boolean observeOnly;

  @Option(names = "--json", description = "Print one JSON object (as the last stdout line) instead of the summary.")
  boolean json;

  @Override
  public Integer call() throws Exception {
    validate();
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    RunResult result;
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    threads.resetPeakThreadCount();
    int threadsPeak;
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    PoliteMetrics meters = PoliteMetrics.create();
    meters.bindTo(registry);
    try {
      result = new LoadRunner(new OkHttpClient(), client, rate, burst,
          metrics ? meters : PoliteListener.none(), observeOnly)
          .run(urls, requests, concurrency, ProgressLine.forConsole(err), async);
      threadsPeak = threads.getPeakThreadCount();
    } catch (UnreachableException e) {
      err.println("error: " + e.getMessage());
      err.flush();
      return 1;
    }
    if (metrics) {
      registry.getMetersAsString().lines().sorted().forEach(out::println);
    }
    if (json) {
      ObjectMapper mapper = new ObjectMapper();
      ObjectNode node = result.toJsonNode(mapper);
      JsonNode urls = node.remove("urls"); // the breakdown goes last, after this run's own fields
      node.put("threads_peak", threadsPeak);
      if (async) {
        node.put("async", true);
      }
      if (observeOnly) {
        node.put("observe_only", true);
      }
      if (urls != null) {
        node.set("urls", urls);
      }
      out.println(mapper.writeValueAsString(node));
    } else {
      out.println(String.format(Locale.ROOT,
          "%s%s%s: %d/%d ok  %d rejected  %d requests sent  %d retries  %.1f s  %d threads at most%s",
          client.cliName(), observeOnly ? " (observing only)" : "", async ? " (async)" : "",
          result.succeeded(), result.requests(),
          result.rejected(), result.sent(), result.retries(), result.seconds(), threadsPeak,
          (result.failed() > 0 ? "  " + result.failed() + " failed" : "")
              + (result.dropped() > 0 ? "  " + result.dropped() + " dropped locally" : "")
              + (result.staleConnections() > 0
                  ? "  " + result.staleConnections() + " stale connections met" : "")));
      int width = result.urls().stream().mapToInt(url -> url.url().length()).max().orElse(0);
      result.urls().forEach(url -> out.println(url.line(width)));
    }
    out.flush();
    // A script reads the exit code first: a call that ended in an exception is a failed run,
    // even though the summary above was printed in full.
    return result.failed() > 0 ? 1 : 0;
  }

  private void validate() {
    if (requests < 1) {
      throw new ParameterException(spec.commandLine(), "--requests must be at least 1, was " + requests);
    }
    if (concurrency < 1 || concurrency > 1000) {
      throw new ParameterException(spec.commandLine(), "--concurrency must be 1 to 1000, was " + concurrency);
    }
    if (!(rate > 0) || Double.isInfinite(rate)) {
      throw new ParameterException(spec.commandLine(), "--rate must be positive, was " + rate);
    }
    if ((async || metrics || observeOnly) && !client.hasPolite()) {
      throw new ParameterException(spec.commandLine(),
          (async ? "--async" : metrics ? "--metrics" : "--observe-only")
          + " needs a client with polite in it (polite, polite-adaptive or a polite-<engine>), not "
          + client.cliName());
    }
    if (async && !client.hasAsync()) {
      throw new ParameterException(spec.commandLine(), "--async needs a client that can call without a thread: "
          + client.cliName() + " is Spring's RestClient, which has none (polite-webclient is Spring's that can)");
    }
    if (client.engine() != ClientKind.Engine.OKHTTP) {
      for (HttpUrl url : urls) {
        if (!"http".equals(url.scheme())) {
          throw new ParameterException(spec.commandLine(), client.cliName() + " takes http URLs only: a relay "
              + "on loopback counts what it sends, and cannot read TLS; not " + url);
        }
      }
    }
    if (!(burst >= 1) || Double.isInfinite(burst)) {
      throw new ParameterException(spec.commandLine(), "--burst must be at least 1, was " + burst);
    }
  }
}
