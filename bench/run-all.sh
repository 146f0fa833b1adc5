#!/usr/bin/env bash
# run-all.sh: the full by-hand run behind README.md's table, about 8 minutes on 2 cores.
# Builds the jars if missing, runs the three JMH classes (JSON into bench/target/results/),
# then server-vs-nginx.sh, and prints the machine, the load and the Markdown tables.
# Knob: JMH_OPTS (default "-f 1 -wi 3 -w 1s -i 5 -r 1s").
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
JAR="$ROOT/bench/target/polite-bench.jar"
OUT="$ROOT/bench/target/results"
JMH_OPTS=${JMH_OPTS:--f 1 -wi 3 -w 1s -i 5 -r 1s}

if [ ! -f "$JAR" ]; then
  (cd "$ROOT" && ./mvnw -B -q -pl bench -am package -DskipTests)
fi
mkdir -p "$OUT"

echo "date: $(date -u '+%Y-%m-%d %H:%M UTC')"
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(java -version 2>&1 | head -1)"
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"

# shellcheck disable=SC2086
java -jar "$JAR" 'BucketBench' $JMH_OPTS -rf json -rff "$OUT/bucket.json" >"$OUT/bucket.log" 2>&1
echo "load after BucketBench: $(cut -d' ' -f1-3 /proc/loadavg)"
# shellcheck disable=SC2086
java -jar "$JAR" 'HeaderParseBench' $JMH_OPTS -prof gc -rf json -rff "$OUT/parse.json" >"$OUT/parse.log" 2>&1
# shellcheck disable=SC2086
java -jar "$JAR" 'InterceptorBench' $JMH_OPTS -prof gc -rf json -rff "$OUT/interceptor.json" >"$OUT/interceptor.log" 2>&1
echo "load after JMH: $(cut -d' ' -f1-3 /proc/loadavg)"

"$ROOT/bench/server-vs-nginx.sh" 2>&1 | tee "$OUT/server-vs-nginx.txt"
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
python3 "$ROOT/bench/report.py" "$OUT/bucket.json" "$OUT/parse.json" "$OUT/interceptor.json"
