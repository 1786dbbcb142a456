#!/usr/bin/env bash
# Run a command against a throwaway PostgreSQL server:
#
#   scripts/with-postgres.sh npm run test:unit:pg
#
# initdb in a temp folder, a free loopback port, the unix socket inside that folder, trust auth
# for local connections only; REFINERY_TEST_PG_URL (and PGHOST/PGPORT/PGUSER) point at it while
# the command runs, and the server and its files are gone afterwards, whatever the command did.
# PostgreSQL refuses to run as root, so as root the server runs as the `postgres` system user
# (created by Debian's postgresql package; scripts/ensure-postgres.sh installs it in CI).
set -euo pipefail

if [ "$#" -eq 0 ]; then
  echo "usage: $0 command [args...]" >&2
  exit 2
fi

bindir="${PG_BINDIR:-}"
if [ -z "$bindir" ]; then
  if command -v pg_config >/dev/null 2>&1 && [ -x "$(pg_config --bindir)/initdb" ]; then
    bindir="$(pg_config --bindir)"
  else
    bindir="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)"
  fi
fi
if [ -z "$bindir" ] || [ ! -x "$bindir/initdb" ]; then
  echo "error: PostgreSQL server binaries not found (set PG_BINDIR, or run scripts/ensure-postgres.sh as root)" >&2
  exit 1
fi

as_server_user=()
if [ "$(id -u)" = "0" ]; then
  if ! id postgres >/dev/null 2>&1; then
    echo "error: running as root and there is no 'postgres' user to run the server as" >&2
    exit 1
  fi
  as_server_user=(runuser -u postgres --)
fi

dir="$(mktemp -d "${TMPDIR:-/tmp}/refinery-pg.XXXXXX")"
chmod 755 "$dir"
[ "${#as_server_user[@]}" -gt 0 ] && chown postgres "$dir"

# A free port: ask the kernel for one, then hand it to the server (a tiny race, retried below).
free_port() { node -e 'const s=require("net").createServer();s.listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})'; }

started=0
cleanup() {
  local rc=$?
  if [ "$started" = "1" ]; then
    "${as_server_user[@]}" "$bindir/pg_ctl" -D "$dir/data" -m immediate -w stop >/dev/null 2>&1 || true
  fi
  rm -rf "$dir"
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

"${as_server_user[@]}" "$bindir/initdb" -D "$dir/data" -U postgres --auth=trust -E UTF8 --no-locale >"$dir/initdb.log" 2>&1 || {
  cat "$dir/initdb.log" >&2
  exit 1
}

for attempt in 1 2 3; do
  port="$(free_port)"
  # fsync off: a throwaway server for tests; nothing here must survive a power cut.
  if "${as_server_user[@]}" "$bindir/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 30 \
    -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200" \
    start >/dev/null; then
    started=1
    break
  fi
  echo "PostgreSQL did not start on port $port (attempt $attempt):" >&2
  tail -n 5 "$dir/server.log" >&2 || true
done
[ "$started" = "1" ] || exit 1

export REFINERY_TEST_PG_URL="postgresql://postgres@127.0.0.1:$port/postgres"
export PGHOST=127.0.0.1 PGPORT="$port" PGUSER=postgres
echo "PostgreSQL $("$bindir/postgres" --version | awk '{print $3}') on 127.0.0.1:$port (temporary, in $dir)" >&2
"$@"
