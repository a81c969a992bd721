#!/usr/bin/env bash
# Checks the output of `make demo` (scripts/demo.sh), saved in LOG: every
# number of step 3 (train accuracy and seconds of each model) is present,
# and the test-split accuracy of each model in step 4 is the figure of the
# README's Accuracy table (its 20 Newsgroups column), so neither the demo nor the
# README can drift unnoticed. CI runs it on the demo it runs (.ci/run).
#
# Usage: scripts/check-demo.sh LOG [README]
set -euo pipefail
log=${1:?usage: scripts/check-demo.sh LOG [README]}
readme=${2:-$(dirname "$0")/../README.md}
fail=0
bad() {
	echo "check-demo: $*" >&2
	fail=1
}
for m in bernoulli multinomial complement logreg; do
	line=$(grep -E "^  $m +train accuracy" "$log" || true)
	if ! [[ $line =~ train\ accuracy\ [0-9]+\.[0-9]+\ +\([0-9]+\.[0-9]+s\)$ ]]; then
		bad "step 3: no train accuracy and seconds for $m: '${line}'"
	fi
	got=$(awk -v m="$m" '$1 == m && NF == 4 && $2 ~ /^[0-9.]+$/ {print $2}' "$log")
	want=$(awk -F'|' -v m="$m" '$2 ~ "^ *" m " *$" {gsub(/[ *]/, "", $4); print $4; exit}' "$readme")
	if [ -z "$got" ]; then
		bad "step 4: no test accuracy for $m"
	elif [ -z "$want" ]; then
		bad "README: no 20 Newsgroups accuracy for $m in the Accuracy table"
	elif [ "$got" != "$want" ]; then
		bad "step 4: $m test accuracy $got, the README says $want"
	fi
done
grep -q '^== 6\.' "$log" || bad "no step 6 (learning curves)"
grep -q '^done in ' "$log" || bad "the demo did not finish"
if [ "$fail" = 0 ]; then
	echo "check-demo: $log matches the README"
fi
exit "$fail"
