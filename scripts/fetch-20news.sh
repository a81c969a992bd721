#!/usr/bin/env bash
# Fetch the 20 Newsgroups "bydate" corpus into nbtext's cache, once.
# Run with --help for usage. Exit status: 0 ok, 1 failure, 2 bad arguments.
# Messages go to stderr; the last line on stdout is
# the path of the corpus, so `corpus=$(scripts/fetch-20news.sh | tail -n 1)`
# works.
set -euo pipefail

URL=http://qwone.com/~jason/20Newsgroups/20news-bydate.tar.gz
SHA256=8f1b2514ca22a5ade8fbb9cfa5727df95fa587f4c87b786e15c759fa66d95610
NAME=20news-bydate.tar.gz
GROUPS_WANT=20
TRAIN_WANT=11314
TEST_WANT=7532

usage() {
	cat <<EOF
Usage: scripts/fetch-20news.sh [--from PATH|URL]

Puts the 20 Newsgroups "bydate" archive at
  \${NBTEXT_DATA_DIR:-\${XDG_CACHE_HOME:-\$HOME/.cache}/nbtext}/$NAME
(now: $(target_path)) and prints that path as the last line.
Does nothing when a verified copy is already there.

Sources, first that applies:
  --from PATH|URL            a local copy, or a mirror to download
  NBTEXT_20NEWS_TARBALL=PATH a local copy
  $URL (the canonical archive)

The canonical archive is checked against its SHA-256 ($SHA256).
A local copy or mirror with another checksum (a rebuilt archive) is accepted
when its layout is right: $GROUPS_WANT groups, $TRAIN_WANT train and $TEST_WANT test documents
under *-train/<group>/ and *-test/<group>/.

Downloads give up after 5 s without a connection. Without a network, point
NBTEXT_20NEWS_TARBALL or --from at a copy of $NAME.

Exit status: 0 ok, 1 failure, 2 bad arguments.
EOF
}

say() { printf 'fetch-20news: %s\n' "$*" >&2; }
die() {
	say "$*"
	exit 1
}
usage_error() {
	say "$* (see --help)"
	exit 2
}

target_path() {
	local dir=${NBTEXT_DATA_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/nbtext}
	printf '%s/%s\n' "$dir" "$NAME"
}

sha256_of() {
	if command -v sha256sum >/dev/null; then
		sha256sum "$1" | cut -d' ' -f1
	else
		shasum -a 256 "$1" | cut -d' ' -f1
	fi
}

# layout_ok FILE: the archive holds the bydate layout with the known counts.
# Prints what it found on failure.
layout_ok() {
	local counts
	counts=$(tar -tzf "$1" 2>/dev/null | awk -F/ '
		{ sub(/^\.\//, "") }
		NF == 3 && $3 != "" {
			if ($1 ~ /(^|-)train$/) { train++; tg[$2] = 1 }
			else if ($1 ~ /(^|-)test$/) { test++; sg[$2] = 1 }
		}
		END {
			for (g in tg) ntg++
			for (g in sg) nsg++
			printf "%d %d %d %d\n", ntg, nsg, train, test
		}') || true
	read -r ntg nsg ntrain ntest <<<"${counts:-0 0 0 0}"
	if [[ $ntg == "$GROUPS_WANT" && $nsg == "$GROUPS_WANT" && $ntrain == "$TRAIN_WANT" && $ntest == "$TEST_WANT" ]]; then
		return 0
	fi
	say "$1: not the bydate corpus: found $ntg train and $nsg test groups, $ntrain train and $ntest test documents (want $GROUPS_WANT, $GROUPS_WANT, $TRAIN_WANT, $TEST_WANT)"
	return 1
}

# verify FILE: the canonical checksum, else the layout.
verify() {
	[[ -f $1 ]] || return 1
	if [[ $(sha256_of "$1") == "$SHA256" ]]; then
		return 0
	fi
	layout_ok "$1"
}

# download URL FILE
download() {
	if command -v curl >/dev/null; then
		curl --fail --location --silent --show-error \
			--connect-timeout 5 --max-time 600 --output "$2" "$1"
	elif command -v wget >/dev/null; then
		wget --quiet --connect-timeout=5 --dns-timeout=5 --read-timeout=60 --tries=1 -O "$2" "$1"
	else
		say "neither curl nor wget is installed"
		return 1
	fi
}

from=${NBTEXT_20NEWS_TARBALL:-}
from_flag=false
while (($# > 0)); do
	case $1 in
	-h | --help)
		usage
		exit 0
		;;
	--from)
		(($# >= 2)) || usage_error "--from needs a PATH or URL"
		from=$2
		from_flag=true
		shift 2
		;;
	--from=*)
		from=${1#--from=}
		from_flag=true
		shift
		;;
	*) usage_error "unknown argument: $1" ;;
	esac
done

target=$(target_path)
dir=$(dirname "$target")

if [[ -e $target ]]; then
	if verify "$target"; then
		say "corpus already in place"
		printf '%s\n' "$target"
		exit 0
	fi
	say "$target is not a good copy: fetching it again"
fi

mkdir -p "$dir" || die "cannot create $dir"
tmp=$(mktemp "$dir/.$NAME.XXXXXX") || die "cannot write in $dir"
trap 'rm -f "$tmp"' EXIT

hint="set NBTEXT_20NEWS_TARBALL=/path/to/$NAME or pass --from PATH|URL"
if [[ -z $from ]]; then
	say "downloading $URL"
	download "$URL" "$tmp" || die "cannot download $URL (offline?): $hint"
	got=$(sha256_of "$tmp")
	[[ $got == "$SHA256" ]] || die "$URL: sha256 $got, want $SHA256: the download is damaged or not the canonical archive"
elif [[ $from =~ ^(https?|ftp):// ]]; then
	say "downloading $from"
	download "$from" "$tmp" || die "cannot download $from: $hint"
	if [[ $(sha256_of "$tmp") != "$SHA256" ]]; then
		say "$from: checksum differs from the canonical archive: checking the layout"
		layout_ok "$tmp" || die "$from is not the 20 Newsgroups bydate corpus"
	fi
else
	src=NBTEXT_20NEWS_TARBALL
	$from_flag && src=--from
	[[ -e $from ]] || die "$src=$from: no such file"
	[[ -f $from ]] || die "$src=$from: not a file"
	if [[ $from -ef $target ]]; then
		verify "$target" || die "$from is not the 20 Newsgroups bydate corpus"
		printf '%s\n' "$target"
		exit 0
	fi
	verify "$from" || die "$from is not the 20 Newsgroups bydate corpus"
	say "copying $from"
	cp "$from" "$tmp" || die "cannot copy $from to $dir"
fi

chmod 0644 "$tmp"
mv -f "$tmp" "$target" || die "cannot move the archive to $target"
trap - EXIT
say "corpus ready"
printf '%s\n' "$target"
