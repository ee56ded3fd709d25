#!/bin/sh
# bench/bulk.sh: robotstxt bulk over 1,000,000 URLs on 10,000 origins served
# by a local fake web (bench/fakeweb, an HTTP proxy that answers for every
# host), cold (empty cache) and warm. Prints wall time, URLs/s and peak RSS.
#
# With --hostile, robotstxt bulk over ORIGINS (default 500) hostile origins
# instead, four 1 KiB URLs each: every origin serves a ~500 KiB file of
# wildcard rules (internal/hostile's shapes), from a local proxy that the
# command package's tests serve (TestBulkHostileWebServe). Prints wall time
# and peak RSS (the target: under 600 MB), one cold run on a bbolt file
# (STORE=memory: on the memory store, which itself keeps up to 256 MiB).
#
# Usage: sh bench/bulk.sh [URLS] [ORIGINS]   (from the repository root)
#        sh bench/bulk.sh --hostile [ORIGINS]
# ROBOTSTXT=path measures that binary instead of building ./cmd/robotstxt.
set -eu
dir=$(mktemp -d)
web=
trap '[ -n "$web" ] && kill $web 2>/dev/null; [ -n "$web" ] && wait $web 2>/dev/null; rm -rf "$dir"' EXIT
if [ -n "${ROBOTSTXT:-}" ]; then
  cp "$ROBOTSTXT" "$dir/robotstxt"
else
  go build -o "$dir/robotstxt" ./cmd/robotstxt
fi

if [ "${1:-}" = "--hostile" ]; then
  ORIGINS=${2:-500}
  go test -c -o "$dir/cmdtest" ./cmd/robotstxt
  ROBOTSTXT_HOSTILE_WEB="$dir/addr" ROBOTSTXT_HOSTILE_ORIGINS="$ORIGINS" \
    "$dir/cmdtest" -test.run '^TestBulkHostileWebServe$' > /dev/null 2>&1 &
  web=$!
  while [ ! -s "$dir/addr" ]; do
    kill -0 $web 2>/dev/null || { echo "the hostile web did not start"; exit 1; }
    sleep 0.05
  done
  export HTTP_PROXY="http://$(cat "$dir/addr")" NO_PROXY=
  echo "input: $(wc -l < "$dir/addr.urls") URLs over $ORIGINS hostile origins; hostile web at $HTTP_PROXY"
  /usr/bin/time -v "$dir/robotstxt" bulk --quiet --store "${STORE:-$dir/cache.db}" -c Googlebot -a FooBot \
      --summary "$dir/sum.json" "$dir/addr.urls" > "$dir/out.jsonl" 2> "$dir/time.txt" || { cat "$dir/time.txt"; exit 1; }
  wall=$(sed -n 's/.*Elapsed (wall clock) time (h:mm:ss or m:ss): //p' "$dir/time.txt")
  rss=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$dir/time.txt")
  fetches=$(sed -n '/"fetches"/,/}/s/.*"made": \([0-9]*\).*/\1/p' "$dir/sum.json")
  echo "hostile: wall $wall, peak RSS $((rss / 1024)) MB, $fetches fetches, $(wc -l < "$dir/out.jsonl") results"
  exit 0
fi

URLS=${1:-1000000}
ORIGINS=${2:-10000}
(cd bench && go build -o "$dir/fakeweb" ./fakeweb)
"$dir/fakeweb" > "$dir/addr" 2>/dev/null &
web=$!
while [ ! -s "$dir/addr" ]; do sleep 0.05; done
export HTTP_PROXY="http://$(cat "$dir/addr")" NO_PROXY=
awk -v n="$URLS" -v o="$ORIGINS" 'BEGIN { srand(1); p[0]="/"; p[1]="/private/a"; p[2]="/private/ok/b"; p[3]="/tmp/x.php"; p[4]="/blog/post?id=";
  for (i = 0; i < n; i++) printf "http://s%d.test%s%d\n", int(rand()*o), p[i%5], i }' > "$dir/urls.txt"
echo "input: $URLS URLs over $ORIGINS origins; fake web at $HTTP_PROXY"
for run in cold warm; do
  /usr/bin/time -v "$dir/robotstxt" bulk --quiet --store "$dir/cache.db" --concurrency 256 --per-host 2 \
      --summary "$dir/$run.json" "$dir/urls.txt" > "$dir/out.jsonl" 2> "$dir/time.txt" || { cat "$dir/time.txt"; exit 1; }
  wall=$(sed -n 's/.*Elapsed (wall clock) time (h:mm:ss or m:ss): //p' "$dir/time.txt")
  rss=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$dir/time.txt")
  rate=$(sed -n 's/.*"urls_per_second": \([0-9]*\).*/\1/p' "$dir/$run.json")
  fetches=$(sed -n '/"fetches"/,/}/s/.*"made": \([0-9]*\).*/\1/p' "$dir/$run.json")
  echo "$run: wall $wall, $rate URLs/s, peak RSS $((rss / 1024)) MB, $fetches fetches, $(wc -l < "$dir/out.jsonl") results"
done
