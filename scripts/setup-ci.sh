#!/usr/bin/env bash
# What the test suite needs beyond Python packages: Debian's Chromium for the browser test.
# Installs it only when it is missing and we may (root, apt-get present); otherwise says why
# the browser test will be skipped. Safe to run again.
set -euo pipefail
if [ -x /usr/bin/chromium ]; then
    exit 0
fi
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq && apt-get install -y -qq chromium >/dev/null
else
    echo "setup-ci: Chromium is missing and cannot be installed here; the browser test will be skipped" >&2
fi
