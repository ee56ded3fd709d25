#!/usr/bin/env bash
# Compares two versions of this module on the same benchmarks, run
# alternately in the same minutes, as a shared or busy machine needs:
# builds bench/'s test binary at REV (A) and from the working tree (B), runs
# them one after the other ROUNDS times, and prints each run's lines and
# the medians.
#
#   bench/ab.sh REV BENCH_REGEX [ROUNDS [BENCHTIME]]
#   bench/ab.sh 9637b17 'OneShot/impl=ours|AllowedCold/impl=ours' 5 1s
set -euo pipefail
rev=$1; re=$2; rounds=${3:-5}; bt=${4:-1s}
root="$(git -C "$(dirname "$0")" rev-parse --show-toplevel)"
work="$(mktemp -d)"
trap 'git -C "$root" worktree remove --force "$work/a" 2>/dev/null || true; rm -rf "$work"' EXIT
git -C "$root" worktree add -q --detach "$work/a" "$rev"
(cd "$work/a/bench" && go test -c -o "$work/a.test" .)
(cd "$root/bench" && go test -c -o "$work/b.test" .)
# Both binaries read the corpus from the same place.
export ROBOTSTXT_SHARED="${ROBOTSTXT_SHARED:-$root/testdata}"
cd "$root/bench"
for _ in $(seq "$rounds"); do
	"$work/a.test" -test.run '^$' -test.bench "$re" -test.benchtime "$bt" | grep ns/op | sed 's/^/A /'
	"$work/b.test" -test.run '^$' -test.bench "$re" -test.benchtime "$bt" | grep ns/op | sed 's/^/B /'
done | tee "$work/out.txt"
awk '{ k = $1 " " $2; v[k] = v[k] " " $4 } END { for (k in v) print k, v[k] }' "$work/out.txt" | sort -k2,2 -k1,1 |
while read -r ab name vals; do
	med=$(printf '%s\n' $vals | sort -g | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }')
	printf '%s %-60s median %12s ns/op  n=%d\n' "$ab" "$name" "$med" "$(printf '%s\n' $vals | wc -l)"
done
