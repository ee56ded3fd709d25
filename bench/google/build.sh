#!/usr/bin/env bash
# Builds one of this folder's drivers (oneshot.cc, answer.cc) against Google's
# robots.txt library, compiled from its public sources on this machine
# (github.com/google/robotstxt; nothing of it is kept in this repository).
#
#   build.sh DRIVER.cc OUTPUT [GOOGLE_ROBOTSTXT_SRC]
#
# The sources are taken from the third argument, $GOOGLE_ROBOTSTXT_SRC, or
# the stored mirror /work/.mirror/google+robotstxt/repo (a bare git
# directory). Needs g++ and Debian's libabsl-dev (installed when missing and
# root).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
driver="$1" out="$2"
src="${3:-${GOOGLE_ROBOTSTXT_SRC:-/work/.mirror/google+robotstxt/repo}}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

if [ -f "$src/robots.cc" ]; then
	cp "$src/robots.cc" "$src/robots.h" "$work/"
elif git --git-dir="$src" rev-parse HEAD >/dev/null 2>&1; then
	git --git-dir="$src" archive HEAD robots.cc robots.h | tar -x -C "$work"
else
	echo "build.sh: Google's robots.txt sources not found at $src" >&2
	exit 1
fi
if [ ! -d /usr/include/absl ]; then
	if [ "$(id -u)" -eq 0 ]; then
		apt-get install -y -qq libabsl-dev >/dev/null
	else
		echo "build.sh: needs libabsl-dev: sudo apt-get install -y libabsl-dev" >&2
		exit 1
	fi
fi
g++ -std=c++17 -O2 -DNDEBUG -I"$work" -o "$out" "$here/$driver" "$work/robots.cc" \
	-labsl_strings -labsl_str_format_internal -labsl_throw_delegate -labsl_raw_logging_internal
