#!/usr/bin/env bash
# Scale benchmarks (make bench-scale): 'nbtext train --stream --model
# multinomial' on seeded synthetic corpora (tools/gencorpus: Zipf words over a
# fixed vocabulary of 200,000, 20 classes, about 300 words a document) of
# growing size. Prints, for each size, the text's MB, the wall seconds, the CPU
# seconds (user + system), MB/s of text on the wall clock and per CPU second,
# and the peak RSS (/usr/bin/time), and fails unless the peaks are within 10%
# of each other and at most 1 GB. Each corpus is removed once measured.
#
#   BENCH_SCALE_SIZES="100000 1000000"  documents per corpus (the default);
#                                       "100000 1000000 10000000" adds 10^7
#                                       (14 GB of text, plus a 5.3 GB row
#                                       cache while it trains: ~20 GB free)
#   BENCH_SCALE_DIR=DIR                 where the corpora and the row cache go
#                                       (default: a temporary folder, removed)
#   NBTEXT=bin/nbtext                   the binary to measure
set -euo pipefail

NBTEXT=${NBTEXT:-bin/nbtext}
SIZES=${BENCH_SCALE_SIZES:-"100000 1000000"}
if [ -n "${BENCH_SCALE_DIR:-}" ]; then
	DIR=$BENCH_SCALE_DIR
	mkdir -p "$DIR"
else
	DIR=$(mktemp -d)
	trap 'rm -rf "$DIR"' EXIT
fi
TIME=/usr/bin/time
[ -x "$TIME" ] || { echo "bench-scale: needs GNU time at $TIME (apt-get install time)" >&2; exit 1; }

go build -o "$DIR/gencorpus" ./tools/gencorpus

printf '%-10s %9s %9s %9s %8s %10s %12s\n' documents "text MB" seconds "cpu s" "MB/s" "MB/cpu-s" "peak RSS MB"
peaks=()
for n in $SIZES; do
	corpus="$DIR/corpus-$n.tsv"
	"$DIR/gencorpus" -docs "$n" -seed 1 -o "$corpus" 2>/dev/null
	bytes=$(stat -c %s "$corpus")
	# The row cache of round one goes beside the corpus (TMPDIR).
	TMPDIR=$DIR "$TIME" -f '%M %e %U %S' -o "$DIR/time-$n" "$NBTEXT" train "$corpus" --stream --model multinomial -q -o "$DIR/model-$n.nbm" >/dev/null
	read -r kb secs user sys <"$DIR/time-$n"
	rm -f "$corpus" "$DIR/model-$n.nbm"
	awk -v n="$n" -v b="$bytes" -v s="$secs" -v u="$user" -v y="$sys" -v kb="$kb" 'BEGIN {
		cpu = u + y
		printf "%-10d %9.0f %9.2f %9.2f %8.1f %10.1f %12.0f\n", n, b/1e6, s, cpu, b/1e6/s, b/1e6/cpu, kb/1024
	}'
	peaks+=("$kb")
done

printf '%s\n' "${peaks[@]}" | awk '
	NR == 1 || $1 < lo { lo = $1 }
	NR == 1 || $1 > hi { hi = $1 }
	END {
		if (hi > 1024 * 1024) { printf "bench-scale: peak RSS %.0f MB is over 1 GB\n", hi / 1024; exit 1 }
		if (hi > 1.1 * lo) { printf "bench-scale: peak RSS from %.0f to %.0f MB: not within 10%%\n", lo / 1024, hi / 1024; exit 1 }
		printf "bench-scale: peak RSS %.0f-%.0f MB, within 10%% and under 1 GB\n", lo / 1024, hi / 1024
	}'
