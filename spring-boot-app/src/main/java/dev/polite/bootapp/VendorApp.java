package dev.polite.bootapp;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.resilience.annotation.EnableResilientMethods;
import org.springframework.web.client.RestClient;

/**
 * A Spring Boot 4 application as one is written to call a rate-limited API: a {@link RestClient}
 * from the {@code RestClient.Builder} Boot gives it, and a service that calls it. Nothing in it
 * names polite: with {@code polite-spring-boot-starter} on the class path, Boot's builder carries
 * polite's interceptor. {@link RetryingItems} is the same service behind Spring's own
 * {@code @Retryable}, the alternative a Spring user reaches for first.
 */
@SpringBootApplication
@EnableResilientMethods
public class VendorApp {
  /** The vendor's API, at {@code vendor.url}. */
  @Bean
  RestClient vendor(RestClient.Builder builder, @Value("${vendor.url}") String url) {
    return builder.baseUrl(url).build();
  }

  @Bean
  Items items(RestClient vendor) {
    return new Items(vendor);
  }

  @Bean
  RetryingItems retryingItems(RestClient vendor) {
    return new RetryingItems(vendor);
  }
}
