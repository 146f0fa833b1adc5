package dev.polite.okhttp;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import okhttp3.Call;
import okhttp3.Callback;
import okhttp3.Response;

/**
 * The callback of enqueued calls that records how each ended, in the order they did: its status
 * code (the response closed), or its exception's simple name.
 */
final class Outcomes implements Callback {
  final List<Object> ended = new CopyOnWriteArrayList<>();

  @Override
  public void onResponse(Call call, Response response) {
    try (response) {
      ended.add(response.code());
    }
  }

  @Override
  public void onFailure(Call call, IOException e) {
    ended.add(e.getClass().getSimpleName());
  }

  int size() {
    return ended.size();
  }
}
