package dev.polite.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import dev.polite.CallContext;
import dev.polite.Polite;
import dev.polite.PoliteListener;
import dev.polite.spring.PoliteExchangeFilter;
import dev.polite.spring.PoliteRequestInterceptor;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import mockwebserver3.MockWebServer;
import mockwebserver3.junit5.StartStop;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.boot.restclient.RestClientCustomizer;
import org.springframework.boot.restclient.RestTemplateBuilder;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.http.client.ClientHttpRequestInterceptor;
import org.springframework.web.client.RestClient;
import org.springframework.web.client.RestTemplate;
import org.springframework.web.reactive.function.client.WebClient;

/**
 * The clients an application gets from Boot's builders are polite with no code: a 429 is retried
 * and the caller sees the 200 that followed, two requests at the server. Without polite each of
 * these would hand the 429 to Spring's status handling and throw.
 */
@Timeout(60)
class PoliteClientsTest {
  @StartStop
  final MockWebServer server = new MockWebServer();

  private final ApplicationContextRunner app = Contexts.app();

  @Test
  void restClientFromBootsBuilderRetriesARefusal() {
    server.enqueue(Contexts.refusal());
    server.enqueue(Contexts.ok());
    app.run(context -> {
      RestClient client = context.getBean(RestClient.Builder.class).baseUrl(server.url("/").toString()).build();

      String body = client.get().uri("/things").retrieve().body(String.class);

      assertThat(body).isEqualTo("hello");
      assertThat(server.getRequestCount()).isEqualTo(2);
    });
  }

  @Test
  void webClientFromBootsBuilderRetriesARefusal() {
    server.enqueue(Contexts.refusal());
    server.enqueue(Contexts.ok());
    app.run(context -> {
      WebClient client = context.getBean(WebClient.Builder.class).baseUrl(server.url("/").toString()).build();

      String body = client.get().uri("/things").retrieve().bodyToMono(String.class).block(Duration.ofSeconds(30));

      assertThat(body).isEqualTo("hello");
      assertThat(server.getRequestCount()).isEqualTo(2);
    });
  }

  @Test
  void restTemplateFromBootsBuilderRetriesARefusal() {
    server.enqueue(Contexts.refusal());
    server.enqueue(Contexts.ok());
    app.run(context -> {
      RestTemplate template = context.getBean(RestTemplateBuilder.class).rootUri(server.url("/").toString().replaceAll("/$", "")).build();

      String body = template.getForObject("/things", String.class);

      assertThat(body).isEqualTo("hello");
      assertThat(server.getRequestCount()).isEqualTo(2);
    });
  }

  @Test
  void everyClientCarriesTheOnePolite() {
    server.enqueue(Contexts.ok());
    server.enqueue(Contexts.ok());
    server.enqueue(Contexts.ok());
    AtomicInteger sent = new AtomicInteger();
    PoliteListener counter = new PoliteListener() {
      @Override
      public void sending(CallContext call, Duration waited) {
        sent.incrementAndGet();
      }
    };
    app.withBean(PoliteListener.class, () -> counter).run(context -> {
      String url = server.url("/").toString();
      context.getBean(RestClient.Builder.class).baseUrl(url).build().get().retrieve().body(String.class);
      assertThat(sent).hasValue(1);
      context.getBean(WebClient.Builder.class).baseUrl(url).build().get().retrieve().bodyToMono(String.class)
          .block(Duration.ofSeconds(30));
      assertThat(sent).hasValue(2);
      context.getBean(RestTemplateBuilder.class).build().getForObject(url, String.class);
      assertThat(sent).hasValue(3);

      assertThat(context.getBean(Polite.class).snapshots()).hasSize(1); // one key, whichever client
    });
  }

  @Test
  void politeIsAddedOnceAndLast() {
    app.run(context -> {
      RestClient.Builder builder = context.getBean(RestClient.Builder.class);
      builder.requestInterceptors(interceptors -> assertThat(interceptors).last()
          .isInstanceOf(PoliteRequestInterceptor.class));

      RestTemplateBuilder templates = context.getBean(RestTemplateBuilder.class);
      RestTemplate template = templates.build();
      templates.configure(template); // the customizers run again on the same template
      assertThat(template.getInterceptors()).hasSize(1).first().isInstanceOf(PoliteRequestInterceptor.class);

      AtomicLong filters = new AtomicLong();
      context.getBean(WebClient.Builder.class).filters(list -> {
        filters.set(list.stream().filter(PoliteExchangeFilter.class::isInstance).count());
        assertThat(list).last().isInstanceOf(PoliteExchangeFilter.class);
      });
      assertThat(filters).hasValue(1);
    });
  }

  /** An interceptor an application's customizer adds (one that signs, say) runs before polite. */
  @Test
  void politeComesAfterTheApplicationsCustomizers() {
    ClientHttpRequestInterceptor signer = (request, body, execution) -> execution.execute(request, body);
    app.withBean("signing", RestClientCustomizer.class,
            () -> builder -> builder.requestInterceptor(signer))
        .run(context -> context.getBean(RestClient.Builder.class).requestInterceptors(interceptors ->
            assertThat(interceptors).hasSize(2).containsSequence(signer).last()
                .isInstanceOf(PoliteRequestInterceptor.class)));
  }

  @Test
  void oneBuilderOptsOut() {
    server.enqueue(Contexts.refusal());
    app.run(context -> {
      RestClient client = context.getBean(RestClient.Builder.class)
          .requestInterceptors(interceptors -> interceptors.removeIf(PoliteRequestInterceptor.class::isInstance))
          .baseUrl(server.url("/").toString())
          .build();

      Integer status = client.get().retrieve().onStatus(s -> true, (request, response) -> {})
          .toBodilessEntity().getStatusCode().value();

      assertThat(status).isEqualTo(429);
      assertThat(server.getRequestCount()).isEqualTo(1);
    });
  }
}
