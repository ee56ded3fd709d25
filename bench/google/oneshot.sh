#!/usr/bin/env bash
# Times Google's C++ robots.txt library and this module's library side by
# side on the same one-shot work (parse a file, ask it one question), over
# the benchmark's 1,000 corpus files. Google's library is built by build.sh
# from its public sources when they are on this machine.
#
#   bench/google/oneshot.sh [GOOGLE_ROBOTSTXT_SRC]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
bench="$(dirname "$here")"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
"$here/build.sh" oneshot.cc "$work/oneshot" "$@"
(cd "$bench" && go run ./cmd/oneshot-list) > "$work/list.tsv"
echo "$(wc -l < "$work/list.tsv") questions; $(date -u +%Y-%m-%dT%H:%MZ); $(nproc) cores"
"$work/oneshot" 21 < "$work/list.tsv"
cd "$bench"
go test -c -o "$work/bench.test" .
# Google's program runs on one core; so does ours with GOMAXPROCS=1 (its
# collector then takes its time from the same core). Then the default.
echo "GOMAXPROCS=1:"
GOMAXPROCS=1 "$work/bench.test" -test.run '^$' -test.bench 'BenchmarkOneShot$/impl=ours' -test.benchmem -test.count 5 | grep -E 'ns/file'
"$work/oneshot" 21 < "$work/list.tsv"
echo "GOMAXPROCS=$(nproc):"
"$work/bench.test" -test.run '^$' -test.bench 'BenchmarkOneShot$' -test.benchmem -test.count 5 | grep -E 'ns/file'
