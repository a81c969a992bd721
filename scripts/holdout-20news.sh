#!/usr/bin/env bash
# Split the 20 Newsgroups bydate TRAIN split into an earlier and a later
# part, the held-out set on which nbtext's defaults were chosen (see
# internal/train/defaults.go). Run with --help for usage. Exit status: 0 ok,
# 1 failure, 2 bad arguments.
set -euo pipefail

usage() {
	cat <<EOF
Usage: scripts/holdout-20news.sh ARCHIVE OUTDIR [PERCENT]

Reads the train split of ARCHIVE (20news-bydate.tar.gz) and writes, for each
newsgroup, its posts in article-number order: the first (100-PERCENT)% to
OUTDIR/train/GROUP/, the last PERCENT% (default 25) to OUTDIR/holdout/GROUP/.
Article numbers grow with time within a group, so the held-out posts are
later than the training ones, as the bydate test split is later than the
train split. The test split is not read.

  scripts/holdout-20news.sh ~/.cache/nbtext/20news-bydate.tar.gz /tmp/hold
  nbtext train /tmp/hold/train --model complement -o c.nbm
  nbtext eval -m c.nbm /tmp/hold/holdout
EOF
}

case "${1:-}" in -h | --help) usage; exit 0 ;; esac
if [[ $# -lt 2 || $# -gt 3 ]]; then
	usage >&2
	exit 2
fi
archive=$1 out=$2 pct=${3:-25}
if ! [[ $pct =~ ^[0-9]+$ ]] || ((pct < 1 || pct > 99)); then
	echo "holdout-20news.sh: PERCENT must be a whole number in 1..99, got '$pct'" >&2
	exit 2
fi
if [[ ! -f $archive ]]; then
	echo "holdout-20news.sh: $archive: no such file" >&2
	exit 1
fi
if [[ -e $out/train || -e $out/holdout ]]; then
	echo "holdout-20news.sh: $out/train or $out/holdout exists already; remove it first" >&2
	exit 1
fi

mkdir -p "$out"
out=$(cd "$out" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
tar -xzf "$archive" -C "$tmp" 20news-bydate-train
ntrain=0 nheld=0
for dir in "$tmp"/20news-bydate-train/*/; do
	group=$(basename "$dir")
	mapfile -t posts < <(ls "$dir" | sort -n)
	n=${#posts[@]}
	k=$((n * (100 - pct) / 100)) # posts kept for training
	mkdir -p "$out/train/$group" "$out/holdout/$group"
	(
		cd "$dir"
		mv -t "$out/train/$group" -- "${posts[@]:0:k}"
		mv -t "$out/holdout/$group" -- "${posts[@]:k}"
	)
	ntrain=$((ntrain + k)) nheld=$((nheld + n - k))
done
echo "holdout-20news.sh: $ntrain posts in $out/train, $nheld in $out/holdout" >&2
