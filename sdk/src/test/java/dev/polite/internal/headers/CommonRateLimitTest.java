package dev.polite.internal.headers;

import static org.assertj.core.api.Assertions.assertThat;

import dev.polite.HeaderLines;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

/**
 * The common shape of a {@code RateLimit} field is read exactly as the strict parser and the
 * item rule read it: every field it takes is an era E List, and the policies, flags, budget and
 * dialect a reading ends with are the same either way, over fields built of the pieces real
 * servers send and the pieces that must turn it away.
 */
class CommonRateLimitTest {
  private static final long NOW = Responses.NOW;

  @Test
  void theUsualAnswersHaveTheCommonShape() {
    assertThat(CommonRateLimit.matches("\"default\";r=50;t=30")).isTrue();
    assertThat(CommonRateLimit.matches("\"100-in-1min\"; r=0; t=42")).isTrue();
    assertThat(CommonRateLimit.matches("quota;t=1")).isTrue();
    assertThat(CommonRateLimit.matches("\"burst\";r=4;t=1, \"day\";r=900;t=3600;q=1000")).isTrue();
  }

  @Test
  void whatTheStrictParserMustReadIsTurnedAway() {
    for (String field : List.of("", " ", "\"a\\\"b\";r=1", "\"a\";r=1;pk=:cGs=:", "\"a\";r=1.5",
        "\"a\";r=-1", "\"a\";r", "\"a\";q=5", "(a b);r=1", "\"a\";r=1,", "\"a\";r=1 x",
        "\"a\";r=1234567890123456", "limit=100, remaining=50, reset=5", "1;r=1", "\"a\";R=1")) {
      assertThat(CommonRateLimit.matches(field)).as(field).isFalse();
    }
  }

  @Test
  void anItemWithMoreParametersThanRfc9651AsksForIsLeftToTheStrictParser() {
    String field = "\"a\";r=1" + ";x=1".repeat(StructuredFields.MAX_PARAMS);
    assertThat(StructuredFields.list(field)).as("malformed: past the parameters' cap").isNull();
    assertThat(CommonRateLimit.matches(field)).isFalse();
    assertThat(CommonRateLimit.matches("\"a\";r=1" + ";x=1".repeat(StructuredFields.MAX_PARAMS - 1))).isTrue();
  }

  @Property(tries = 3000)
  void readsAsTheStrictParserDoes(@ForAll("fields") String field, @ForAll("policies") String policy) {
    if (!CommonRateLimit.matches(field)) return;
    List<SfMember> items = StructuredFields.list(field);
    assertThat(items).as("a List the strict parser reads: %s", field).isNotNull();
    assertThat(IetfDialect.isEraE(items)).as("era E: %s", field).isTrue();

    List<SfMember> policies = policy.isEmpty() ? null : StructuredFields.list(policy);
    Reading common = reading(field, policy);
    IetfDialect.readCommonEraE(common, field, policies, IetfDialect.ERA_E);
    Reading strict = reading(field, policy);
    IetfDialect.readEraE(strict, items, policies, IetfDialect.ERA_E);

    assertThat(common.policies()).as("%s with %s", field, policy).isEqualTo(strict.policies());
    assertThat(common.anomalous()).isEqualTo(strict.anomalous());
    assertThat(common.bucket()).isEqualTo(strict.bucket());
    assertThat(common.fallbackDialect()).isEqualTo(strict.fallbackDialect());
  }

  private static Reading reading(String field, String policy) {
    HeaderLines headers = policy.isEmpty() ? HeaderLines.of("RateLimit", field)
        : HeaderLines.of("RateLimit", field, "RateLimit-Policy", policy);
    return new Reading(ResponseHeaders.of(headers, true), NOW);
  }

  @Provide
  Arbitrary<String> policies() {
    return Arbitraries.of("", "\"day\";q=1000;w=86400", "\"day\";q=1000;w=86400, \"burst\";q=10;w=1",
        "burst;q=10;w=1", "\"day\";q=1000;w=86400;pk=:cGs=:", "\"day\";q=5;w=0");
  }

  @Provide
  Arbitrary<String> fields() {
    Arbitrary<String> name = Arbitraries.of("\"day\"", "\"burst\"", "day", "*x", "\"a b\"", "\"\"",
        "\"x\\\"y\"", "1x", "(a b)", "\"day", "D-ay:/1");
    Arbitrary<String> param = Arbitraries.of(";r=0", ";r=7", "; r=12", ";t=0", ";t=30", ";  t=1",
        ";q=1000", ";q=10", ";w=60", ";x=3", ";r=3", ";t=99999", ";pk=:cGs=:", ";r=-1", ";t=1.5",
        ";x", ";r=123456789012345", ";r=1234567890123456", ";qu=\"requests\"", ";R=1", ";r=", ";=1",
        "; ", ";r=1x");
    Arbitrary<String> item = Combinators.combine(name, param.list().ofMaxSize(4))
        .as((n, ps) -> n + String.join("", ps));
    Arbitrary<String> separator = Arbitraries.of(",", ", ", " ,", ",\t", "\t, ", ",,", " ");
    Arbitrary<String> edge = Arbitraries.of("", "", "", " ", ",", "\t", "x");
    return Combinators.combine(edge, item.list().ofMinSize(1).ofMaxSize(4), separator.list().ofSize(4), edge)
        .as((lead, items, seps, tail) -> {
          StringBuilder b = new StringBuilder(lead.equals(" ") ? " " : "");
          for (int k = 0; k < items.size(); k++) {
            if (k > 0) b.append(seps.get(k - 1));
            b.append(items.get(k));
          }
          return b.append(tail).toString();
        });
  }
}
