#!/usr/bin/env bash
# Runs, on one machine, the recipes of docs/recipes.md that run here, on a
# generated corpus, and checks that each gives the bytes of one
# 'nbtext count' of the same inputs (or, where each process reads its
# share on stdin, the same statistics, and the same model bytes):
#   xargs -P, both rounds of tf-idf, train --from-counts --expect-shards;
#   GNU parallel (skipped, saying so, when it is not installed);
#   a Slurm array's task script, run once per array index;
#   a Kubernetes Indexed Job's container command, once per completion index;
#   Spark's rdd.pipe as plain processes: one process per partition,
#     given its shard numbers (count-shard.sh) or its lines (count-stdin.sh);
#   a Hadoop Streaming map-only job as plain processes (hadoop-mapper.sh,
#     with a stand-in for 'hdfs dfs -put').
# Usage: scripts/recipes-test.sh (nbtext on PATH, or NBTEXT=path/to/nbtext).
# cmd/nbtext's TestRecipes runs it under 'make test'.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
recipes=$here/recipes
NBTEXT=${NBTEXT:-$(command -v nbtext || true)}
if [ -z "$NBTEXT" ]; then
	echo "recipes-test: no nbtext on PATH and NBTEXT unset" >&2
	exit 2
fi
case $NBTEXT in
/*) ;;
*/*) NBTEXT=$PWD/$NBTEXT ;; # the script works in a scratch folder
esac
export NBTEXT
nbtext() { "$NBTEXT" "$@"; }
export -f nbtext
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
fail() {
	echo "recipes-test: FAIL: $*" >&2
	exit 1
}
same() { # same WHAT A B: the files are the same bytes
	cmp -s "$2" "$3" || fail "$1: $3 differs from $2"
	echo "ok    $1"
}

# A corpus of 600 documents of 4 classes: words shared by all, and
# words of each class.
awk 'BEGIN {
	srand(7)
	for (d = 0; d < 600; d++) {
		c = d % 4
		line = "c" c "\t"
		for (w = 0; w < 30; w++) {
			if (rand() < 0.2) line = line " k" c "_" int(rand() * 30)
			else line = line " w" int(rand() * rand() * 2000)
		}
		print line
	}
}' >corpus.tsv
N=3

# The references: one count of everything (round one and two of tf-idf,
# and Bernoulli NB's one round).
nbtext count corpus.tsv -q -o ref-r1.nbc 2>/dev/null
nbtext count corpus.tsv --vocab ref-r1.nbc -q -o ref-r2.nbc
nbtext count corpus.tsv --model bernoulli -q -o ref-bern.nbc
nbtext train --from-counts ref-bern.nbc --model bernoulli --temperature 1 -q -o ref-bern.nbm

# xargs, as in the README: both rounds, then the model.
seq $N | xargs -P 2 -I{} "$NBTEXT" count corpus.tsv --shard {}/$N -q -o r1-{}.nbc 2>/dev/null
nbtext merge -q --expect-shards $N r1-*.nbc -o round1.nbc
seq $N | xargs -P 2 -I{} "$NBTEXT" count corpus.tsv --shard {}/$N --vocab round1.nbc -q -o r2-{}.nbc
nbtext merge -q --expect-shards $N r2-*.nbc -o round2.nbc
nbtext train --from-counts round2.nbc --expect-shards $N -q -o news.nbm
same "xargs round one" ref-r1.nbc round1.nbc
same "xargs round two" ref-r2.nbc round2.nbc
# Merging again with the earlier output among the parts is refused.
if nbtext merge -q r1-*.nbc round1.nbc -o again.nbc 2>err; then
	fail "merge over its own output was accepted"
fi
grep -q "both count shard" err || fail "merge over its own output: $(cat err)"
echo "ok    merge r1-*.nbc round1.nbc refused: $(head -c 100 err)..."
# A missing shard is named.
if nbtext merge -q --expect-shards $N r1-1.nbc r1-3.nbc -o x.nbc 2>err; then
	fail "a merge missing shard 2 passed --expect-shards"
fi
grep -q "missing shard 2/$N" err || fail "missing shard: $(cat err)"
echo "ok    a missing shard is named"

# GNU parallel.
if command -v parallel >/dev/null && parallel --version 2>/dev/null | grep -q "GNU parallel"; then
	mkdir par
	parallel -j 2 "$NBTEXT" count corpus.tsv --model bernoulli --shard {}/$N -q -o par/p{}.nbc ::: $(seq $N)
	nbtext merge -q --expect-shards $N par/p*.nbc -o par.nbc
	same "GNU parallel" ref-bern.nbc par.nbc
else
	echo "skip  GNU parallel: not installed here (the xargs recipe above is the same commands)"
fi

# A Slurm array: the task script, once per index, as sbatch
# --array=0-(N-1) would run it (0-based, to check the shift to 1..N).
mkdir slurm
for i in $(seq $N); do
	SLURM_ARRAY_TASK_ID=$((i - 1)) SLURM_ARRAY_TASK_MIN=0 SLURM_ARRAY_TASK_COUNT=$N SLURM_CPUS_PER_TASK=1 \
		bash "$recipes/slurm-count.sbatch" corpus.tsv slurm --model bernoulli
done
nbtext merge -q --expect-shards $N slurm/part-*.nbc -o slurm.nbc
same "Slurm array (0-$((N - 1)))" ref-bern.nbc slurm.nbc

# A Kubernetes Indexed Job: the container's command from the manifest,
# once per completion index, with /data here.
cmd=$(sed -n 's/^ *- \(exec nbtext count .*\)$/\1/p' "$recipes/k8s-count-job.yaml")
[ -n "$cmd" ] || fail "no container command in k8s-count-job.yaml"
completions=$(sed -n 's/^ *completions: *\([0-9]*\)$/\1/p' "$recipes/k8s-count-job.yaml")
mkdir -p data/counts
cp corpus.tsv data/corpus.tsv
cmd=${cmd//\/data/$work/data}
cmd=${cmd/exec nbtext/exec \"\$NBTEXT\"}
for ((k = 0; k < completions; k++)); do
	JOB_COMPLETION_INDEX=$k sh -c "$cmd" 2>/dev/null
done
nbtext merge -q --expect-shards "$completions" data/counts/part-*.nbc -o k8s.nbc
(cd "$work" && nbtext count "$work/data/corpus.tsv" -q -o k8s-ref.nbc 2>/dev/null)
same "Kubernetes Indexed Job ($completions completions)" k8s-ref.nbc k8s.nbc

# Spark's rdd.pipe, by --shard: sc.parallelize(1..N, P).pipe(count-shard.sh)
# runs one process per partition, the partition's elements on its stdin,
# and collects their stdout lines: here 2 partitions, as processes.
mkdir spark
{ printf '1\n2\n' | sh "$recipes/count-shard.sh" corpus.tsv $N spark --model bernoulli >spark/out1 &
  printf '3\n' | sh "$recipes/count-shard.sh" corpus.tsv $N spark --model bernoulli >spark/out2 &
  wait; }
[ "$(cat spark/out1 spark/out2 | wc -l)" -eq $N ] || fail "count-shard.sh printed $(cat spark/out*)"
nbtext merge -q --expect-shards $N $(cat spark/out1 spark/out2) -o spark.nbc
same "Spark-like pipe by --shard" ref-bern.nbc spark.nbc

# Spark's rdd.pipe over the corpus's lines: sc.textFile(corpus, P) gives
# each partition a contiguous range of lines, piped to count-stdin.sh; an
# empty partition writes nothing. The counts are those of one count, their
# inputs the shares ("-"): the model is the same bytes.
mkdir stdin
split -n l/2 -d corpus.tsv share-
shares=(share-*)
: >share-empty
pids=()
for f in "${shares[@]}" share-empty; do
	sh "$recipes/count-stdin.sh" stdin --model bernoulli <"$f" >"$f.out" &
	pids+=($!)
done
for p in "${pids[@]}"; do wait "$p"; done
[ ! -s share-empty.out ] || fail "an empty partition wrote $(cat share-empty.out)"
nbtext merge -q $(cat share-*.out) -o stdin.nbc
nbtext train --from-counts stdin.nbc --model bernoulli --temperature 1 -q -o stdin.nbm
same "Spark-like pipe over lines (model)" ref-bern.nbm stdin.nbm
nbtext info stdin.nbc | grep -q "inputs     2 (2 whole" || fail "stdin shares: $(nbtext info stdin.nbc)"
# A share counted twice (a retried task whose first output was kept) is
# refused: the same documents are the same input, whatever the file name.
cp "$(head -n1 share-00.out)" stdin/retry.nbc
if nbtext merge -q $(cat share-*.out) stdin/retry.nbc -o twice.nbc 2>err; then
	fail "a share counted twice was accepted"
fi
grep -q "both count all of -" err || fail "share twice: $(cat err)"
echo "ok    a share counted twice is refused"

# A Hadoop Streaming map-only job: each map task runs hadoop-mapper.sh
# over its split, with the job's settings in its environment
# (mapreduce_task_partition); 'hdfs dfs -put -f' is stood in for by cp.
mkdir -p hadoop/bin hadoop/hdfs
cat >hadoop/bin/hdfs <<'STUB'
#!/bin/sh
# stand-in for 'hdfs dfs -put -f SRC DST': copies to the local "HDFS"
[ "$1 $2 $3" = "dfs -put -f" ] || { echo "hdfs stub: $*" >&2; exit 2; }
cp "$4" "$5"
STUB
chmod +x hadoop/bin/hdfs
k=0
for f in "${shares[@]}"; do
	(cd hadoop && PATH="$work/hadoop/bin:$PATH" mapreduce_task_partition=$k \
		sh "$recipes/hadoop-mapper.sh" "$work/hadoop/hdfs" --model bernoulli <"../$f" >>out)
	k=$((k + 1))
done
nbtext merge -q hadoop/hdfs/part-*.nbc -o hadoop.nbc
nbtext train --from-counts hadoop.nbc --model bernoulli --temperature 1 -q -o hadoop.nbm
same "Hadoop-Streaming-like map-only job (model)" ref-bern.nbm hadoop.nbm
echo "recipes-test: all passed"
