#!/usr/bin/env bash
# Reproduce the tables of docs/semi-supervised.md: naive Bayes with and
# without unlabelled documents (train --unlabeled) on IMDB and 20
# Newsgroups, over several seeds of the labelled sample. Run with --help
# for usage. Exit status: 0 ok, 1 failure, 2 bad arguments.
set -euo pipefail

usage() {
	cat <<EOF
Usage: scripts/em-tables.sh [-n NBTEXT] [-d DATA] [-s SEEDS] [EXPERIMENT...]

Trains, for each seed 1..SEEDS (default 5) of the labelled sample
(train --per-class N --seed S, drawn from the train split only):
  same     multinomial NB with EM's settings (word counts, English stop
           words, alpha 0.1) on the labelled sample alone
  default  nbtext's default multinomial NB on the labelled sample alone
  em       train --unlabeled (lambda auto: cross-validated on the sample)
and prints each one's accuracy on the test split, the mean over the seeds,
and the change of the error rate of em against same. The test split is
only scored, never used for a choice.

EXPERIMENT is one or more of (default: all three)
  imdb100    IMDB, 100 labelled reviews per class of train, the 50,000
             train/unsup reviews unlabelled
  imdb1000   the same with 1,000 labelled reviews per class
  news20     20 Newsgroups, 20 labelled posts per group of train, the rest
             of the train split unlabelled (--unlabeled-rest)

  -n NBTEXT  the nbtext binary (default: nbtext on PATH)
  -d DATA    the folder of aclImdb.tar.gz and 20news-bydate.tar.gz
             (default: ../shared/data)
  -s SEEDS   seeds 1..SEEDS (default 5)

  go build -o /tmp/nbtext ./cmd/nbtext
  scripts/em-tables.sh -n /tmp/nbtext -s 5 news20
EOF
}

nb=nbtext data=../shared/data seeds=5
while getopts "n:d:s:h" opt; do
	case $opt in
	n) nb=$OPTARG ;;
	d) data=$OPTARG ;;
	s) seeds=$OPTARG ;;
	h) usage; exit 0 ;;
	*) usage >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
case "${1:-}" in --help) usage; exit 0 ;; esac
if ! [[ $seeds =~ ^[0-9]+$ ]] || ((seeds < 1 || seeds > 100)); then
	echo "em-tables.sh: SEEDS must be a whole number in 1..100, got '$seeds'" >&2
	exit 2
fi
exps=("$@")
((${#exps[@]})) || exps=(imdb100 imdb1000 news20)
for e in "${exps[@]}"; do
	case $e in imdb100 | imdb1000 | news20) ;; *)
		echo "em-tables.sh: unknown experiment '$e' (imdb100, imdb1000, news20)" >&2
		exit 2
		;;
	esac
done
if ! command -v "$nb" >/dev/null; then
	echo "em-tables.sh: $nb: no such command (give -n NBTEXT)" >&2
	exit 1
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
same=(--weighting count --sublinear-tf=false --norm none --stop-words english --alpha 0.1)

# acc MODEL CORPUS: the model's accuracy on the corpus's test split.
acc() {
	"$nb" eval -m "$1" "$2" --split test --format tsv 2>/dev/null | awk -F'\t' '$1 == "accuracy" { print $4 }'
}

for e in "${exps[@]}"; do
	case $e in
	imdb*)
		corpus=$data/aclImdb.tar.gz per=${e#imdb}
		unl=(--unlabeled "$corpus" --unlabeled-split train --unlabeled-classes unsup)
		;;
	news20)
		corpus=$data/20news-bydate.tar.gz per=20
		unl=(--unlabeled-rest)
		;;
	esac
	if [[ ! -f $corpus ]]; then
		echo "em-tables.sh: $corpus: no such file" >&2
		exit 1
	fi
	echo "## $e: $per labelled per class"
	echo
	echo "| seed | same NB | default NB | NB + EM | λ | EM iterations | error change vs same |"
	echo "|---|---|---|---|---|---|---|"
	sums="0 0 0"
	for seed in $(seq 1 "$seeds"); do
		common=("$corpus" --split train --per-class "$per" --seed "$seed" -q)
		"$nb" train "${common[@]}" "${same[@]}" -o "$tmp/same.nbm"
		"$nb" train "${common[@]}" -o "$tmp/default.nbm"
		"$nb" train "${common[@]}" "${unl[@]}" -o "$tmp/em.nbm"
		a=$(acc "$tmp/same.nbm" "$corpus")
		b=$(acc "$tmp/default.nbm" "$corpus")
		c=$(acc "$tmp/em.nbm" "$corpus")
		info=$("$nb" info "$tmp/em.nbm" --format json)
		lambda=$(jq -r '.params.em.weight' <<<"$info")
		iters=$(jq -r '.params.em.iterations' <<<"$info")
		awk -v s="$seed" -v a="$a" -v b="$b" -v c="$c" -v l="$lambda" -v i="$iters" \
			'BEGIN { printf "| %d | %.4f | %.4f | %.4f | %s | %s | %+.1f%% |\n", s, a, b, c, l, i, 100 * ((1 - c) / (1 - a) - 1) }'
		sums=$(awk -v t="$sums" -v a="$a" -v b="$b" -v c="$c" 'BEGIN { split(t, x, " "); print x[1] + a, x[2] + b, x[3] + c }')
	done
	awk -v t="$sums" -v n="$seeds" 'BEGIN { split(t, x, " "); a = x[1] / n; b = x[2] / n; c = x[3] / n
		printf "| mean | %.4f | %.4f | %.4f | | | %+.1f%% |\n\n", a, b, c, 100 * ((1 - c) / (1 - a) - 1) }'
done
