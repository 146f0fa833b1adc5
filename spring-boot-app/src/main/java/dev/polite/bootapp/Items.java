package dev.polite.bootapp;

import org.springframework.web.client.RestClient;

/** The application's calls to the vendor: one item at a time, its body as text. */
public class Items {
  private final RestClient vendor;

  public Items(RestClient vendor) {
    this.vendor = vendor;
  }

  /** Item {@code i}; a refusal the client gives back throws {@code HttpClientErrorException.TooManyRequests}. */
  public String get(int i) {
    return vendor.get().uri("/api/items/{i}", i).retrieve().body(String.class);
  }
}
