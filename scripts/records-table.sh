#!/usr/bin/env bash
# Print the records-with-fields table of docs/records.md: the test accuracy
# of every model kind with its defaults, text only and with each field set,
# on a folder made by tools/fieldcorpus. Run with --help for usage. Exit
# status: 0 ok, 1 failure, 2 bad arguments.
set -euo pipefail

usage() {
	cat <<EOF
Usage: scripts/records-table.sh NBTEXT DIR

Trains NBTEXT (an nbtext binary) on DIR/train.jsonl and evaluates on
DIR/test.jsonl, for each model kind: text only, + vendor, + vendor and
length, + noise ("-" where the kind takes no fields). Then the categorical
model on vendor and on noise alone, and the Gaussian one on length alone.

  go run ./tools/fieldcorpus -corpus ../shared/data/20news-bydate.tar.gz -o /tmp/fields
  go build -o /tmp/nbtext ./cmd/nbtext
  scripts/records-table.sh /tmp/nbtext /tmp/fields
EOF
}

case "${1:-}" in -h | --help) usage; exit 0 ;; esac
if [[ $# -ne 2 ]]; then
	usage >&2
	exit 2
fi
nb=$1 dir=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# run KIND FLAGS...: prints the test accuracy, or "-" when train refuses.
run() {
	local kind=$1
	shift
	if "$nb" train "$dir/train.jsonl" --model "$kind" "$@" -o "$tmp/m.nbm" -q 2>"$tmp/err"; then
		"$nb" eval -m "$tmp/m.nbm" "$dir/test.jsonl" "$@" | awk '$1 == "accuracy" { printf "%s ", $2 }'
	else
		printf -- '- '
	fi
}

echo "model        text   +vendor +vendor,length +noise"
for kind in multinomial bernoulli complement logreg svm nblr; do
	printf '%-12s ' "$kind"
	run "$kind"
	run "$kind" --categorical-field vendor
	run "$kind" --categorical-field vendor --numeric-field length
	run "$kind" --categorical-field noise
	echo
done
printf '%-12s ' "categorical"
run categorical --categorical-field vendor --text-field text
run categorical --categorical-field noise --text-field text
echo "(vendor, noise)"
printf '%-12s ' "gaussian"
run gaussian --numeric-field length --text-field text
echo "(length)"
