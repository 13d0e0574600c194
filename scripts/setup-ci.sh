#!/usr/bin/env bash
# What the test suite needs beyond Python packages: Debian's Chromium (the browser test) and
# the cairo library (PNG pictures through cairosvg). Installs what is missing when it may
# (root, apt-get present); otherwise says which tests will be skipped. Safe to run again.
set -euo pipefail
missing=()
[ -x /usr/bin/chromium ] || missing+=(chromium)
ldconfig -p 2>/dev/null | grep -q 'libcairo\.so\.2' || missing+=(libcairo2)
[ ${#missing[@]} -eq 0 ] && exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq && apt-get install -y -qq "${missing[@]}" >/dev/null
else
    echo "setup-ci: ${missing[*]} missing and not installable here; the tests that need them will be skipped" >&2
fi
