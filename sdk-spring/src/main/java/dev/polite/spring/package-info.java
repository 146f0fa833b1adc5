/**
 * polite on Spring Framework 7's HTTP clients. {@link dev.polite.spring.PoliteRequestInterceptor}
 * is a {@code ClientHttpRequestInterceptor} for {@code RestClient} and {@code RestTemplate}, on
 * whichever request factory is under them (HttpClient 5, Jetty, Reactor Netty, the JDK's, the
 * simple one); {@link dev.polite.spring.PoliteExchangeFilter} is an {@code ExchangeFilterFunction}
 * for {@code WebClient} that waits holding no thread; {@link dev.polite.spring.RequestHints}
 * carries a request's hints (its {@link dev.polite.RequestCost}) in Spring's request attributes.
 * What this package may import: spring-web, spring-webflux, Reactor and polite's public API; the
 * decisions are the core's.
 *
 * <pre>{@code
 * RestClient client = RestClient.builder().requestInterceptor(PoliteRequestInterceptor.create()).build();
 * }</pre>
 */
@NullMarked
package dev.polite.spring;

import org.jspecify.annotations.NullMarked;
