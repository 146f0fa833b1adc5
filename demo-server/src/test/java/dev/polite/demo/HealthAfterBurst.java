package dev.polite.demo;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Measures how long a monitor's first {@code /health} takes after 500 connections arrive at once
 * on a freshly started server: a new {@code java -jar} process per run, as an
 * operator starts one, so nothing is warm that a first client would not find warm. Prints one line
 * per run and the median and slowest; asserts nothing (real time on a shared machine is a figure
 * to read, not a unit test). The figures in the README's "Under abuse" came from it.
 *
 * <p>Usage (the jar from {@code mvn -B -q -pl demo-server -am package -DskipTests}):
 * {@code java demo-server/src/test/java/dev/polite/demo/HealthAfterBurst.java demo-server/target/polite-demo-server.jar 10}
 * runs 10 servers, each met by a burst of connections with a request each; a third argument
 * {@code connect} sends connections only, and a fourth, {@code second}, measures a second burst,
 * after a first one not measured (what a warm server pays).
 *
 * <p>The burst comes from 127.0.0.2 (all of 127.0.0.0/8 is loopback on Linux), the monitor from
 * 127.0.0.1, as a monitor comes from an address of its own.
 */
public final class HealthAfterBurst {
  private static final int BURST = 500;
  private static final byte[] API = "GET /api/burst HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1);
  private static final byte[] HEALTH = "GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
      .getBytes(StandardCharsets.ISO_8859_1);

  private HealthAfterBurst() {}

  public static void main(String[] args) throws Exception {
    if (args.length < 1) {
      System.err.println("usage: java HealthAfterBurst.java PATH/TO/polite-demo-server.jar [RUNS]");
      System.exit(2);
    }
    String jar = args[0];
    int runs = args.length > 1 ? Integer.parseInt(args[1]) : 5;
    boolean requests = args.length <= 2 || !args[2].equals("connect");
    boolean warmFirst = args.length > 3 && args[3].equals("second");
    long[] firsts = new long[runs];
    long[] ioCpu = new long[runs];
    for (int run = 0; run < runs; run++) {
      long launched = System.nanoTime();
      Process server = new ProcessBuilder("java", "-jar", jar, "--port", "0", "--limit", "100", "--window", "1s")
          .redirectError(ProcessBuilder.Redirect.DISCARD).start();
      try {
        BufferedReader out = new BufferedReader(new InputStreamReader(server.getInputStream(), StandardCharsets.UTF_8));
        String line = out.readLine(); // "polite-demo-server listening on http://127.0.0.1:PORT"
        long startMillis = (System.nanoTime() - launched) / 1_000_000;
        int port = Integer.parseInt(line.substring(line.lastIndexOf(':') + 1).trim());
        if (warmFirst) { // the same burst once before, not measured: what a warm server pays
          for (Socket socket : burst(port, requests)) {
            socket.close();
          }
          Thread.sleep(2_000);
        }
        long ioBefore = ioCpuMillis(server.pid());
        List<Socket> burst = burst(port, requests);
        long sent = System.nanoTime();
        String status = health(port);
        firsts[run] = (System.nanoTime() - sent) / 1_000_000;
        long io = ioCpuMillis(server.pid()) - ioBefore;
        ioCpu[run] = io;
        long second = System.nanoTime();
        health(port);
        long secondMillis = (System.nanoTime() - second) / 1_000_000;
        System.out.printf("run %d: started in %d ms; %s /health after %d connections%s: %s in %d ms (the next: %d ms); "
            + "the server's I/O and accept threads' CPU for the burst and the check: %s, load %s%n",
            run + 1, startMillis, warmFirst ? "a second burst's" : "first", burst.size(), requests ? " with a request each" : "",
            status, firsts[run], secondMillis, io < 0 ? "n/a" : io + " ms", load());
        for (Socket socket : burst) {
          socket.close();
        }
      } finally {
        server.destroy();
        server.waitFor();
      }
    }
    long[] sorted = firsts.clone();
    Arrays.sort(sorted);
    long[] io = ioCpu.clone();
    Arrays.sort(io);
    System.out.printf("first /health after the burst, %d runs: median %d ms, slowest %d ms; "
        + "the I/O and accept threads' CPU: median %d ms, most %d ms%n", runs, sorted[runs / 2], sorted[runs - 1], io[runs / 2], io[runs - 1]);
  }

  /** {@value #BURST} connections opened at once by 50 threads, each sending one request if asked; returned once all are. */
  private static List<Socket> burst(int port, boolean requests) throws Exception {
    ExecutorService threads = Executors.newFixedThreadPool(50);
    CountDownLatch go = new CountDownLatch(1);
    List<Future<Socket>> opening = new ArrayList<>();
    for (int i = 0; i < BURST; i++) {
      opening.add(threads.submit(() -> {
        go.await();
        Socket socket = new Socket();
        socket.bind(new InetSocketAddress("127.0.0.2", 0));
        socket.connect(new InetSocketAddress("127.0.0.1", port), 10_000);
        if (requests) {
          socket.getOutputStream().write(API);
        }
        return socket;
      }));
    }
    go.countDown();
    List<Socket> sockets = new ArrayList<>();
    for (Future<Socket> socket : opening) {
      sockets.add(socket.get());
    }
    threads.shutdown();
    return sockets;
  }

  /**
   * CPU time the server's I/O threads ({@code polite-demo-io-*}) and its accept thread
   * ({@code polite-demo-accept-*}) have used, in ms, from Linux's /proc (clock ticks of 10 ms: a
   * coarse figure; a thread's name there is cut to 15 characters); -1 where there is no /proc.
   * Wall time on a shared machine is this plus the time other processes held the cores.
   */
  private static long ioCpuMillis(long pid) {
    Path tasks = Path.of("/proc", Long.toString(pid), "task");
    if (!Files.isDirectory(tasks)) {
      return -1;
    }
    long ticks = 0;
    try (DirectoryStream<Path> threads = Files.newDirectoryStream(tasks)) {
      for (Path thread : threads) {
        try {
          String name = Files.readString(thread.resolve("comm"));
          if (name.startsWith("polite-demo-io") || name.startsWith("polite-demo-acc")) {
            String[] fields = Files.readString(thread.resolve("stat")).split("\\) ")[1].split(" ");
            ticks += Long.parseLong(fields[11]) + Long.parseLong(fields[12]); // utime, stime
          }
        } catch (IOException gone) {
          // a thread that ended meanwhile
        }
      }
    } catch (IOException e) {
      return -1;
    }
    return ticks * 10;
  }

  private static String load() {
    try {
      return Files.readString(Path.of("/proc/loadavg")).split(" ")[0];
    } catch (IOException e) {
      return "n/a";
    }
  }

  private static String health(int port) throws IOException {
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress("127.0.0.1", port), 10_000);
      socket.setSoTimeout(10_000);
      socket.getOutputStream().write(HEALTH);
      return new String(socket.getInputStream().readNBytes(12), StandardCharsets.ISO_8859_1).substring(9);
    }
  }
}
