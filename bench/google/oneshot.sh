#!/usr/bin/env bash
# Times Google's C++ robots.txt library and this module's library side by
# side on the same one-shot work (parse a file, ask it one question), over
# the benchmark's 1,000 corpus files. Google's library is built here from its
# public sources (github.com/google/robotstxt) when they are on this machine;
# nothing of it is kept in this repository.
#
#   bench/google/oneshot.sh [GOOGLE_ROBOTSTXT_SRC]
#
# The sources are taken from the argument, $GOOGLE_ROBOTSTXT_SRC, or the
# stored mirror /work/.mirror/google+robotstxt/repo (a bare git directory).
# Needs g++ and Debian's libabsl-dev (installed when missing and root).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
bench="$(dirname "$here")"
src="${1:-${GOOGLE_ROBOTSTXT_SRC:-/work/.mirror/google+robotstxt/repo}}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

if [ -f "$src/robots.cc" ]; then
	cp "$src/robots.cc" "$src/robots.h" "$work/"
elif git --git-dir="$src" rev-parse HEAD >/dev/null 2>&1; then
	git --git-dir="$src" archive HEAD robots.cc robots.h | tar -x -C "$work"
else
	echo "oneshot.sh: Google's robots.txt sources not found at $src" >&2
	exit 1
fi
if [ ! -d /usr/include/absl ]; then
	if [ "$(id -u)" -eq 0 ]; then
		apt-get install -y -qq libabsl-dev >/dev/null
	else
		echo "oneshot.sh: needs libabsl-dev: sudo apt-get install -y libabsl-dev" >&2
		exit 1
	fi
fi
g++ -std=c++17 -O2 -DNDEBUG -I"$work" -o "$work/oneshot" "$here/oneshot.cc" "$work/robots.cc" \
	-labsl_strings -labsl_str_format_internal -labsl_throw_delegate -labsl_raw_logging_internal

(cd "$bench" && go run ./cmd/oneshot-list) > "$work/list.tsv"
echo "$(wc -l < "$work/list.tsv") questions; $(date -u +%Y-%m-%dT%H:%MZ); $(nproc) cores"
"$work/oneshot" 21 < "$work/list.tsv"
cd "$bench"
go test -run '^$' -bench 'BenchmarkOneShot$' -benchmem -count 5 | grep -E 'ns/file|^ok'
