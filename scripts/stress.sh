#!/usr/bin/env bash
# The slow half of the bad-input catalog (issue 12), run by `make stress`,
# not by CI: kill -9 and SIGTERM during every kind of write (model,
# vocabulary, CSV with plot), train under an address-space limit, 2 million
# predict lines, and every fuzz target for FUZZTIME each. Each check prints
# PASS or FAIL; the script exits 1 if any failed.
#
# Needs the 20 Newsgroups archive (NBTEXT_20NEWS_TARBALL, or
# ../shared/data/20news-bydate.tar.gz). Environment:
#   FUZZTIME=60s   time per fuzz target (0 skips fuzzing)
#   KILLS=12       kill -9 rounds per kind of write
#   LINES=2000000  predict lines
#   FUZZMIN=5s     -fuzzminimizetime of each fuzz target
#   FUZZMEM_KB=8000000  address-space limit (ulimit -v) of the fuzzing
#   ONLY="writes counts limits lines endless fuzz"  the parts to run (all
#       by default): kill rounds of train/vocab/compare (writes), of
#       count/merge/train --stream/--auto/nbtext-beam (counts), train under
#       an address-space limit (limits), 2 million predict lines (lines),
#       endless input (endless), fuzzing (fuzz); e.g. ONLY=counts KILLS=4
set -u
shopt -s nullglob
cd "$(dirname "$0")/.."
FUZZTIME=${FUZZTIME:-60s}
KILLS=${KILLS:-12}
LINES=${LINES:-2000000}
FUZZMIN=${FUZZMIN:-5s}
FUZZMEM_KB=${FUZZMEM_KB:-8000000}
ONLY=${ONLY:-writes counts limits lines endless fuzz}
# part NAME: whether part NAME runs (ONLY).
part() { [[ " $ONLY " == *" $1 "* ]]; }
if [ -z "${NBTEXT_20NEWS_TARBALL:-}" ] && [ -f ../shared/data/20news-bydate.tar.gz ]; then
	export NBTEXT_20NEWS_TARBALL=$(cd ../shared/data && pwd)/20news-bydate.tar.gz
fi
[ -n "${NBTEXT_20NEWS_TARBALL:-}" ] || { echo "stress: NBTEXT_20NEWS_TARBALL not set and no ../shared copy" >&2; exit 1; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
bin=$work/nbtext
CGO_ENABLED=0 go build -o "$bin" ./cmd/nbtext || exit 1
failed=0
pass() { echo "PASS  $*"; }
fail() { echo "FAIL  $*"; failed=1; }

# temps DIR: the hidden temporary files nbtext left in DIR.
temps() { find "$1" -maxdepth 1 -name '.*.tmp-*' | wc -l; }

# waittemp PID N: waits until more than N temporary files are in $out (a
# write has begun) or the process PID ends.
waittemp() {
	local f
	while kill -0 "$1" 2>/dev/null; do
		f=("$out"/.*.tmp-*)
		((${#f[@]} > $2)) && return 0
	done
	return 1
}

# killrounds NAME SIGNAL CHECK CMD...: starts CMD KILLS times and sends it
# SIGNAL, in odd rounds after a random delay spread over its running time,
# in even rounds as soon as a write has begun; then runs CHECK (a shell
# function), which reports a broken result.
killrounds() {
	local name=$1 sig=$2 check=$3; shift 3
	local start end ms i pid n bad=0 leftover=0 hits=0 before=0
	start=$(date +%s%N); "$@" >/dev/null 2>&1; end=$(date +%s%N)
	ms=$(( (end - start) / 1000000 + 1 ))
	for ((i = 0; i < KILLS; i++)); do
		"$@" >/dev/null 2>&1 &
		pid=$!
		if ((i % 2 == 0)); then
			waittemp "$pid" "$before" && hits=$((hits + 1))
		else
			sleep "$(awk -v ms="$ms" -v r="$RANDOM" 'BEGIN { printf "%.3f", ms * (0.5 + r / 32768 * 0.6) / 1000 }')"
		fi
		kill "-$sig" "$pid" 2>/dev/null
		wait "$pid" 2>/dev/null
		$check || bad=$((bad + 1))
		n=$(temps "$work/out")
		# A kill -9 during a write leaves its temporary file (until the
		# next successful write); any other signal must leave none.
		if [ "$sig" != KILL ] && ((n > 0)); then leftover=$((leftover + 1)); fi
		before=$n
	done
	# The next successful write removes what a kill -9 left.
	local final=""
	if ! "$@" >/dev/null 2>"$work/final.err"; then
		final="; the run without a kill failed: $(tail -n 1 "$work/final.err" | head -c 150)"
	elif ! $check; then
		bad=$((bad + 1))
	fi
	[ "$(temps "$work/out")" -eq 0 ] || leftover=$((leftover + 1))
	if [ $bad -eq 0 ] && [ $leftover -eq 0 ] && [ -z "$final" ]; then
		pass "$name: $KILLS kill -$sig rounds ($hits during a write), every output whole, no temporary file left"
	else
		fail "$name: $bad broken outputs, $leftover rounds with temporary files left$final"
	fi
}

mkdir -p "$work/out"
out=$work/out

# Models and vocabularies are deterministic: after any kill the file is
# absent or byte-identical to the reference.
"$bin" train -q 20news -o "$work/ref.nbm" >/dev/null 2>"$work/err" || { cat "$work/err"; exit 1; }
part writes && { "$bin" vocab -q 20news -o "$work/ref.tsv" 2>"$work/err" || { cat "$work/err"; exit 1; }; }
model_ok() { [ ! -e "$out/m.nbm" ] || cmp -s "$out/m.nbm" "$work/ref.nbm"; }
vocab_ok() { [ ! -e "$out/v.tsv" ] || cmp -s "$out/v.tsv" "$work/ref.tsv"; }
part writes && for sig in KILL TERM; do
	killrounds "train -o (model)" $sig model_ok "$bin" train -q 20news -o "$out/m.nbm"
	killrounds "vocab -o" $sig vocab_ok "$bin" vocab -q 20news -o "$out/v.tsv"
done

# compare: the CSV and the plot are replaced together. Start from a pair of
# another seed; after any kill both are old or both are new.
cmpargs=(compare -q 20news --classes sci.crypt,comp.graphics --repeats 2 --csv "$out/c.csv" --plot "$out/c.png")
if part writes; then
	"$bin" "${cmpargs[@]}" --seed 2 >/dev/null || exit 1
	cp "$out/c.csv" "$work/old.csv"; cp "$out/c.png" "$work/old.png"
fi
pair_ok() {
	local csv_old=0 png_old=0
	cmp -s "$out/c.csv" "$work/old.csv" && csv_old=1
	cmp -s "$out/c.png" "$work/old.png" && png_old=1
	[ $csv_old -eq $png_old ]
}
part writes && for sig in KILL TERM; do
	killrounds "compare --csv --plot" $sig pair_ok "$bin" "${cmpargs[@]}"
	cp "$work/old.csv" "$out/c.csv"; cp "$work/old.png" "$out/c.png"
done

# Issue 28 (items 1, 5, 18): kill rounds of count (spilling), merge, train
# --stream (hashed, spilling), train --auto and nbtext-beam. Their scratch
# files go to $work/tmp: after SIGTERM no spilled run (nbtext-run-*) and no
# Beam folder (nbtext-beam-*) is left; after kill -9 the next Beam run
# removes the folder it left. Outputs are absent or whole (byte-identical
# where the command is deterministic), and the inputs never change.
if part counts; then
export TMPDIR=$work/tmp
mkdir -p "$TMPDIR"
cursig=TERM
scratch() { find "$TMPDIR" -maxdepth 1 \( -name 'nbtext-run-*' -o -name 'nbtext-beam-*' \) | wc -l; }
scratch_ok() { [ "$cursig" = KILL ] || [ "$(scratch)" -eq 0 ]; }
awk 'BEGIN { srand(28); for (i = 0; i < 60000; i++) { printf "c%d\t", i % 7; for (j = 0; j < 40; j++) printf "w%d ", int(rand() * 200000); print "" } }' >"$work/corpus.tsv"
sum_in=$(sha256sum "$work/corpus.tsv")
"$bin" count -q --mem 32MB "$work/corpus.tsv" -o "$work/ref.nbc" >/dev/null || exit 1
"$bin" count -q --shard 1/2 "$work/corpus.tsv" -o "$work/p1.nbc" >/dev/null || exit 1
"$bin" count -q --shard 2/2 "$work/corpus.tsv" -o "$work/p2.nbc" >/dev/null || exit 1
"$bin" merge -q "$work/p1.nbc" "$work/p2.nbc" -o "$work/refm.nbc" >/dev/null || exit 1
"$bin" train -q --stream --hash-bits 18 --mem 32MB "$work/corpus.tsv" -o "$work/refs.nbm" >/dev/null || exit 1
count_ok() { scratch_ok && { [ ! -e "$out/c.nbc" ] || cmp -s "$out/c.nbc" "$work/ref.nbc"; }; }
merge_ok() { [ ! -e "$out/m.nbc" ] || cmp -s "$out/m.nbc" "$work/refm.nbc"; }
stream_ok() { scratch_ok && { [ ! -e "$out/s.nbm" ] || cmp -s "$out/s.nbm" "$work/refs.nbm"; }; }
auto_ok() { [ ! -e "$out/a.nbm" ] || "$bin" info "$out/a.nbm" >/dev/null 2>&1; }
# --auto on 5,000 of the documents with 30 s: on the whole corpus a loaded
# machine (2 cores, load 45) scored no candidate within 15 s, and the run
# failed ("the budget ran out before any candidate was scored"), which is
# no broken output.
head -n 5000 "$work/corpus.tsv" >"$work/auto.tsv"
for sig in KILL TERM HUP; do
	cursig=$sig
	killrounds "count --mem (spilling)" $sig count_ok "$bin" count -q --mem 32MB "$work/corpus.tsv" -o "$out/c.nbc"
	killrounds "merge" $sig merge_ok "$bin" merge -q "$work/p1.nbc" "$work/p2.nbc" -o "$out/m.nbc"
	killrounds "train --stream --hash-bits --mem" $sig stream_ok "$bin" train -q --stream --hash-bits 18 --mem 32MB "$work/corpus.tsv" -o "$out/s.nbm"
	killrounds "train --auto" $sig auto_ok "$bin" train -q --auto --budget 30s "$work/auto.tsv" -o "$out/a.nbm"
	rm -f "$TMPDIR"/nbtext-run-* # what the kill -9 rounds left
done
if (cd beam && CGO_ENABLED=0 go build -o "$work/nbtext-beam" ./cmd/nbtext-beam); then
	"$work/nbtext-beam" -o "$work/refb.nbc" "$work/corpus.tsv" >/dev/null 2>&1 || exit 1
	beam_ok() { scratch_ok && { [ ! -e "$out/b.nbc" ] || cmp -s "$out/b.nbc" "$work/refb.nbc"; }; }
	for sig in KILL TERM; do
		cursig=$sig
		killrounds "nbtext-beam" $sig beam_ok "$work/nbtext-beam" -o "$out/b.nbc" "$work/corpus.tsv"
	done
	"$work/nbtext-beam" -o "$out/b.nbc" "$work/corpus.tsv" >/dev/null 2>&1
	if [ "$(scratch)" -eq 0 ]; then pass "nbtext-beam after kill -9 rounds: the next run removed the folders left"; else fail "nbtext-beam: $(scratch) scratch folders left"; fi
	"$work/nbtext-beam" -o "$work/corpus.tsv" "$work/corpus.tsv" >/dev/null 2>&1
	code=$?
	if [ $code -eq 2 ] && [ "$(sha256sum "$work/corpus.tsv")" = "$sum_in" ]; then pass "nbtext-beam -o its input: exit 2, input kept"; else fail "nbtext-beam -o its input: exit $code"; fi
else
	fail "nbtext-beam does not build"
fi
[ "$(sha256sum "$work/corpus.tsv")" = "$sum_in" ] && pass "kill rounds: the corpus never changed" || fail "kill rounds: the corpus changed"
unset TMPDIR
fi

# Train under an address-space limit: success, or (for a model that does
# not fit) a failure that leaves no temporary file.
if part limits && command -v prlimit >/dev/null; then
	for kind in multinomial bernoulli logreg; do
		if prlimit --as=1000000000 "$bin" train -q 20news --model "$kind" -o "$out/as.nbm" 2>"$work/err" && [ "$(temps "$out")" -eq 0 ]; then
			pass "train --model $kind under prlimit --as=1e9"
		else
			fail "train --model $kind under prlimit --as=1e9: $(head -c 200 "$work/err")"
		fi
	done
	# 8e8 bytes: the runtime starts, reads the corpus and runs out while
	# fitting complement NB (the Go runtime's fatal error, exit 2).
	prlimit --as=800000000 "$bin" train -q 20news --mem 150M --model complement -o "$out/as.nbm" >/dev/null 2>"$work/err"
	code=$?
	if [ "$(temps "$out")" -eq 0 ]; then pass "train out of memory (--as=8e8, exit $code): no temporary file"; else fail "train out of memory left a temporary file"; fi
fi

# 2 million predict lines, in order, in bounded memory.
part lines && yes 'the gpu renders polygons; my pgp key is on the clipper chip' | head -n "$LINES" >"$work/lines.txt"
if ! part lines; then
	:
elif /usr/bin/time -v "$bin" predict -m "$work/ref.nbm" <"$work/lines.txt" 2>"$work/time" >"$work/pred.txt" &&
	[ "$(wc -l <"$work/pred.txt")" -eq "$LINES" ]; then
	pass "predict $LINES lines: $(grep -E 'Maximum resident' "$work/time" | awk '{print $NF}') kB peak, $(grep -E 'Elapsed' "$work/time" | awk '{print $NF}')"
else
	fail "predict $LINES lines: $(wc -l <"$work/pred.txt") answers; $(tail -c 200 "$work/time")"
fi

# Endless input (issue 12, items 1-2): nbtext stops with exit 1 within 20 s,
# in bounded memory, at the default --max-doc-bytes: on /dev/zero (NUL
# bytes) and on an endless line of text; a device named as a FILE argument
# is refused before it is read.
if part endless; then
endless=("vocab -" "predict -m $work/ref.nbm" "predict -m $work/ref.nbm --input jsonl" "predict -m $work/ref.nbm --input doc")
for src in zero text; do
	for c in "${endless[@]}"; do
		if [ $src = zero ]; then
			timeout 20 prlimit --as=3000000000 $bin $c </dev/zero >/dev/null 2>"$work/err"
		else
			tr '\0' a </dev/zero | timeout 20 prlimit --as=3000000000 $bin $c >/dev/null 2>"$work/err"
		fi
		code=$?
		if [ $code -eq 1 ]; then pass "$c < endless $src: $(tail -n 1 "$work/err" | head -c 100)"; else fail "$c < endless $src: exit $code $(head -c 100 "$work/err")"; fi
	done
done
timeout 20 $bin predict -m "$work/ref.nbm" /dev/zero >/dev/null 2>"$work/err"
code=$?
if [ $code -eq 1 ]; then pass "predict /dev/zero (a FILE argument): $(head -c 100 "$work/err")"; else fail "predict /dev/zero: exit $code $(head -c 100 "$work/err")"; fi
fi

# Every fuzz target.
if part fuzz && [ "$FUZZTIME" != 0 ]; then
	while IFS=: read -r file name; do
		pkg=./$(dirname "$file")
		# -fuzzminimizetime: the default 60 s per new input left
		# FuzzDecode of internal/counts a few executions a minute. A
		# memory watchdog (ulimit -v) makes a decoder's allocation bomb
		# a failure rather than the machine's problem; the targets on
		# crafted valid-checksum files also bound the bytes allocated.
		if (ulimit -v $((FUZZMEM_KB)); go test -run '^$' -fuzz "^${name}\$" -fuzztime "$FUZZTIME" -fuzzminimizetime "$FUZZMIN" -parallel 2 "$pkg") >"$work/fuzz" 2>&1; then
			pass "fuzz $name ($pkg, $FUZZTIME)"
		else
			fail "fuzz $name ($pkg): $(tail -n 5 "$work/fuzz")"
		fi
	done < <(grep -rHo '^func Fuzz[A-Za-z0-9_]*' --include='*_test.go' internal cmd | sed 's/:func /:/')
fi

exit $failed
