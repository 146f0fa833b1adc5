package dev.polite.vendors.anthropic;

import com.anthropic.core.RequestOptions;
import com.anthropic.core.http.HttpClient;
import com.anthropic.core.http.HttpRequest;

/**
 * One attempt the SDK asked its interceptor to make, carried through polite's OkHttp chain as a
 * request tag to {@link HandBack}, which makes it on the SDK's own transport ({@code next}).
 */
record SdkAttempt(HttpClient next, HttpRequest request, RequestOptions options) {}
