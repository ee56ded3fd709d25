#!/usr/bin/env bash
# A differential run: asks this module's library and Google's C++ library
# (built here from its public sources when they are on this machine;
# nothing of it is kept in this repository) the same questions about every
# file of the real corpus, and reports every verdict or deciding line that
# differs. Exit status 1 on any disagreement.
#
#   bench/google/diff.sh [GOOGLE_ROBOTSTXT_SRC] [-per-file N]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
bench="$(dirname "$here")"
src="${1:-${GOOGLE_ROBOTSTXT_SRC:-/work/.mirror/google+robotstxt/repo}}"
shift || true
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

if [ -f "$src/robots.cc" ]; then
	cp "$src/robots.cc" "$src/robots.h" "$work/"
elif git --git-dir="$src" rev-parse HEAD >/dev/null 2>&1; then
	git --git-dir="$src" archive HEAD robots.cc robots.h | tar -x -C "$work"
else
	echo "diff.sh: Google's robots.txt sources not found at $src" >&2
	exit 1
fi
if [ ! -d /usr/include/absl ]; then
	if [ "$(id -u)" -eq 0 ]; then
		apt-get install -y -qq libabsl-dev >/dev/null
	else
		echo "diff.sh: needs libabsl-dev: sudo apt-get install -y libabsl-dev" >&2
		exit 1
	fi
fi
g++ -std=c++17 -O2 -DNDEBUG -I"$work" -o "$work/answer" "$here/answer.cc" "$work/robots.cc" \
	-labsl_strings -labsl_str_format_internal -labsl_throw_delegate -labsl_raw_logging_internal
cd "$bench"
go run ./cmd/google-diff -bin "$work/answer" "$@"
