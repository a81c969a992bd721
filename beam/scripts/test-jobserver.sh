#!/usr/bin/env bash
# test-jobserver.sh: nbtext-beam through a Prism job server started as a
# separate process, with workers started as separate processes by Beam's Go
# boot (the PROCESS environment, through process-boot): the path a pipeline
# takes on Flink or Spark, where the launcher only submits the job and the
# workers run the staged binary. The counts of both rounds must be the
# bytes 'nbtext count' and 'nbtext count --vocab' write.
#
#   bash beam/scripts/test-jobserver.sh [NBTEXT_BEAM]   (from the repository root; make test-beam)
#
# Prism and the boot are built from the Beam module in the module cache;
# nothing else is fetched. Every step has a timeout.
set -euo pipefail
cd "$(dirname "$0")/../.."
root="$(pwd)"
beam_bin="$(cd "$(dirname "${1:-bin/nbtext-beam}")" && pwd)/$(basename "${1:-bin/nbtext-beam}")"
[ -x "$beam_bin" ] || { echo "test-jobserver: no $beam_bin: run make beam first" >&2; exit 1; }
tmp="$(mktemp -d "${TMPDIR:-/tmp}/nbtext-jobserver.XXXXXX")"
prism_pid=""
started="$tmp/started"
touch "$started"
cleanup() {
	if [ -n "$prism_pid" ]; then kill "$prism_pid" 2>/dev/null || true; wait "$prism_pid" 2>/dev/null || true; fi
	# Beam's boot copies the worker binary to /tmp/binNNN/worker and never
	# removes it: remove the copies of this run (newer than its start and
	# the same bytes as the binary staged).
	for d in /tmp/bin*; do
		if [ -f "$d/worker" ] && [ "$d/worker" -nt "$started" ] && cmp -s "$d/worker" "$beam_bin"; then
			rm -rf "$d"
		fi
	done
	rm -rf "$tmp"
}
trap cleanup EXIT
step() { echo "test-jobserver: $*"; }

step "building prism, Beam's Go boot and nbtext"
(cd beam && timeout 900 go build -o "$tmp/prism" github.com/apache/beam/sdks/v2/go/cmd/prism)
(cd beam && timeout 900 go build -o "$tmp/boot" github.com/apache/beam/sdks/v2/go/container)
timeout 600 go build -o "$tmp/nbtext" ./cmd/nbtext

# A small corpus in two files of two formats: 1,200 synthetic documents.
timeout 120 go run ./tools/gencorpus -docs 1200 -classes 5 -seed 3 -o "$tmp/all.tsv" 2>/dev/null
head -n 700 "$tmp/all.tsv" >"$tmp/a.tsv"
tail -n +701 "$tmp/all.tsv" | awk -F'\t' '{ printf "{\"label\":\"%s\",\"text\":\"%s\"}\n", $1, $2 }' >"$tmp/b.jsonl"
inputs=("$tmp/a.tsv" "$tmp/b.jsonl")

step "starting a Prism job server on a free port"
# From the scratch folder: the boot writes pipeline_options.json in its
# working folder, which is prism's.
(cd "$tmp" && exec ./prism --job_port=0 --serve_http=false --log_kind=text --idle_shutdown_timeout=15m 2>prism.log) &
prism_pid=$!
endpoint=""
for _ in $(seq 600); do
	endpoint="$(sed -n 's/.*msg="Serving JobManagement" endpoint=\([^ ]*\).*/\1/p' "$tmp/prism.log")"
	[ -n "$endpoint" ] && break
	kill -0 "$prism_pid" 2>/dev/null || { cat "$tmp/prism.log" >&2; exit 1; }
	sleep 0.1
done
[ -n "$endpoint" ] || { echo "test-jobserver: prism did not start in 60 s" >&2; cat "$tmp/prism.log" >&2; exit 1; }
step "job server at $endpoint"

config="{\"command\":\"$root/beam/scripts/process-boot\",\"env\":{\"NBTEXT_BEAM_BOOT\":\"$tmp/boot\"}}"
step "nbtext-beam --runner=flink --endpoint=$endpoint --environment_type=PROCESS (both rounds, --model-out)"
if ! timeout 600 "$beam_bin" --runner=flink --endpoint="$endpoint" --environment_type=PROCESS \
	--environment_config="$config" --split-bytes=65536 \
	-o "$tmp/beam.nbc" --model-out "$tmp/beam.nbm" "${inputs[@]}" >"$tmp/run.log" 2>&1; then
	cat "$tmp/run.log" >&2
	tail -50 "$tmp/prism.log" >&2
	echo "test-jobserver: nbtext-beam failed (or timed out)" >&2
	exit 1
fi
grep -q "Provision info" "$tmp/prism.log" || { echo "test-jobserver: no worker was started by the boot" >&2; exit 1; }

step "checking the bytes against nbtext count"
"$tmp/nbtext" count -q "${inputs[@]}" -o "$tmp/ref.round1.nbc"
"$tmp/nbtext" count -q "${inputs[@]}" --vocab "$tmp/ref.round1.nbc" -o "$tmp/ref.nbc"
# nbtext count records its inputs (a digest of each file's documents) and
# nbtext-beam, which reads files in byte ranges, does not: the counts are
# compared by their summary and by the models fitted from them, which read
# every count.
same_counts() { # BEAM REF MODEL
	local a b
	a=$("$tmp/nbtext" info "$1" | sed '/^inputs (/,/^$/d' | grep -Ev '^(file|size|sha256|inputs) ')
	b=$("$tmp/nbtext" info "$2" | sed '/^inputs (/,/^$/d' | grep -Ev '^(file|size|sha256|inputs) ')
	[ "$a" = "$b" ] || { echo "test-jobserver: $1 and $2 differ:"; diff <(echo "$a") <(echo "$b"); return 1; } >&2
	"$tmp/nbtext" train -q --from-counts "$1" --model "$3" -o "$tmp/same-a.nbm"
	"$tmp/nbtext" train -q --from-counts "$2" --model "$3" -o "$tmp/same-b.nbm"
	cmp "$tmp/same-a.nbm" "$tmp/same-b.nbm"
}
same_counts "$tmp/beam.round1.nbc" "$tmp/ref.round1.nbc" bernoulli
same_counts "$tmp/beam.nbc" "$tmp/ref.nbc" multinomial
"$tmp/nbtext" predict -q -m "$tmp/beam.nbm" "$tmp/a.tsv" >"$tmp/beam.pred"
"$tmp/nbtext" train -q --from-counts "$tmp/ref.nbc" -o "$tmp/ref.nbm"
"$tmp/nbtext" predict -q -m "$tmp/ref.nbm" "$tmp/a.tsv" >"$tmp/ref.pred"
cmp "$tmp/beam.pred" "$tmp/ref.pred"
step "ok: both rounds hold the counts of nbtext count (summary and fitted models), the model predicts as train --from-counts"
