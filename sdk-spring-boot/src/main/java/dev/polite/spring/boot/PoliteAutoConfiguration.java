package dev.polite.spring.boot;

import dev.polite.Polite;
import dev.polite.PoliteListener;
import dev.polite.micrometer.PoliteMetrics;
import dev.polite.spring.PoliteExchangeFilter;
import dev.polite.spring.PoliteRequestInterceptor;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.ArrayList;
import java.util.List;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.restclient.RestClientCustomizer;
import org.springframework.boot.restclient.RestTemplateCustomizer;
import org.springframework.boot.webclient.WebClientCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.client.ClientHttpRequestInterceptor;
import org.springframework.web.client.RestClient;
import org.springframework.web.client.RestTemplate;
import org.springframework.web.reactive.function.client.WebClient;

/**
 * Puts polite on every HTTP client builder Boot hands out, with no code: one shared {@link Polite}
 * built from the {@code polite.*} properties ({@link PoliteProperties}); a
 * {@code RestClientCustomizer}, a {@code RestTemplateCustomizer} and a {@code WebClientCustomizer}
 * that add it to Boot's {@code RestClient.Builder}, {@code RestTemplateBuilder} and
 * {@code WebClient.Builder} (and so to the HTTP service clients Boot builds on them); polite's
 * meters ({@link PoliteMetrics}) when a {@code MeterRegistry} is there; and the {@code polite}
 * actuator endpoint ({@link PoliteEndpoint}) when it is exposed. {@code polite.enabled=false}
 * turns all of it off.
 *
 * <h2>Why it is built this way</h2>
 * <ul>
 *   <li><b>One {@code Polite} for every client.</b> Keys are per server (by default), and a server's
 *       limit is the application's whatever client calls it: a RestClient and a WebClient to the
 *       same API must share its pace and its pauses, so they share one {@code Polite}. An
 *       application's own {@code Polite} bean replaces it (and is what the clients then carry);
 *       two of them need one marked {@code @Primary}.
 *   <li><b>Last, and once.</b> Each customizer runs after every other ({@code @Order} lowest), so
 *       polite is the innermost interceptor or filter Boot adds: interceptors that sign or
 *       authenticate a request run before it, and those a caller adds later run inside it, again
 *       on every attempt. A builder or template that already carries polite (an application's own
 *       {@link PoliteRequestInterceptor}, say) is left alone rather than given a second one.
 *   <li><b>Each engine's part only when its classes are there.</b> Spring's clients, WebFlux,
 *       Micrometer and the actuator are the application's: each nested configuration is
 *       conditional on its classes, and loads none of them otherwise.
 *   <li><b>Meters as Boot binds them.</b> {@link PoliteMetrics} is a {@code MeterBinder} bean, so
 *       Boot's metrics auto-configuration binds it to the registries it binds every binder to, the
 *       composite included; and it is bound once more, after every singleton is made, to the one
 *       (or primary) registry, for an application whose registry bean Boot's metrics do not
 *       manage. Binding a registry twice does nothing, so the two agree. This configuration runs
 *       after Boot's metrics (now in spring-boot-micrometer-metrics) so that their registry is
 *       there to see.
 *   <li><b>A misconfigured property fails the start, naming it.</b> Every value goes through the
 *       builder's own setter, and a refusal becomes Boot's
 *       {@code InvalidConfigurationPropertyValueException} ({@link PoliteProperties#applyTo}).
 * </ul>
 */
@AutoConfiguration(afterName = {
    "org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration",
    "org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration"})
@ConditionalOnBooleanProperty(name = PoliteProperties.PREFIX + ".enabled", matchIfMissing = true)
@EnableConfigurationProperties(PoliteProperties.class)
public final class PoliteAutoConfiguration {
  /** Made by Spring. */
  PoliteAutoConfiguration() {}

  /**
   * The application's polite: the properties, then every {@link PoliteListener} bean (in
   * {@code @Order}), then every {@link PoliteCustomizer} bean (in {@code @Order}).
   */
  @Bean
  @ConditionalOnMissingBean
  Polite polite(PoliteProperties properties, ObjectProvider<PoliteListener> listeners,
      ObjectProvider<PoliteCustomizer> customizers) {
    Polite.Builder builder = Polite.builder();
    properties.applyTo(builder);
    listeners.orderedStream().forEach(builder::addListener);
    customizers.orderedStream().forEach(customizer -> customizer.customize(builder));
    try {
      return builder.build();
    } catch (IllegalStateException contradiction) {
      throw properties.explain(contradiction);
    }
  }

  /** {@code RestClient} and {@code RestTemplate}: the interceptor, last. */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass({RestClient.class, RestClientCustomizer.class})
  static final class RestClients {
    @Bean
    @Order(Ordered.LOWEST_PRECEDENCE)
    RestClientCustomizer politeRestClientCustomizer(Polite polite) {
      PoliteRequestInterceptor interceptor = PoliteRequestInterceptor.of(polite);
      return builder -> builder.requestInterceptors(interceptors -> {
        if (lacksPolite(interceptors)) {
          interceptors.add(interceptor);
        }
      });
    }

    @Bean
    @Order(Ordered.LOWEST_PRECEDENCE)
    RestTemplateCustomizer politeRestTemplateCustomizer(Polite polite) {
      PoliteRequestInterceptor interceptor = PoliteRequestInterceptor.of(polite);
      return template -> {
        if (lacksPolite(template.getInterceptors())) {
          List<ClientHttpRequestInterceptor> interceptors = new ArrayList<>(template.getInterceptors());
          interceptors.add(interceptor);
          template.setInterceptors(interceptors); // and drops the request factory built over the old list
        }
      };
    }

    private static boolean lacksPolite(List<ClientHttpRequestInterceptor> interceptors) {
      return interceptors.stream().noneMatch(PoliteRequestInterceptor.class::isInstance);
    }
  }

  /** {@code WebClient}: the exchange filter, last. */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass({WebClient.class, WebClientCustomizer.class})
  static final class WebClients {
    @Bean
    @Order(Ordered.LOWEST_PRECEDENCE)
    WebClientCustomizer politeWebClientCustomizer(Polite polite) {
      PoliteExchangeFilter filter = PoliteExchangeFilter.of(polite);
      return builder -> builder.filters(filters -> {
        if (filters.stream().noneMatch(PoliteExchangeFilter.class::isInstance)) {
          filters.add(filter);
        }
      });
    }
  }

  /** Micrometer: polite's meters, when the application has a registry. */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass({MeterRegistry.class, PoliteMetrics.class})
  @ConditionalOnBean(MeterRegistry.class)
  static final class Meters {
    /** A listener of the starter's {@code Polite} (as every {@code PoliteListener} bean is), and a binder. */
    @Bean
    @ConditionalOnMissingBean
    PoliteMetrics politeMetrics(PoliteProperties properties) {
      PoliteMetrics.Builder builder = PoliteMetrics.builder();
      PoliteProperties.set("metrics.max-key-tags", properties.getMetrics().getMaxKeyTags(), builder::maxKeyTags);
      return builder.build();
    }

    /**
     * Binds the meters to the application's one (or primary) registry once every singleton is
     * made, as Boot binds its binders: a registry's filters and customizers are applied by then.
     */
    @Bean
    SmartInitializingSingleton politeMetricsBinding(ObjectProvider<PoliteMetrics> metrics,
        ObjectProvider<MeterRegistry> registries) {
      return () -> {
        MeterRegistry registry = registries.getIfUnique();
        if (registry != null) {
          metrics.orderedStream().forEach(binder -> binder.bindTo(registry));
        }
      };
    }
  }

  /** The actuator: the {@code polite} endpoint, when the actuator is there and the endpoint exposed. */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(ConditionalOnAvailableEndpoint.class)
  static final class Endpoints {
    @Bean
    @ConditionalOnMissingBean
    @ConditionalOnAvailableEndpoint
    PoliteEndpoint politeEndpoint(Polite polite) {
      return new PoliteEndpoint(polite);
    }
  }
}
