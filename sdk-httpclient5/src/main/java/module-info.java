/**
 * polite on Apache HttpClient 5: {@link dev.polite.httpclient5.PoliteExecChainHandler} in the
 * classic client's chain, {@link dev.polite.httpclient5.PoliteAsyncExecChainHandler} in the async
 * client's; both carry calls to polite's core ({@code dev.polite}), which decides. HttpClient 5's
 * jars are automatic modules, required by the names their manifests give.
 */
module dev.polite.httpclient5 {
  requires transitive dev.polite;
  requires transitive org.apache.httpcomponents.client5.httpclient5;
  requires transitive org.apache.httpcomponents.core5.httpcore5;
  requires static transitive org.jspecify;

  exports dev.polite.httpclient5;
}
