/**
 * Reads rate-limit response headers of every known dialect into one
 * {@link dev.polite.RateLimitSignals}. The public entry point is {@link dev.polite.RateLimitHeaders};
 * {@link SignalsReader} assembles the reading; everything else here is one dialect or one value
 * shape (numbers, HTTP dates, ISO times, Go durations, .NET time spans, RFC 9651 structured
 * fields). Each dialect's class comment names the vendor documents its rules come from.
 *
 * <table>
 *   <caption>Dialects, the name {@code dialect()} reports, and the fields read</caption>
 *   <tr><th>Family</th><th>{@code dialect()}</th><th>Fields</th></tr>
 *   <tr><td>RFC 9110 and kin</td><td>{@code retry-after}</td><td>{@code retry-after-ms},
 *     {@code x-ms-retry-after-ms}, {@code Retry-After}, {@code X-Retry-In},
 *     {@code X-RateLimit-Retry-After}, {@code x-should-retry}</td></tr>
 *   <tr><td>Stripe</td><td>{@code stripe}</td><td>{@code Stripe-Should-Retry}</td></tr>
 *   <tr><td>IETF -08 to -11</td><td>{@code ietf-draft-11}</td><td>{@code RateLimit},
 *     {@code RateLimit-Policy} (Lists: name; {@code r t q w qu pk})</td></tr>
 *   <tr><td>IETF, Atlassian's prefix</td><td>{@code ietf-draft-11-beta}</td><td>{@code Beta-RateLimit},
 *     {@code Beta-RateLimit-Policy}</td></tr>
 *   <tr><td>IETF -07</td><td>{@code ietf-draft-07}</td><td>{@code RateLimit} (Dictionary),
 *     {@code RateLimit-Policy} (Integer items)</td></tr>
 *   <tr><td>IETF -04 to -06, Kong, Zendesk, express draft-6</td><td>{@code ietf-draft-06}</td>
 *     <td>{@code RateLimit-Limit}, {@code -Remaining}, {@code -Reset}, {@code RateLimit-Policy}</td></tr>
 *   <tr><td>IETF polli-01 to ietf-03</td><td>{@code ietf-draft-03}</td><td>{@code RateLimit-Limit}
 *     with policies ({@code 10, 10;w=1}), {@code -Remaining}, {@code -Reset}</td></tr>
 *   <tr><td>IETF polli-00</td><td>{@code ietf-polli-00}</td><td>as above, {@code window=}, date reset</td></tr>
 *   <tr><td>GitLab</td><td>{@code gitlab}</td><td>{@code RateLimit-*} with epoch reset,
 *     {@code -Observed}, {@code -ResetTime}, {@code -Name}</td></tr>
 *   <tr><td>GitHub</td><td>{@code github}</td><td>{@code x-ratelimit-limit/-remaining/-reset/-used/-resource}</td></tr>
 *   <tr><td>Discord</td><td>{@code discord}</td><td>{@code X-RateLimit-*}, {@code -Reset-After},
 *     {@code -Bucket}, {@code -Global}, {@code -Scope}; JSON {@code retry_after} by opt-in</td></tr>
 *   <tr><td>Reddit</td><td>{@code reddit}</td><td>{@code X-Ratelimit-Used/-Remaining/-Reset}</td></tr>
 *   <tr><td>Envoy draft-03</td><td>{@code envoy}</td><td>{@code x-ratelimit-limit: 10, 10;w=60;name=..}</td></tr>
 *   <tr><td>Spring Cloud Gateway</td><td>{@code spring-cloud-gateway}</td>
 *     <td>{@code X-RateLimit-Replenish-Rate}, {@code -Burst-Capacity}, {@code -Remaining}</td></tr>
 *   <tr><td>Atlassian</td><td>{@code atlassian}</td><td>{@code X-RateLimit-*} (ISO reset),
 *     {@code X-RateLimit-NearLimit}, {@code RateLimit-Reason}, {@code X-Beta-RateLimit-*}</td></tr>
 *   <tr><td>Generic (express, fastify, Auth0, lemlist)</td><td>{@code x-ratelimit}</td>
 *     <td>{@code X-RateLimit-Limit/-Remaining/-Reset}</td></tr>
 *   <tr><td>X/Twitter, Okta, IBM, Prisjakt</td><td>{@code x-rate-limit}</td>
 *     <td>{@code X-Rate-Limit-Limit/-Remaining/-Reset/-Policy}</td></tr>
 *   <tr><td>Zendesk</td><td>{@code zendesk}</td><td>{@code X-Rate-Limit},
 *     {@code zendesk-ratelimit-<endpoint>}</td></tr>
 *   <tr><td>OpenAI and compatibles</td><td>{@code openai}</td><td>{@code x-ratelimit-{limit,remaining,reset}-<quota>}</td></tr>
 *   <tr><td>Kong</td><td>{@code kong}</td><td>{@code X-RateLimit-{Limit,Remaining}-<Second..Year>}</td></tr>
 *   <tr><td>Anthropic</td><td>{@code anthropic}</td><td>{@code anthropic-ratelimit-<quota>-{limit,remaining,reset}}</td></tr>
 *   <tr><td>Shopify</td><td>{@code shopify}</td><td>{@code X-Shopify-Shop-Api-Call-Limit}</td></tr>
 *   <tr><td>Azure</td><td>{@code azure}</td><td>{@code x-ms-ratelimit-remaining-<scope>},
 *     {@code x-ms-user-quota-remaining}, {@code -resets-after}</td></tr>
 *   <tr><td>Salesforce</td><td>{@code salesforce}</td><td>{@code Sforce-Limit-Info}</td></tr>
 *   <tr><td>HubSpot</td><td>{@code hubspot}</td><td>{@code X-HubSpot-RateLimit-*}</td></tr>
 *   <tr><td>JSON body (opt-in)</td><td>{@code discord}, {@code matrix}</td><td>{@code retry_after},
 *     {@code retry_after_ms}, {@code global}</td></tr>
 * </table>
 *
 * <p>When several dialects report quotas, the governing policy's dialect names the result.
 *
 * <p>Whether a value can be true is decided in one place, {@link Plausible}, for every dialect: a
 * value that cannot be true (a negative count other than {@code -1}, a delay or window over a year,
 * an instant more than a year from {@code Date}, a remaining above its quota, NaN) is left out and
 * flagged anomalous, never clamped into a pause.
 *
 * <p>May import {@code dev.polite}'s public types and {@code dev.polite.internal}; never another
 * internal room: it reads headers and knows no key. Not public API.
 */
@NullMarked
package dev.polite.internal.headers;

import org.jspecify.annotations.NullMarked;
