#!/usr/bin/env python3
"""Turns JMH `-rf json` results of the polite benchmarks into the Markdown tables of README.md.

Usage: python3 bench/report.py bucket.json parse.json interceptor.json

Medians: for AverageTime, the median of the iteration scores; for SampleTime, the median of all
samples (JMH's p0.50). The error is a 99.9% confidence half-width, Student's t over the
per-iteration values (iteration scores, or per-iteration sample medians), the same rule JMH
uses for its own "± error" on the mean. Ratios compare results of the same run only.
"""
import json
import statistics
import sys

# two-sided 99.9% Student t quantiles (0.9995) by degrees of freedom
T999 = {1: 636.62, 2: 31.599, 3: 12.924, 4: 8.610, 5: 6.869, 6: 5.959, 7: 5.408, 8: 5.041,
        9: 4.781, 10: 4.587, 12: 4.318, 15: 4.073, 20: 3.850, 30: 3.646}


def t999(df):
    if df <= 0:
        return float("nan")
    best = max(k for k in T999 if k <= df)
    return T999[best] if df < 30 else 3.291 + (T999[30] - 3.291) * 30 / df


def ci(values):
    if len(values) < 2:
        return float("nan")
    return t999(len(values) - 1) * statistics.stdev(values) / len(values) ** 0.5


def histogram_median(pairs):
    total = sum(c for _, c in pairs)
    seen = 0
    for value, count in sorted(pairs):
        seen += count
        if seen * 2 >= total:
            return value
    return float("nan")


def summarize(result):
    pm = result["primaryMetric"]
    if result["mode"] == "sample":
        per_iteration = [histogram_median(it) for fork in pm["rawDataHistogram"] for it in fork]
        median = pm["scorePercentiles"]["50.0"]
        p90 = pm["scorePercentiles"]["90.0"]
    else:
        per_iteration = [v for fork in pm["rawData"] for v in fork]
        median = statistics.median(per_iteration)
        p90 = None
    alloc = result.get("secondaryMetrics", {}).get("gc.alloc.rate.norm", {}).get("score")
    return {"median": median, "error": ci(per_iteration), "p90": p90, "alloc": alloc,
            "unit": pm["scoreUnit"], "n": len(per_iteration)}


def load(paths):
    rows = []
    for path in paths:
        with open(path) as f:
            rows.extend(json.load(f))
    return rows


def fmt(s, digits=1):
    return f"{s['median']:.{digits}f} ± {s['error']:.{digits}f}"


def bucket_table(rows):
    by = {}
    for r in rows:
        cls, method = r["benchmark"].rsplit(".", 2)[-2:]
        if not cls.startswith("BucketBench"):
            continue
        threads = r["threads"]
        by.setdefault((r["params"]["regime"], threads), {})[method] = summarize(r)
    if not by:
        return
    peers = ["guava", "bucket4j", "resilience4j", "failsafe"]
    # Issue 26's goal: polite at least 1.3x the fastest peer. "clock" is System.nanoTime() alone,
    # which every limiter but Bucket4j reads once per decision: fastest / clock is the most any
    # of them could reach, however little else it did.
    print("| regime | threads | polite | " + " | ".join(peers)
          + " | clock | fastest peer | polite speed vs fastest | bound (fastest / clock) | goal ≥ 1.3× |")
    print("|---|---:|---:|" + "---:|" * len(peers) + "---:|---|---:|---:|---|")
    for (regime, threads), m in sorted(by.items(), key=lambda kv: (kv[0][0] != "admit", kv[0][1])):
        if "polite" not in m:
            continue
        present = [p for p in peers if p in m]
        fastest = min(present, key=lambda p: m[p]["median"])
        ratio = m[fastest]["median"] / m["polite"]["median"]
        cells = [fmt(m[p]) if p in m else "–" for p in peers]
        clock = fmt(m["clock"]) if "clock" in m else "–"
        bound = f"{m[fastest]['median'] / m['clock']['median']:.2f}×" if "clock" in m else "–"
        print(f"| {regime} | {threads} | **{fmt(m['polite'])}** | " + " | ".join(cells)
              + f" | {clock} | {fastest} | {ratio:.2f}× | {bound} | {'met' if ratio >= 1.3 else 'missed'} |")
    print("\nns per decision (per thread), median of iteration scores ± 99.9% CI; lower is faster. "
          "Speed ratio = fastest peer's time / polite's time.\n")


def parse_table(rows):
    got = [(r["params"]["dialect"], summarize(r)) for r in rows
           if r["benchmark"].endswith("HeaderParseBench.parse")]
    if not got:
        return
    print("| response | median ns | p90 ns | bytes/parse | goal ≤ 1000 ns |")
    print("|---|---:|---:|---:|---|")
    for dialect, s in got:
        alloc = "–" if s["alloc"] is None else f"{s['alloc']:.0f}"
        print(f"| {dialect} | {fmt(s, 0)} | {s['p90']:.0f} | {alloc} | "
              f"{'met' if s['median'] <= 1000 else 'missed'} |")
    print("\nSampled: each parse timed alone (includes ~20-30 ns of timer overhead); "
          "± is the 99.9% CI over per-iteration medians.\n")


def interceptor_table(rows):
    got = {r["benchmark"].rsplit(".", 1)[1]: summarize(r) for r in rows
           if ".InterceptorBench." in r["benchmark"]}
    if not got:
        return
    print("| path | median ns | p90 ns | bytes/call | minus bare, µs |")
    print("|---|---:|---:|---:|---:|")
    bare = got.get("bare")
    for name in ["bare", "polite", "failsafe"]:
        if name not in got:
            continue
        s = got[name]
        alloc = "–" if s["alloc"] is None else f"{s['alloc']:.0f}"
        over = "–" if bare is None or name == "bare" else f"{(s['median'] - bare['median']) / 1000:.3f}"
        print(f"| {name} | {fmt(s, 0)} | {s['p90']:.0f} | {alloc} | {over} |")
    if bare and "polite" in got:
        added = (got["polite"]["median"] - bare["median"]) / 1000
        print(f"\npolite adds {added:.3f} µs per call over the bare chain: goal ≤ 2 µs "
              f"{'met' if added <= 2 else 'missed'}.", end="")
        if "failsafe" in got:
            print(f" Failsafe by hand adds {(got['failsafe']['median'] - bare['median']) / 1000:.3f} µs.",
                  end="")
        print("\n")


def main(paths):
    rows = load(paths)
    bucket_table(rows)
    parse_table(rows)
    interceptor_table(rows)


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    main(sys.argv[1:])
