#!/usr/bin/env bash
# The end-to-end tests drive Debian's Chromium (Playwright cannot download browsers here).
# Installs it when missing and we are root (CI, fresh containers); otherwise says how.
set -euo pipefail
if command -v chromium >/dev/null 2>&1 || [ -x /usr/bin/chromium ]; then
  exit 0
fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "installing Debian chromium for the end-to-end tests…" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq chromium >/dev/null
  exit 0
fi
echo "error: the end-to-end tests need Chromium at /usr/bin/chromium: run 'sudo apt-get install -y chromium'" >&2
exit 1
