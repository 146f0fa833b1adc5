package dev.polite.bench;

import org.openjdk.jmh.annotations.Threads;

/**
 * {@link BucketBench} with two threads sharing each limiter: the same methods and regimes, the
 * contended cost of one admission decision (time per call, per thread).
 */
@Threads(2)
public class BucketBenchContended extends BucketBench {}
