package dev.polite.spring.boot;

import mockwebserver3.MockResponse;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.http.client.autoconfigure.HttpClientAutoConfiguration;
import org.springframework.boot.http.client.autoconfigure.imperative.ImperativeHttpClientAutoConfiguration;
import org.springframework.boot.http.client.autoconfigure.reactive.ReactiveHttpClientAutoConfiguration;
import org.springframework.boot.restclient.autoconfigure.RestClientAutoConfiguration;
import org.springframework.boot.restclient.autoconfigure.RestTemplateAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.webclient.autoconfigure.WebClientAutoConfiguration;

/** An application as Boot makes it with the starter and Spring's clients on the class path. */
final class Contexts {
  private Contexts() {}

  /**
   * The starter and Boot's client auto-configurations. The backoff base is 1 ms, so a bare
   * refusal's jittered retry delay is at most that: the tests wait for no clock.
   */
  static ApplicationContextRunner app() {
    return new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(PoliteAutoConfiguration.class,
            HttpClientAutoConfiguration.class, ImperativeHttpClientAutoConfiguration.class,
            ReactiveHttpClientAutoConfiguration.class, RestClientAutoConfiguration.class,
            RestTemplateAutoConfiguration.class, WebClientAutoConfiguration.class))
        .withPropertyValues("polite.backoff.base=1ms");
  }

  /** A 429 that names no time to wait: "not now, but now". */
  static MockResponse refusal() {
    return new MockResponse.Builder().code(429).addHeader("Retry-After", "0").body("slow down").build();
  }

  static MockResponse ok() {
    return new MockResponse.Builder().code(200).addHeader("Content-Type", "text/plain").body("hello").build();
  }
}
