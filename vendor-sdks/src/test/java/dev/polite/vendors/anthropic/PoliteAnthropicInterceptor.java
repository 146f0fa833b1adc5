package dev.polite.vendors.anthropic;

import com.anthropic.core.http.HttpClient;
import com.anthropic.core.http.Interceptor;
import dev.polite.okhttp.PoliteInterceptor;
import java.time.Duration;
import java.util.Objects;
import okhttp3.OkHttpClient;
import org.jspecify.annotations.Nullable;

/**
 * polite inside anthropic-java (3.x): an interceptor of the SDK's own kind, for
 * {@code AnthropicOkHttpClient.builder().addInterceptor(...)}.
 *
 * <p>Why a bridge: the SDK's interceptors (since its 2.x line) wrap its {@link HttpClient}, not
 * OkHttp's chain, and {@code AnthropicOkHttpClient} builds its {@code okhttp3.OkHttpClient}
 * privately (no OkHttp interceptor reaches it). So each attempt the SDK makes runs through an
 * OkHttp chain of polite's own, whose last link ({@link HandBack}) sends it on the SDK's transport
 * instead of the network. The SDK's interceptors sit inside its retry loop: polite sees every
 * attempt the SDK makes, and the SDK sees only what polite returns.
 *
 * <p>Two polite layers, each its own key: requests, which learns the
 * {@code anthropic-ratelimit-requests-*} budget, paces, pauses on a 429 and retries it; and,
 * optionally, tokens ({@link TokenBudgetDialect}), which charges each Messages call
 * {@code RequestCost.reserve(prompt + max_tokens)} and settles it from the answer's usage
 * ({@link TokenUsage}), so that what a call did not write is the next call's at once. The token
 * layer paces and never retries (the requests layer's retry goes through it again).
 */
public final class PoliteAnthropicInterceptor implements Interceptor {
  private final OkHttpClient chain;
  private final boolean budgetsTokens;
  private final boolean sdkRetriesRefusals;
  private final boolean settles;

  private PoliteAnthropicInterceptor(Builder b) {
    OkHttpClient.Builder chain = new OkHttpClient.Builder()
        // The request layer charges one request per attempt; the token layer reads the tag.
        .addInterceptor(b.requests.cost(request -> 1).build());
    if (b.tokens != null) {
      chain.addInterceptor(b.tokens.maxRateLimitRetries(0).maxAttempts(1).build());
    }
    this.chain = chain.addInterceptor(new HandBack()).build();
    // As the SDK's transport does: its calls go to one host, so one host may have them all.
    this.chain.dispatcher().setMaxRequestsPerHost(this.chain.dispatcher().getMaxRequests());
    this.budgetsTokens = b.tokens != null;
    this.sdkRetriesRefusals = b.sdkRetriesRefusals;
    this.settles = b.settles;
  }

  /**
   * Requests paced as polite's defaults do, tokens budgeted per minute (Anthropic's period), and
   * the SDK told not to retry a 429 polite gave back.
   */
  public static PoliteAnthropicInterceptor create() {
    return builder().build();
  }

  public static Builder builder() {
    return new Builder();
  }

  @Override
  public HttpClient intercept(HttpClient next) {
    return new PacedHttpClient(next, chain, budgetsTokens, settles, sdkRetriesRefusals);
  }

  /** Configures the two layers and how they meet the SDK's retries. Not thread-safe. */
  public static final class Builder {
    private PoliteInterceptor.Builder requests = PoliteInterceptor.builder();
    private PoliteInterceptor.@Nullable Builder tokens =
        PoliteInterceptor.builder().addDialect(new TokenBudgetDialect(Duration.ofMinutes(1)));
    private boolean sdkRetriesRefusals;
    private boolean settles = true;

    private Builder() {}

    /** The request layer's configuration (its cost is always one request). Default polite's. */
    public Builder requests(PoliteInterceptor.Builder requests) {
      this.requests = Objects.requireNonNull(requests, "requests");
      return this;
    }

    /**
     * The token layer, budgeting tokens per {@code window} (Anthropic's: a minute) on
     * {@code tokens}' configuration (a clock, listeners); it never retries.
     */
    public Builder tokens(PoliteInterceptor.Builder tokens, Duration window) {
      this.tokens = Objects.requireNonNull(tokens, "tokens").addDialect(new TokenBudgetDialect(window));
      return this;
    }

    /** No token layer: calls are paced in requests only. */
    public Builder noTokenBudget() {
      this.tokens = null;
      return this;
    }

    /**
     * Whether the SDK may retry a 429 that polite gave back (its retries exhausted, or a wait past
     * its max wait). Default false: the answer is marked {@code x-should-retry: false}, which the
     * SDK's retry loop obeys before its own rules, so a refusal polite judged not worth waiting for
     * reaches the caller at once, while the SDK still retries 529s and 5xx (which polite does not
     * repeat for a POST).
     */
    public Builder sdkRetriesRefusals(boolean retries) {
      this.sdkRetriesRefusals = retries;
      return this;
    }

    /**
     * Whether each answer's usage settles its call's reservation. Default true; false leaves every
     * call charged its whole reservation, as a client that cannot read the usage would be (the
     * token-budget test's "before").
     */
    public Builder settleFromUsage(boolean settles) {
      this.settles = settles;
      return this;
    }

    public PoliteAnthropicInterceptor build() {
      return new PoliteAnthropicInterceptor(this);
    }
  }
}
