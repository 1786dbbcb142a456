#!/usr/bin/env bash
# The PostgreSQL half of the unit tests starts a throwaway server (scripts/with-postgres.sh),
# which needs the server binaries. Installs Debian's postgresql when missing and we are root
# (CI, fresh containers); otherwise says how.
set -euo pipefail
if ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then
  exit 0
fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "installing Debian postgresql for the PostgreSQL unit tests…" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq postgresql >/dev/null
  exit 0
fi
echo "error: the PostgreSQL tests need the server binaries (initdb): run 'sudo apt-get install -y postgresql'" >&2
exit 1
