#!/usr/bin/env bash
# Load benchmark of 'nbtext serve' (make bench-serve), on 127.0.0.1 only and
# bounded in time (about 3 minutes with the defaults, plus two trainings):
#
#   1. identity: the answers to the 7,532 test posts of 20 Newsgroups, sent
#      as 75 batches of 100, against 'predict --format json' (ids aside:
#      each batch numbers its documents from 1);
#   2. throughput: one test post per request, keep-alive, wrk with two
#      threads (else ab)
#      with 32 connections for BENCH_SERVE_SECONDS;
#   3. latency at a fixed rate: 2,000 requests/s, open loop, p99
#      (tools/loadgen: wrk2 is not in Debian);
#   4. batches of 100 posts: documents/s with 4 connections, next to
#      predict's documents/s on the same posts;
#   5. reloads: 100 reloads (50 atomic renames of the model file, alternately
#      a multinomial and a complement model, and 50 SIGHUPs) during a
#      BENCH_SERVE_RELOAD_SECONDS run at 500 requests/s: failed requests;
#   6. hostile clients: 5,000 idle and 200 slowloris connections, oversized,
#      malformed and non-UTF-8 bodies, with the default limits: what each
#      got, the server's peak RSS, and /healthz afterwards;
#   7. SIGTERM: the exit status.
#
#   NBTEXT=bin/nbtext                      the binary to measure
#   NBTEXT_20NEWS_TARBALL=PATH             the corpus (default ../shared/data/20news-bydate.tar.gz)
#   BENCH_SERVE_SECONDS=10                 length of runs 2 to 4
#   BENCH_SERVE_RELOAD_SECONDS=60          length of run 5
#   BENCH_SERVE_PORT=18080
#
# wrk or ab (Debian: apt-get install wrk apache2-utils) measure run 2;
# without either, run 2 uses tools/loadgen at 12,000 requests/s instead.
set -euo pipefail

NBTEXT=${NBTEXT:-bin/nbtext}
TARBALL=${NBTEXT_20NEWS_TARBALL:-../shared/data/20news-bydate.tar.gz}
SECS=${BENCH_SERVE_SECONDS:-10}
RELOAD_SECS=${BENCH_SERVE_RELOAD_SECONDS:-60}
PORT=${BENCH_SERVE_PORT:-18080}
URL=http://127.0.0.1:$PORT
HERE=$(cd "$(dirname "$0")" && pwd)
[ -f "$TARBALL" ] || { echo "bench-serve: no corpus at $TARBALL (set NBTEXT_20NEWS_TARBALL or run scripts/fetch-20news.sh)" >&2; exit 1; }
[ -x "$NBTEXT" ] || { echo "bench-serve: no binary at $NBTEXT (make build)" >&2; exit 1; }
NBTEXT=$(cd "$(dirname "$NBTEXT")" && pwd)/$(basename "$NBTEXT")

W=$(mktemp -d)
PID=
cleanup() {
	if [ -n "$PID" ] && kill -0 "$PID" 2>/dev/null; then kill -TERM "$PID"; wait "$PID" || true; fi
	rm -rf "$W"
}
trap cleanup EXIT

echo "== setup: tools/loadgen, two models of the 20 Newsgroups train split, the request bodies"
(cd "$HERE/.." && go build -o "$W/loadgen" ./tools/loadgen)
"$NBTEXT" train "$TARBALL" --split train -o "$W/multinomial.nbm" -q
"$NBTEXT" train "$TARBALL" --split train --model complement -o "$W/complement.nbm" -q
"$W/loadgen" -mode bodies -tarball "$TARBALL" -out "$W"
cp "$W/multinomial.nbm" "$W/news.nbm"
echo "machine: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo '?')"

start_server() {
	"$NBTEXT" serve -m "$W/news.nbm" --addr "127.0.0.1:$PORT" --watch 100ms "$@" 2>>"$W/serve.log" &
	PID=$!
	for _ in $(seq 100); do
		curl -sf "$URL/healthz" >/dev/null 2>&1 && return 0
		sleep 0.1
	done
	echo "bench-serve: the server did not start:" >&2
	cat "$W/serve.log" >&2
	exit 1
}
rss() { grep -E '^(VmRSS|VmHWM)' "/proc/$PID/status" 2>/dev/null | tr -s ' \t' ' ' | tr '\n' ' '; }
metric() { curl -s "$URL/metrics" | awk -v m="$1" 'index($0, m" ") == 1 {print $2}'; }
# cpu: the server's CPU time so far (user + system), in clock ticks.
cpu() { awk '{print $14 + $15}' "/proc/$PID/stat" 2>/dev/null || echo 0; }
TCK=$(getconf CLK_TCK 2>/dev/null || echo 100)
# per_request N TICKS: microseconds of server CPU per request.
per_request() { echo "$1 $2 $TCK" | awk '{ if ($1 > 0) printf "%.0f", $2 / $3 * 1e6 / $1; else print "?" }'; }

start_server
echo "server: $(rss)"

echo
echo "== 1. identity with predict on the 7,532 test posts"
"$W/loadgen" -mode answers -url "$URL/v1/predict" -bodies "$W/batch100.jsonl" | sed 's/^{"id":"[0-9]*",//' >"$W/serve.json"
"$NBTEXT" predict -m "$W/news.nbm" --input jsonl --format json <"$W/posts.jsonl" | head -n "$(wc -l <"$W/serve.json")" | sed 's/^{"id":"[0-9]*",//' >"$W/predict.json"
if cmp -s "$W/serve.json" "$W/predict.json"; then
	echo "byte-identical: $(wc -l <"$W/serve.json") answers"
else
	echo "bench-serve: the server's answers differ from predict's" >&2
	cmp "$W/serve.json" "$W/predict.json" >&2 || true
	exit 1
fi

echo
echo "== 2. one test post per request, keep-alive, 32 connections, ${SECS}s"
n0=$(metric 'nbtext_http_requests_total{handler="predict",code="200"}')
c0=$(cpu)
if command -v wrk >/dev/null; then
	# Two wrk threads: one thread of wrk (Lua building each request) tops
	# out near 9,000 requests/s here, below the server.
	wrk -t2 -c32 -d"${SECS}s" --latency -s "$HERE/bench-serve.lua" "$URL/v1/predict" -- "$W/posts.jsonl"
elif command -v ab >/dev/null; then
	head -n 1 "$W/posts.jsonl" >"$W/one.json"
	ab -q -k -c 32 -t "$SECS" -n 100000000 -p "$W/one.json" -T application/json "$URL/v1/predict" | grep -E 'Requests per second|Failed|Non-2xx|  (50|90|99|100)%'
else
	echo "(no wrk or ab: apt-get install wrk apache2-utils; using tools/loadgen at 12,000/s)"
	"$W/loadgen" -url "$URL/v1/predict" -bodies "$W/posts.jsonl" -rate 12000 -duration "${SECS}s" -conns 32 || true
fi
n1=$(metric 'nbtext_http_requests_total{handler="predict",code="200"}')
us=$(per_request $((n1 - n0)) $(($(cpu) - c0)))
echo "server CPU per request: $us µs (user + system): $(echo "$us" | awk '{ if ($1 > 0) printf "%.0f", 1e6 / $1; else print "?" }') requests/s per core of the server's own"

echo
echo "== 3. one test post per request at 2,000 requests/s, open loop, ${SECS}s"
"$W/loadgen" -url "$URL/v1/predict" -bodies "$W/posts.jsonl" -rate 2000 -duration "${SECS}s" -conns 32 || true

echo
echo "== 4. batches of 100 posts, 4 connections, ${SECS}s; predict on the same posts"
before=$(metric 'nbtext_documents_total{model="news"}')
c0=$(cpu)
t0=$(date +%s.%N)
if command -v wrk >/dev/null; then
	wrk -t1 -c4 -d"${SECS}s" -s "$HERE/bench-serve.lua" "$URL/v1/predict" -- "$W/batch100.jsonl" | grep -E 'requests in|Non-2xx|Socket errors' || true
else
	"$W/loadgen" -url "$URL/v1/predict" -bodies "$W/batch100.jsonl" -rate 1000 -duration "${SECS}s" -conns 4 | head -2 || true
fi
t1=$(date +%s.%N)
after=$(metric 'nbtext_documents_total{model="news"}')
serve_us=$(per_request $((after - before)) $(($(cpu) - c0)))
serve_dps=$(echo "$before $after $t0 $t1" | awk '{printf "%.0f", ($2-$1)/($4-$3)}')
cat "$W/posts.jsonl" "$W/posts.jsonl" "$W/posts.jsonl" >"$W/posts3.jsonl"
t0=$(date +%s.%N)
if [ -x /usr/bin/time ]; then
	/usr/bin/time -f '%U %S' -o "$W/predict.time" "$NBTEXT" predict -m "$W/news.nbm" --input jsonl --format json <"$W/posts3.jsonl" >/dev/null
	predict_us=$(awk '{printf "%.0f", ($1 + $2) * 1e6 / (3*7532)}' "$W/predict.time")
else
	"$NBTEXT" predict -m "$W/news.nbm" --input jsonl --format json <"$W/posts3.jsonl" >/dev/null
	predict_us="?"
fi
t1=$(date +%s.%N)
predict_dps=$(echo "$t0 $t1" | awk '{printf "%.0f", 3*7532/($2-$1)}')
echo "serve: $serve_dps documents/s, $serve_us µs of CPU a document"
echo "predict: $predict_dps documents/s, $predict_us µs of CPU a document (22,596 posts, model load included)"
echo "ratio of documents/s: $(echo "$serve_dps $predict_dps" | awk '{printf "%.2f", $1/$2}')"

echo
echo "== 5. 100 reloads (50 renames, 50 SIGHUPs) during ${RELOAD_SECS}s at 500 requests/s"
v0=$(metric 'nbtext_model_version{model="news"}')
"$W/loadgen" -url "$URL/v1/predict" -bodies "$W/posts.jsonl" -rate 500 -duration "${RELOAD_SECS}s" -conns 16 >"$W/reload.out" 2>&1 &
LG=$!
# One reload every 0.9 × RELOAD_SECS / 100 s; each waits for the one before
# it to be done (at most 5 s), since signals that arrive during a reload
# coalesce.
gap=$(echo "$RELOAD_SECS" | awk '{printf "%.3f", $1 * 0.9 / 100}')
v=$v0
for i in $(seq 100); do
	t0=$(date +%s.%N)
	if [ $((i % 2)) -eq 1 ]; then
		if [ $((i % 4)) -eq 1 ]; then src=complement; else src=multinomial; fi
		cp "$W/$src.nbm" "$W/.news.tmp" && mv "$W/.news.tmp" "$W/news.nbm"
	else
		kill -HUP "$PID"
	fi
	v=$((v + 1))
	for _ in $(seq 100); do
		[ "$(metric 'nbtext_model_version{model="news"}')" -ge "$v" ] && break
		sleep 0.05
	done
	rest=$(echo "$t0 $(date +%s.%N) $gap" | awk '{r = $3 - ($2 - $1); printf "%.3f", (r > 0 ? r : 0)}')
	sleep "$rest"
done
lg_status=0
wait "$LG" || lg_status=$?
cat "$W/reload.out"
v1=$(metric 'nbtext_model_version{model="news"}')
echo "model version $v0 -> $v1: $((v1 - v0)) reloads, refused: $(metric 'nbtext_model_reloads_total{model="news",result="refused"}')"
[ "$lg_status" -eq 0 ] || { echo "bench-serve: requests failed during the reloads" >&2; exit 1; }

echo
echo "== 6. hostile clients, default limits (--max-conns 1024, --read-header-timeout 5s)"
echo "server before: $(rss)"
"$W/loadgen" -mode hostile -url "$URL/v1/predict" -idle 5000 -slow 200 -duration 20s || true
echo "server after: $(rss)"
echo "connections evicted: $(metric nbtext_http_connections_evicted_total), refused: $(metric nbtext_http_connections_refused_total), open now: $(metric nbtext_http_connections)"

echo
echo "== 7. SIGTERM"
kill -TERM "$PID"
status=0
wait "$PID" || status=$?
PID=
echo "exit status $status; log tail:"
tail -n 3 "$W/serve.log"
[ "$status" -eq 0 ]
