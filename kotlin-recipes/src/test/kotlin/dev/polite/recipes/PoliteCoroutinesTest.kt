package dev.polite.recipes

import dev.polite.okhttp.PoliteCallFactory
import dev.polite.okhttp.PoliteInterceptor
import java.io.ByteArrayOutputStream
import java.io.PrintStream
import java.lang.management.ManagementFactory
import java.net.InetAddress
import java.util.concurrent.Executors
import java.util.concurrent.TimeUnit
import java.util.concurrent.atomic.AtomicInteger
import kotlinx.coroutines.asCoroutineDispatcher
import kotlinx.coroutines.async
import kotlinx.coroutines.awaitAll
import kotlinx.coroutines.cancelAndJoin
import kotlinx.coroutines.delay
import kotlinx.coroutines.launch
import kotlinx.coroutines.runBlocking
import kotlinx.coroutines.withTimeout
import kotlinx.coroutines.yield
import mockwebserver3.Dispatcher
import mockwebserver3.MockResponse
import mockwebserver3.MockWebServer
import mockwebserver3.RecordedRequest
import okhttp3.OkHttpClient
import okhttp3.Request
import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.AfterEach
import org.junit.jupiter.api.BeforeEach
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.Timeout
import org.junit.jupiter.params.ParameterizedTest
import org.junit.jupiter.params.provider.ValueSource
import retrofit2.Retrofit

/**
 * The coroutine recipe of docs/recipes.md ([executeAsync], [Hello], [main]) on real time against a
 * MockWebServer on loopback. What is asserted is counted at the server, or read from polite's key
 * snapshot; the only clock reading is a lower bound (polite waited as told) or a bound far from
 * what is measured.
 */
@Timeout(30)
class PoliteCoroutinesTest {
  private val server = MockWebServer()
  private val answered = AtomicInteger()
  private val paths = mutableListOf<String>()

  @BeforeEach
  fun start() {
    server.start(InetAddress.getLoopbackAddress(), 0)
  }

  @AfterEach
  fun stop() {
    server.close()
  }

  /** Answers "ok", but 429 with `Retry-After: retryAfter` to the requests whose index is refused. */
  private fun answer(retryAfter: String = "1", refused: (Int) -> Boolean = { false }) {
    server.dispatcher = object : Dispatcher() {
      override fun dispatch(request: RecordedRequest): MockResponse {
        synchronized(paths) { paths += request.url.encodedPath }
        return if (refused(answered.getAndIncrement())) {
          MockResponse.Builder().code(429).addHeader("Retry-After", retryAfter).build()
        } else {
          MockResponse.Builder().body("ok").build()
        }
      }
    }
  }

  private fun paths(): List<String> = synchronized(paths) { paths.toList() }

  private fun get(path: String) = Request.Builder().url(server.url(path)).build()

  @Test
  fun theReadmeProgramGetsItsAnswersAfterPolitesWaits() {
    answer { it == 0 || it == 2 } // the first try of each of the program's two calls
    val printed = ByteArrayOutputStream()
    val out = System.out
    val began = System.nanoTime()
    System.setOut(PrintStream(printed, true, Charsets.UTF_8))
    try {
      main(arrayOf(server.url("/").toString()))
    } finally {
      System.setOut(out)
    }
    val took = System.nanoTime() - began

    assertThat(printed.toString(Charsets.UTF_8).lines().filter { it.isNotEmpty() })
      .containsExactly("200", "ok")
    assertThat(paths()).containsExactly("/hello", "/hello", "/hello", "/hello")
    // Each refusal asked for a second: polite waited it out before each retry.
    assertThat(took).isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(1_900))
  }

  /**
   * One call a 4 s: the first goes, the next waits at polite's gate. Cancelling its coroutine ends
   * it at once (well inside the 4 s), frees its place, and it never reaches the server, though a
   * later call is answered after the time it would have gone.
   */
  @ParameterizedTest
  @ValueSource(strings = ["okhttp", "retrofit"])
  fun cancellingTheCoroutineEndsAWaitingCallAndItNeverGoes(way: String) = runBlocking<Unit> {
    answer()
    val polite = PoliteInterceptor.builder().startingRate(0.25).build()
    val client = OkHttpClient.Builder().addInterceptor(polite).build()
    val calls = PoliteCallFactory.create(client)
    val hello = Retrofit.Builder().baseUrl(server.url("/")).callFactory(calls).build()
      .create(Hello::class.java)
    calls.newCall(get("/first")).executeAsync().use { assertThat(it.code).isEqualTo(200) }

    val waiting = launch {
      when (way) {
        "okhttp" -> calls.newCall(get("/hello")).executeAsync().close()
        else -> hello.hello().close()
      }
    }
    withTimeout(10_000) { // bounded: a call that is not waiting at the gate would keep this spinning
      while (polite.snapshots().single().inFlight() == 0) {
        delay(5) // until it holds its place at the gate
      }
    }
    assertThat(client.dispatcher.runningCallsCount()).`as`("no OkHttp thread waits for it").isZero()
    val cancelled = System.nanoTime()
    waiting.cancelAndJoin()
    assertThat(System.nanoTime() - cancelled).isLessThan(TimeUnit.SECONDS.toNanos(2))
    assertThat(waiting.isCancelled).isTrue()
    val key = polite.snapshots().single()
    assertThat(key.inFlight()).`as`("its place is freed").isZero()
    assertThat(key.tokens()).`as`("its token is given back").isGreaterThan(-0.5)

    calls.newCall(get("/after")).executeAsync().use { assertThat(it.code).isEqualTo(200) }
    assertThat(paths()).containsExactly("/first", "/after")
  }

  /**
   * 200 coroutines on one thread, paced at 50 a second: every one of them is waiting at polite's
   * gate at once, which a call that blocked its thread could not be, and the JVM gains no thread
   * per waiting call.
   */
  @Test
  fun twoHundredCoroutinesWaitOnOneThread() {
    answer()
    val client = OkHttpClient.Builder()
      .addInterceptor(PoliteInterceptor.builder().startingRate(50.0).build())
      .build()
    val calls = PoliteCallFactory.create(client)
    val threads = ManagementFactory.getThreadMXBean()
    val before = threads.threadCount
    threads.resetPeakThreadCount()
    val started = AtomicInteger()
    val oneThread = Executors.newSingleThreadExecutor { Thread(it, "the-one-thread") }
    val codes = oneThread.asCoroutineDispatcher().use { dispatcher ->
      runBlocking(dispatcher) {
        val answers = List(200) {
          async {
            started.incrementAndGet()
            calls.newCall(get("/many")).executeAsync().use { it.code }
          }
        }
        while (started.get() < 200) {
          yield()
        }
        // 200 calls at 50/s take 4 s; all have begun before even half could have gone.
        assertThat(server.requestCount).isLessThan(100)
        answers.awaitAll()
      }
    }
    assertThat(codes).hasSize(200).containsOnly(200)
    assertThat(server.requestCount).isEqualTo(200)
    assertThat(threads.peakThreadCount - before).`as`("threads gained").isLessThan(50)
  }
}
