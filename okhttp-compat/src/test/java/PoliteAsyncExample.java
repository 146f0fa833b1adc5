import dev.polite.okhttp.PoliteCallFactory;
import dev.polite.okhttp.PoliteInterceptor;
import java.io.IOException;
import java.util.concurrent.CountDownLatch;
import okhttp3.Call;
import okhttp3.Callback;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;

public class PoliteAsyncExample {
  public static void main(String[] args) throws InterruptedException {
    OkHttpClient client = new OkHttpClient.Builder()
        .addInterceptor(PoliteInterceptor.create())
        .build();
    Call.Factory calls = PoliteCallFactory.create(client); // enqueue waits without a thread

    CountDownLatch done = new CountDownLatch(1);
    calls.newCall(new Request.Builder().url(args[0]).build()).enqueue(new Callback() {
      @Override
      public void onResponse(Call call, Response response) {
        try (response) {
          System.out.println(response.code()); // after any waits and retries, on OkHttp's thread
        } finally {
          done.countDown();
        }
      }

      @Override
      public void onFailure(Call call, IOException e) {
        System.out.println(e); // RateLimitedException when the wait would not fit, for one
        done.countDown();
      }
    });
    done.await();
  }
}
