/**
 * polite on Apache HttpClient 5, as handlers in its execution chains:
 * {@link dev.polite.httpclient5.PoliteExecChainHandler} for the classic client (it waits on the
 * calling thread) and {@link dev.polite.httpclient5.PoliteAsyncExecChainHandler} for the async
 * client (it waits holding no thread); {@link dev.polite.httpclient5.RequestHints} carries a
 * request's hints (its {@link dev.polite.RequestCost}) in the request's {@code HttpContext}. Each
 * handler takes the place of HttpClient's own retry handler, which it removes: one layer retries,
 * and waits. What this package may import: HttpClient 5 and its httpcore5, and polite's public
 * API; the decisions are the core's.
 *
 * <pre>{@code
 * CloseableHttpClient client = PoliteExecChainHandler.create().install(HttpClients.custom()).build();
 * }</pre>
 */
@NullMarked
package dev.polite.httpclient5;

import org.jspecify.annotations.NullMarked;
