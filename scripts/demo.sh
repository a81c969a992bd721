#!/usr/bin/env bash
# The nbtext demo on the real 20 Newsgroups corpus: fetch (or reuse) the
# corpus, build its vocabulary, train every model, evaluate each on the test
# split, predict from a pipe, and draw the NB-vs-LR learning curves of the
# course material (sci.crypt vs comp.graphics). Run through `make demo`,
# which builds bin/nbtext first. Files go to ${DEMO_OUT:-demo-out}.
set -euo pipefail
cd "$(dirname "$0")/.."

NBTEXT=${NBTEXT:-bin/nbtext}
out=${DEMO_OUT:-demo-out}
mkdir -p "$out"
start=$SECONDS

echo "== 1. fetch the 20 Newsgroups corpus"
corpus=$(bash scripts/fetch-20news.sh | tail -n 1)
echo "corpus: $corpus"

echo
echo "== 2. vocabulary of the train split (scikit-learn's CountVectorizer finds 130,107 terms)"
"$NBTEXT" vocab "$corpus" --split train -o "$out/vocab.tsv"
"$NBTEXT" vocab "$corpus" --split train --top 10 --quiet

echo
echo "== 3. train every model on the train split (defaults chosen on held-out parts of it)"
for m in bernoulli multinomial complement logreg; do
	# The summary is on stdout (--quiet would empty it); a summary without
	# the two figures fails the demo (scripts/check-demo.sh checks the rest).
	"$NBTEXT" train "$corpus" --split train --model "$m" -o "$out/$m.nbm" |
		awk -v m="$m" '/^train acc/ {acc=$3} /^seconds/ {s=$2}
			END {if (acc == "" || s == "") {print "demo: no train accuracy in the summary of train --model " m > "/dev/stderr"; exit 1}
			     printf "  %-12s train accuracy %s  (%ss)\n", m, acc, s}'
done

echo
echo "== 4. evaluate on the test split (7,532 documents)"
printf "  %-12s %9s %9s %9s\n" model accuracy macro_f1 log_loss
for m in bernoulli multinomial complement logreg; do
	"$NBTEXT" eval -m "$out/$m.nbm" "$corpus" --split test --format tsv |
		awk -F'\t' -v m="$m" '$1=="accuracy"{a=$4} $1=="macro_f1"{f=$4} $1=="log_loss"{l=$4} END {printf "  %-12s %9.4f %9.4f %9.4f\n", m, a, f, l}'
done

echo
echo "== 5. predict from a pipe, with the words that decided"
printf '%s\n' \
	"How should I add PGP support to my program?" \
	"The new GPU renders textures and polygons much faster in OpenGL" \
	"The Sabres scored twice in the third period to win the game" |
	"$NBTEXT" predict -m "$out/complement.nbm" --top-k 2 --explain 3

echo
echo "== 6. learning curves: naive Bayes against logistic regression (Ng & Jordan 2002)"
"$NBTEXT" compare "$corpus" --classes sci.crypt,comp.graphics --metric errors \
	--plot "$out/curves.png" --csv "$out/curves.csv"

echo
echo "done in $((SECONDS - start))s. Files in $out/:"
echo "  vocab.tsv                 the vocabulary (settings, then term, df, cf)"
echo "  {bernoulli,multinomial,complement,logreg}.nbm   the models"
echo "  curves.png, curves.csv    the learning curves and every run behind them"
