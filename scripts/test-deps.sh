#!/usr/bin/env bash
# Installs what `make test` needs beyond Go, or stops at once saying how.
# Go tools (staticcheck) are not installed here: the Makefile runs them with
# `go run tool@version`, pinned, so nothing else is needed for them.
set -euo pipefail

missing=()
# The Redis store's tests start a real redis-server on a loopback port.
command -v redis-server >/dev/null 2>&1 || missing+=(redis-server)
# The Redis Cluster test builds its cluster with redis-cli.
command -v redis-cli >/dev/null 2>&1 || missing+=(redis-tools)
# guard/export's TestRealTargets runs its HAProxy export in haproxy.
command -v haproxy >/dev/null 2>&1 || [ -x /usr/sbin/haproxy ] || missing+=(haproxy)
# The tester page's end-to-end tests (server/e2e_test.go) drive a headless
# Debian chromium; in CI (CI=true) they fail without it.
command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1 || missing+=(chromium)
# The bindings (make bindings, docs/bindings.md): cgo's C compiler, Debian's
# Python with cffi, pip and venv, Protego and Scrapy to compare and crawl
# with, and Node with npm (robots-parser is installed by the tests into
# js/.dev).
command -v cc >/dev/null 2>&1 || missing+=(gcc)
py=/usr/bin/python3
[ -x "$py" ] || missing+=(python3)
[ -x "$py" ] && "$py" -c 'import cffi' 2>/dev/null || missing+=(python3-cffi)
[ -x "$py" ] && "$py" -m pip --version >/dev/null 2>&1 || missing+=(python3-pip)
[ -x "$py" ] && "$py" -c 'import ensurepip' 2>/dev/null || missing+=(python3-venv)
[ -x "$py" ] && "$py" -c 'import protego' 2>/dev/null || missing+=(python3-protego)
[ -x "$py" ] && "$py" -c 'import scrapy' 2>/dev/null || missing+=(python3-scrapy)
# The guard's decision endpoint is tested behind the real front servers
# (cmd/robotstxt/guard_frontends_test.go): nginx with auth_request
# (nginx-light has it) and Caddy with forward_auth.
command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ] || missing+=(nginx-light)
command -v caddy >/dev/null 2>&1 || missing+=(caddy)
# bench/guard/wrk.sh measures the guard's proxy with wrk.
command -v wrk >/dev/null 2>&1 || missing+=(wrk)
command -v node >/dev/null 2>&1 || missing+=(nodejs)
command -v npm >/dev/null 2>&1 || missing+=(npm)

if [ ${#missing[@]} -eq 0 ]; then
	exit 0
fi
if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
	echo "make test: installing ${missing[*]} (apt-get)" >&2
	apt-get update -qq
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
	exit 0
fi
echo "make test needs ${missing[*]} (not installed). Install, then run make test again:" >&2
echo "    sudo apt-get install -y ${missing[*]}" >&2
exit 1
