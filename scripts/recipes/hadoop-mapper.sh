#!/bin/sh
# hadoop-mapper.sh HDFS_DIR [COUNT FLAGS...]
#
# A Hadoop Streaming mapper (map-only job): counts its split of the
# corpus (lines on stdin) with 'nbtext count -', puts the counts file on
# HDFS as HDFS_DIR/part-<task partition>.nbc and prints that path. An
# empty split writes nothing. $NBTEXT names the nbtext binary (default:
# ./nbtext when shipped with -files, else nbtext on PATH). See
# docs/recipes.md.
set -eu
if [ $# -lt 1 ]; then
	echo "usage: hadoop-mapper.sh HDFS_DIR [COUNT FLAGS...] < documents" >&2
	exit 2
fi
dst=$1
shift
nbtext=${NBTEXT:-nbtext}
if [ -z "${NBTEXT:-}" ] && [ -x ./nbtext ]; then
	nbtext=./nbtext
fi
first=
IFS= read -r first || [ -n "$first" ] || exit 0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
{ printf '%s\n' "$first"; cat; } | "$nbtext" count - -q "$@" -o "$tmp/part.nbc"
# Streaming passes the job's settings as environment variables, dots
# turned to underscores: mapreduce.task.partition is this map's number.
part="$dst/part-$(printf '%05d' "${mapreduce_task_partition:?not run by Hadoop Streaming}").nbc"
hdfs dfs -put -f "$tmp/part.nbc" "$part"
echo "$part"
