/**
 * polite on Spring Framework 7's HTTP clients: {@link dev.polite.spring.PoliteRequestInterceptor}
 * for {@code RestClient} and {@code RestTemplate}, {@link dev.polite.spring.PoliteExchangeFilter}
 * for {@code WebClient}; both carry calls to polite's core ({@code dev.polite}), which decides.
 * WebFlux and Reactor are needed only by an application that uses the filter.
 */
module dev.polite.spring {
  requires transitive dev.polite;
  requires transitive spring.web;
  requires spring.core;
  requires static transitive spring.webflux;
  requires static transitive reactor.core;
  requires static transitive org.jspecify;

  exports dev.polite.spring;
}
