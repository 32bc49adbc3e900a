#!/usr/bin/env bash
# The browser tests drive Debian's Chromium (downloaded browser builds fail on these machines).
# Installs it when missing and we are root; otherwise says how, and the browser tests skip
# (they fail instead when CI=true, so CI never passes without them).
set -euo pipefail
if [ -x /usr/bin/chromium ]; then exit 0; fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "Installing Debian's chromium for the browser tests..."
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
  exit 0
fi
echo "note: /usr/bin/chromium is missing; install Debian's chromium (apt-get install chromium) to run the browser tests" >&2
