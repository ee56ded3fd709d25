#!/usr/bin/env bash
# A differential run: asks this module's library and Google's C++ library
# (built by build.sh from its public sources when they are on this machine)
# the same questions about every file of the real corpus, and reports every
# verdict or deciding line that differs. Exit status 1 on any disagreement.
#
#   bench/google/diff.sh [GOOGLE_ROBOTSTXT_SRC] [-per-file N] [-generated N]
#
# -generated N asks about N generated files of large rule sets too
# (internal/rulegen: the shapes the real corpus does not reach); with
# -corpus=false, about those alone.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
bench="$(dirname "$here")"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
src=()
if [ $# -gt 0 ] && [ "${1#-}" = "$1" ]; then
	src=("$1")
	shift
fi
"$here/build.sh" answer.cc "$work/answer" "${src[@]}"
cd "$bench"
go run ./cmd/google-diff -bin "$work/answer" "$@"
