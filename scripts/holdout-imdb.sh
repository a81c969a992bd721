#!/usr/bin/env bash
# Split the IMDB (aclImdb) TRAIN split into a training part and a held-out
# part, the held-out set on which nbtext's defaults were chosen beside the
# later 20 Newsgroups posts (see internal/train/defaults.go). Run with
# --help for usage. Exit status: 0 ok, 1 failure, 2 bad arguments.
set -euo pipefail

usage() {
	cat <<EOF
Usage: scripts/holdout-imdb.sh ARCHIVE OUTDIR [PERCENT [SEED]]

Reads train/pos and train/neg of ARCHIVE (aclImdb.tar.gz) and writes
OUTDIR/train.tsv and OUTDIR/holdout.tsv, one review per line as
"pos|neg<TAB>text" (tabs, CRs and line breaks in a review become spaces).
About PERCENT% (default 25) of the positive and of the negative reviews are
held out, stratified by label and grouped by movie: the movies (from
train/urls_*.txt) are taken in an order drawn from SEED (default 1) and
held out whole while neither label's held-out share is full, so no movie
has reviews on both sides, as the IMDB test split shares no movie with the
train split. The same SEED gives the same files. The test split is not read.

  scripts/holdout-imdb.sh ../shared/data/aclImdb.tar.gz /tmp/imdb
  nbtext train /tmp/imdb/train.tsv --model complement -o c.nbm
  nbtext eval -m c.nbm /tmp/imdb/holdout.tsv
EOF
}

case "${1:-}" in -h | --help) usage; exit 0 ;; esac
if [[ $# -lt 2 || $# -gt 4 ]]; then
	usage >&2
	exit 2
fi
archive=$1 out=$2 pct=${3:-25} seed=${4:-1}
if ! [[ $pct =~ ^[0-9]+$ ]] || ((pct < 1 || pct > 99)); then
	echo "holdout-imdb.sh: PERCENT must be a whole number in 1..99, got '$pct'" >&2
	exit 2
fi
if ! [[ $seed =~ ^[0-9]+$ ]] || ((${#seed} > 9)); then
	echo "holdout-imdb.sh: SEED must be a whole number below 10^9, got '$seed'" >&2
	exit 2
fi
if [[ ! -f $archive ]]; then
	echo "holdout-imdb.sh: $archive: no such file" >&2
	exit 1
fi
if [[ -e $out/train.tsv || -e $out/holdout.tsv ]]; then
	echo "holdout-imdb.sh: $out/train.tsv or $out/holdout.tsv exists already; remove it first" >&2
	exit 1
fi

mkdir -p "$out"
out=$(cd "$out" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
tar -xzf "$archive" -C "$tmp" aclImdb/train/pos aclImdb/train/neg \
	aclImdb/train/urls_pos.txt aclImdb/train/urls_neg.txt
d=$tmp/aclImdb/train

# One line per review: label, id, movie (line id+1 of urls_LABEL.txt is the
# review <id>_<rating>.txt's movie page), path.
for label in pos neg; do
	(cd "$d/$label" && ls) | awk -F_ -v label="$label" -v dir="$d/$label" \
		-v urls="$d/urls_$label.txt" '
		BEGIN { while ((getline u < urls) > 0) movie[n++] = u }
		{ id = $1 + 0; if (!(id in movie)) { print "no movie for " dir "/" $0 > "/dev/stderr"; exit 1 }
		  print label "\t" id "\t" movie[id] "\t" dir "/" $0 }'
done | sort -t $'\t' -k1,1 -k2,2n >"$tmp/reviews"

# Held-out movies: every movie gets a hash of (SEED, its URL), computed in
# exact integer arithmetic (below 2^53) so any awk gives the same one; in
# hash order a movie is held out while it fits in both labels' shares.
awk -F'\t' -v seed="$seed" '
	BEGIN { for (i = 32; i < 127; i++) ord[sprintf("%c", i)] = i }
	{ n[$3, $1]++; movies[$3] = 1 }
	END {
		for (m in movies) {
			h = (seed * 7919 + 104729) % 1000000007
			for (r = 0; r < 2; r++)
				for (i = 1; i <= length(m); i++)
					h = (h * 65599 + ord[substr(m, i, 1)] + 1) % 1000000007
			printf "%d\t%s\t%d\t%d\n", h, m, n[m, "pos"], n[m, "neg"]
		}
	}' "$tmp/reviews" | sort -t $'\t' -k1,1n -k2,2 >"$tmp/movies"
awk -F'\t' -v pct="$pct" '
	{ h[NR] = $2; p[NR] = $3; q[NR] = $4; P += $3; Q += $4 }
	END {
		tp = int(P * pct / 100); tq = int(Q * pct / 100)
		for (i = 1; i <= NR; i++)
			if (hp + p[i] <= tp && hq + q[i] <= tq) { hp += p[i]; hq += q[i]; print h[i] }
	}' "$tmp/movies" >"$tmp/held"

awk -F'\t' -v held="$tmp/held" -v train="$out/train.tsv.tmp" -v hold="$out/holdout.tsv.tmp" '
	BEGIN { while ((getline m < held) > 0) isheld[m] = 1 }
	{
		text = ""
		while ((getline line < $4) > 0) { gsub(/[\t\r]/, " ", line); text = text (text == "" ? "" : " ") line }
		close($4)
		if ($3 in isheld) { print $1 "\t" text > hold; nh[$1]++ } else { print $1 "\t" text > train; nt[$1]++ }
	}
	END {
		printf "holdout-imdb.sh: %d pos + %d neg reviews in train.tsv, %d pos + %d neg in holdout.tsv\n",
			nt["pos"], nt["neg"], nh["pos"], nh["neg"] > "/dev/stderr"
	}' "$tmp/reviews"
mv "$out/train.tsv.tmp" "$out/train.tsv"
mv "$out/holdout.tsv.tmp" "$out/holdout.tsv"
