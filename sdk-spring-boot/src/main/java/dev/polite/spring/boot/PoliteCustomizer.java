package dev.polite.spring.boot;

import dev.polite.Polite;

/**
 * Adjusts the {@link Polite} the starter builds, after the {@code polite.*} properties and the
 * listeners are applied and before it is built: for what a property cannot say (a key function,
 * a vendor's dialect, a fleet's shared state, a load shedder, a Failsafe policy). Declare one as
 * a bean; several run in their {@code @Order}. What a customizer sets wins over the properties.
 *
 * <pre>{@code
 * @Bean
 * PoliteCustomizer tenantKey() {
 *   return builder -> builder.key(request -> request.host() + " " + request.header("X-Tenant"));
 * }
 * }</pre>
 *
 * <p>A {@code Polite} bean of the application's own replaces the starter's, and no customizer
 * runs on it.
 */
@FunctionalInterface
public interface PoliteCustomizer {
  /** Changes {@code builder} in place. */
  void customize(Polite.Builder builder);
}
