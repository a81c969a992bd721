#!/bin/sh
# count-shard.sh CORPUS N OUTDIR [COUNT FLAGS...]
#
# Reads shard numbers (1..N), one a line, on stdin, counts each shard i/N
# of CORPUS with 'nbtext count --shard i/N' into OUTDIR/part-i.nbc, and
# prints the path of each counts file written. Spark's rdd.pipe runs it
# once per partition of the shard numbers (docs/recipes.md); $NBTEXT names
# the nbtext binary (default: nbtext on PATH).
set -eu
if [ $# -lt 3 ]; then
	echo "usage: count-shard.sh CORPUS N OUTDIR [COUNT FLAGS...] < shard numbers" >&2
	exit 2
fi
corpus=$1 n=$2 out=$3
shift 3
while IFS= read -r i || [ -n "$i" ]; do
	[ -n "$i" ] || continue
	"${NBTEXT:-nbtext}" count "$corpus" --shard "$i/$n" -q "$@" -o "$out/part-$i.nbc"
	echo "$out/part-$i.nbc"
done
