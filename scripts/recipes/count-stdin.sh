#!/bin/sh
# count-stdin.sh OUTDIR [COUNT FLAGS...]
#
# Counts the documents on stdin (one share of a corpus: a Spark partition
# of its lines, a Hadoop Streaming map split) with 'nbtext count -' into a
# new counts file OUTDIR/part-XXXXXXXXXX.nbc, and prints its path. An
# empty share (Spark runs the command for empty partitions too) writes
# and prints nothing. $NBTEXT names the nbtext binary (default: nbtext on
# PATH). See docs/recipes.md.
set -eu
if [ $# -lt 1 ]; then
	echo "usage: count-stdin.sh OUTDIR [COUNT FLAGS...] < documents" >&2
	exit 2
fi
out=$1
shift
first=
IFS= read -r first || [ -n "$first" ] || exit 0
name=$(mktemp "$out/part-XXXXXXXXXX")
{ printf '%s\n' "$first"; cat; } | "${NBTEXT:-nbtext}" count - -q "$@" -o "$name.nbc"
rm -f "$name"
echo "$name.nbc"
