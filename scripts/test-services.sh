#!/usr/bin/env bash
# What the tests talk to: PostgreSQL and Redis at 127.0.0.1, Debian's Chromium for the browser tests, curl and jq.
# Starts what is installed but stopped, installs what is missing (apt, as root); quick when all is up.
set -euo pipefail

# apt_install WHAT PACKAGE...: with apt, which needs root; otherwise says what to install, and fails.
apt_install() {
  local what=$1
  shift
  if [ "$(id -u)" -ne 0 ]; then
    echo "test-services: $what is missing, and installing it with apt needs root: run this as root, or install the Debian packages $* yourself" >&2
    return 1
  fi
  echo "== installing $what"
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null
}

postgres_up() { pg_isready -q -h 127.0.0.1 -p 5432 2>/dev/null; }

if ! postgres_up; then
  if ! command -v pg_ctlcluster >/dev/null 2>&1; then
    apt_install PostgreSQL postgresql
  fi
  version=$(ls /etc/postgresql | sort -n | tail -1)
  pg_ctlcluster --skip-systemctl-redirect "$version" main start || true
  for _ in $(seq 1 30); do postgres_up && break; sleep 1; done
  # A fresh install asks for passwords on TCP: give the postgres role the one the tests use.
  su postgres -c "psql -q -c \"ALTER ROLE postgres PASSWORD 'postgres'\"" || true
fi
redis_up() { redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null 2>&1; }
if ! redis_up; then
  if ! command -v redis-server >/dev/null 2>&1; then
    apt_install Redis redis-server
  fi
  redis-server --bind 127.0.0.1 --port 6379 --save "" --daemonize yes
  for _ in $(seq 1 30); do redis_up && break; sleep 1; done
fi

# The backup test dumps and restores PostgreSQL with its client tools.
if ! command -v pg_dump >/dev/null 2>&1 || ! command -v pg_restore >/dev/null 2>&1; then
  apt_install "the PostgreSQL client tools" postgresql-client
fi

# The browser test drives Debian's Chromium (playwright's own download needs the internet).
if [ ! -x /usr/bin/chromium ]; then
  apt_install Chromium chromium
fi

# The README walk-through's test runs its commands as written: curl and jq.
for tool in curl jq; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    apt_install "$tool" "$tool"
  fi
done
