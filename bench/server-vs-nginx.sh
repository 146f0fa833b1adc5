#!/usr/bin/env bash
# server-vs-nginx.sh: requests per second of the demo server against nginx's limit_req, both
# limiting by client address with a token bucket of the same rate and burst, driven by the same
# wrk settings on loopback, in one run:
#   admit:  10,000,000 per second, burst 10,000,000: every request is admitted (200)
#   reject: 1 per minute, burst 1: all but the first request are rejected (429)
# Each server gets a warm-up wrk run (the JVM's JIT, nginx's caches) before the measured one.
# Prints one line per server and run, and the ratio demo-server / nginx. Throughput on a shared
# 2-core machine swings with the load around it, so each line also gives the server's own CPU time
# per request (user + system, all its threads or worker processes, over the measured run): the
# steadier measure of what a request costs it.
#
# Usage: bench/server-vs-nginx.sh            (from anywhere; builds the demo-server jar if missing)
# Knobs (environment): DURATION=10s WARMUP=5s THREADS=1 CONNECTIONS=32 JAVA=java JAR=(the built jar)
#   DEMO_ARGS="--io-threads 2" (more demo-server flags; the default is the server's own defaults)
# Installs wrk and nginx with apt-get when they are missing (needs root). Uses 127.0.0.1 only and
# stops everything it started on exit.
set -euo pipefail

DURATION=${DURATION:-10s}
WARMUP=${WARMUP:-5s}
THREADS=${THREADS:-1}
CONNECTIONS=${CONNECTIONS:-32}
JAVA=${JAVA:-java}
DEMO_ARGS=${DEMO_ARGS:-}

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
JAR=${JAR:-"$ROOT/demo-server/target/polite-demo-server.jar"}

ADMIT_RATE=10000000   # per second; burst the same
REJECT_PER_MINUTE=1   # burst 1

need() {
  local missing=()
  command -v wrk >/dev/null || missing+=(wrk)
  command -v nginx >/dev/null || [ -x /usr/sbin/nginx ] || missing+=(nginx)
  if [ ${#missing[@]} -gt 0 ]; then
    echo "installing ${missing[*]} from Debian's packages" >&2
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
  fi
  if [ ! -f "$JAR" ]; then
    echo "building $JAR" >&2
    (cd "$ROOT" && ./mvnw -B -q -pl demo-server -am package -DskipTests)
  fi
}
need
NGINX=$(command -v nginx || echo /usr/sbin/nginx)

WORK=$(mktemp -d /tmp/polite-server-vs-nginx.XXXXXX)
chmod 755 "$WORK"          # nginx's workers run as nobody and must read the document root
DEMO_PID=""
NGINX_PID=""
URL=""
cleanup() {
  [ -n "$DEMO_PID" ] && kill "$DEMO_PID" 2>/dev/null && wait "$DEMO_PID" 2>/dev/null
  [ -n "$NGINX_PID" ] && kill "$NGINX_PID" 2>/dev/null && wait "$NGINX_PID" 2>/dev/null
  rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

free_port() {
  local port
  for _ in $(seq 200); do
    port=$((20000 + RANDOM % 20000))
    if ! (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
      echo "$port"
      return
    fi
  done
  echo "no free port found" >&2
  exit 1
}

# wrk URL DURATION -> "requests_per_second non2xx"
run_wrk() {
  local out rps non2xx
  out=$(wrk -t"$THREADS" -c"$CONNECTIONS" -d"$2" --latency "$1")
  rps=$(awk '/^Requests\/sec:/ {print $2}' <<<"$out")
  non2xx=$(awk '/Non-2xx or 3xx responses:/ {print $5}' <<<"$out")
  total=$(awk '/requests in/ {print $1}' <<<"$out")
  echo "$rps ${non2xx:-0} ${total:-0}"
}

start_demo() { # limit window burst
  "$JAVA" -jar "$JAR" --host 127.0.0.1 --port 0 --algorithm token-bucket --store memory \
    --limit "$1" --window "$2" --burst "$3" $DEMO_ARGS >"$WORK/demo.out" 2>"$WORK/demo.err" &
  DEMO_PID=$!
  for _ in $(seq 300); do
    if grep -q "listening on" "$WORK/demo.out" 2>/dev/null; then break; fi
    if ! kill -0 "$DEMO_PID" 2>/dev/null; then cat "$WORK/demo.err" >&2; exit 1; fi
    sleep 0.1
  done
  URL=$(sed -n 's/.*listening on \(http:[^ ]*\).*/\1/p' "$WORK/demo.out" | head -1)
  [ -n "$URL" ] || { echo "the demo server did not start" >&2; cat "$WORK/demo.err" >&2; exit 1; }
}

stop_demo() {
  kill "$DEMO_PID" 2>/dev/null || true
  wait "$DEMO_PID" 2>/dev/null || true
  DEMO_PID=""
}

start_nginx() { # rate burst (0: none beyond the first request)
  local port burst=""
  port=$(free_port)
  [ "$2" -gt 0 ] && burst="burst=$2"
  mkdir -p "$WORK/nginx/html" "$WORK/nginx/logs" "$WORK/nginx/tmp"
  printf '{"ok":true,"remaining":1}' >"$WORK/nginx/html/ok.json"
  cat >"$WORK/nginx/nginx.conf" <<EOF
worker_processes auto;
pid $WORK/nginx/nginx.pid;
# limit_req logs every rejection at "error"; the demo server logs none, so neither does nginx here.
error_log $WORK/nginx/logs/error.log crit;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path $WORK/nginx/tmp/body;
  proxy_temp_path $WORK/nginx/tmp/proxy;
  fastcgi_temp_path $WORK/nginx/tmp/fastcgi;
  uwsgi_temp_path $WORK/nginx/tmp/uwsgi;
  scgi_temp_path $WORK/nginx/tmp/scgi;
  keepalive_requests 1000000;
  limit_req_zone \$binary_remote_addr zone=api:10m rate=$1;
  server {
    listen 127.0.0.1:$port;
    root $WORK/nginx/html;
    location /api/ {
      limit_req zone=api $burst nodelay;
      limit_req_status 429;
      default_type application/json;
      # not "return": it runs before limit_req; try_files serves the file after it
      try_files /ok.json =404;
    }
  }
}
EOF
  "$NGINX" -p "$WORK/nginx" -c "$WORK/nginx/nginx.conf" -g 'daemon off;' 2>"$WORK/nginx/logs/stderr" &
  NGINX_PID=$!
  URL="http://127.0.0.1:$port"
  for _ in $(seq 100); do
    if ! kill -0 "$NGINX_PID" 2>/dev/null; then cat "$WORK/nginx/logs/stderr" >&2; exit 1; fi
    if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then return 0; fi
    sleep 0.1
  done
  echo "nginx did not listen on $URL" >&2
  exit 1
}

stop_nginx() {
  kill "$NGINX_PID" 2>/dev/null || true
  wait "$NGINX_PID" 2>/dev/null || true
  NGINX_PID=""
}

# cpu_ticks PID... -> user + system clock ticks used so far by those processes (all their threads)
cpu_ticks() {
  local total=0 pid fields
  for pid in "$@"; do
    # fields 14 and 15 of /proc/PID/stat, counted after the ")" that ends the command name
    fields=$(sed 's/.*) //' "/proc/$pid/stat" 2>/dev/null | awk '{print $12 + $13}') || fields=0
    total=$((total + ${fields:-0}))
  done
  echo "$total"
}

server_pids() { # the demo server, or nginx's master and its workers
  if [ -n "$DEMO_PID" ]; then echo "$DEMO_PID"; else echo "$NGINX_PID" $(pgrep -P "$NGINX_PID"); fi
}

measure() { # label url
  run_wrk "$2/api/items" "$WARMUP" >/dev/null
  local pids before after micros
  pids=$(server_pids)
  # shellcheck disable=SC2086 # a list of pids
  before=$(cpu_ticks $pids)
  read -r rps non2xx total < <(run_wrk "$2/api/items" "$DURATION")
  # shellcheck disable=SC2086
  after=$(cpu_ticks $pids)
  micros=$(awk -v t=$((after - before)) -v hz="$(getconf CLK_TCK)" -v n="$total" \
    'BEGIN { printf "%.1f", (n > 0 ? t * 1e6 / hz / n : 0) }')
  printf '%-7s %-12s %12s %12s %12s %14s\n' "$RUN" "$1" "$rps" "$total" "$non2xx" "$micros" >&2
  echo "$rps"
}

echo "wrk -t$THREADS -c$CONNECTIONS -d$DURATION (after a ${WARMUP} warm-up), loopback; $(nproc) cores; load: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
printf '%-7s %-12s %12s %12s %12s %14s\n' run server req/s requests non-2xx "cpu µs/req" >&2
declare -A RESULT
for RUN in admit reject; do
  if [ "$RUN" = admit ]; then
    start_demo "$ADMIT_RATE" 1s "$ADMIT_RATE"
    RESULT[$RUN.demo]=$(measure demo-server "$URL")
    stop_demo
    start_nginx "${ADMIT_RATE}r/s" "$ADMIT_RATE"
    RESULT[$RUN.nginx]=$(measure nginx "$URL")
    stop_nginx
  else
    start_demo "$REJECT_PER_MINUTE" 1m "$REJECT_PER_MINUTE"
    RESULT[$RUN.demo]=$(measure demo-server "$URL")
    stop_demo
    # nginx's burst counts requests beyond the first: none (no burst=) holds a bucket of one
    start_nginx "${REJECT_PER_MINUTE}r/m" 0
    RESULT[$RUN.nginx]=$(measure nginx "$URL")
    stop_nginx
  fi
done

echo
printf '%-7s %14s %14s %10s %s\n' run demo-server nginx ratio "goal >= 0.80"
for RUN in admit reject; do
  d=${RESULT[$RUN.demo]}
  n=${RESULT[$RUN.nginx]}
  ratio=$(awk -v d="$d" -v n="$n" 'BEGIN { printf "%.2f", (n > 0 ? d / n : 0) }')
  met=$(awk -v r="$ratio" 'BEGIN { print (r >= 0.80 ? "met" : "missed") }')
  printf '%-7s %14s %14s %10s %s\n' "$RUN" "$d" "$n" "$ratio" "$met"
done
