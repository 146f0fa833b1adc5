import dev.polite.okhttp.PoliteInterceptor;
import java.io.IOException;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;

public class PoliteExample {
  public static void main(String[] args) throws IOException {
    OkHttpClient client = new OkHttpClient.Builder()
        .addInterceptor(PoliteInterceptor.create()) // told nothing: it learns each API's limits
        .build();

    Request request = new Request.Builder().url(args[0]).build();
    try (Response response = client.newCall(request).execute()) {
      System.out.println(response.code()); // after any waits and retries polite made
    }
  }
}
