/**
 * polite for Spring Boot 4, with no code: {@link dev.polite.spring.boot.PoliteAutoConfiguration}
 * builds one {@link dev.polite.Polite} from the {@code polite.*} properties
 * ({@link dev.polite.spring.boot.PoliteProperties}) and puts it on every {@code RestClient.Builder},
 * {@code RestTemplateBuilder} and {@code WebClient.Builder} Boot hands out; its meters go to the
 * application's {@code MeterRegistry}, and {@link dev.polite.spring.boot.PoliteEndpoint} shows each
 * key's state at {@code /actuator/polite}. {@link dev.polite.spring.boot.PoliteCustomizer} adjusts
 * what the properties cannot say (a key function, a dialect, a shared state). What this package
 * may import: Spring Boot, polite's public API, polite-spring and polite-micrometer; every decision
 * is the core's.
 */
@NullMarked
package dev.polite.spring.boot;

import org.jspecify.annotations.NullMarked;
