package dev.polite.bootapp;

import org.springframework.resilience.annotation.Retryable;
import org.springframework.web.client.HttpClientErrorException;
import org.springframework.web.client.RestClient;

/**
 * {@link Items} behind Spring Framework 7's {@code @Retryable} on {@code TooManyRequests}, set as a
 * careful user sets it: 5 retries, exponential backoff from 500 ms doubling to at most 8 s, with
 * jitter. Spring's retry cannot read the refusal's Retry-After (its backoff takes no argument), so
 * it waits what it was told, not what the server said.
 */
public class RetryingItems {
  private final Items items;

  public RetryingItems(RestClient vendor) {
    this.items = new Items(vendor);
  }

  @Retryable(includes = HttpClientErrorException.TooManyRequests.class, maxRetries = 5, delay = 500,
      multiplier = 2, maxDelay = 8_000, jitter = 250)
  public String get(int i) {
    return items.get(i);
  }
}
