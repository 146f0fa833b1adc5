package dev.polite.recipes

import dev.polite.okhttp.PoliteCallFactory
import dev.polite.okhttp.PoliteInterceptor
import java.io.IOException
import kotlin.coroutines.resumeWithException
import kotlinx.coroutines.runBlocking
import kotlinx.coroutines.suspendCancellableCoroutine
import okhttp3.Call
import okhttp3.Callback
import okhttp3.OkHttpClient
import okhttp3.Request
import okhttp3.Response
import okhttp3.ResponseBody
import retrofit2.Retrofit
import retrofit2.http.GET

interface Hello {
  @GET("hello")
  suspend fun hello(): ResponseBody // Retrofit's suspend functions enqueue: they wait without a thread
}

// Suspends until the call answers, as okhttp-coroutines' executeAsync() does (with it, import
// okhttp3.coroutines.executeAsync instead). Cancelling the coroutine cancels the call, and a call
// waiting at polite's gate then frees its place and never goes.
suspend fun Call.executeAsync(): Response = suspendCancellableCoroutine { continuation ->
  continuation.invokeOnCancellation { cancel() }
  enqueue(object : Callback {
    override fun onResponse(call: Call, response: Response) {
      continuation.resume(response) { _, unclaimed, _ -> unclaimed.close() } // cancelled meanwhile
    }

    override fun onFailure(call: Call, e: IOException) {
      continuation.resumeWithException(e)
    }
  })
}

fun main(args: Array<String>) = runBlocking { // args[0]: the API's base URL, ending in /
  val client = OkHttpClient.Builder().addInterceptor(PoliteInterceptor.create()).build()
  val calls = PoliteCallFactory.create(client) // its enqueue waits for the pace without a thread

  calls.newCall(Request.Builder().url(args[0] + "hello").build()).executeAsync().use { response ->
    println(response.code) // after any waits and retries
  }

  val hello = Retrofit.Builder().baseUrl(args[0]).callFactory(calls).build().create(Hello::class.java)
  hello.hello().use { body -> println(body.string()) }
}
