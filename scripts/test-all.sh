#!/usr/bin/env bash
# The whole check: the services the tests use (scripts/test-services.sh: PostgreSQL, Redis, Chromium, curl and
# jq, installed with apt when missing, which needs root), types, lint, then the test suite on the embedded
# database and on PostgreSQL. Every step runs even when an earlier one failed, so that a failure on SQLite
# never hides how PostgreSQL fares; a summary line per step comes last, and the exit code is 1 when any failed.
# PostgreSQL is found at TEST_POSTGRES_URL (default postgresql://postgres:postgres@127.0.0.1:5432/postgres).
set -uo pipefail
cd "$(dirname "$0")/.."

export TEST_POSTGRES_URL="${TEST_POSTGRES_URL:-postgresql://postgres:postgres@127.0.0.1:5432/postgres}"
log=$(mktemp)
trap 'rm -f "$log"' EXIT
summary=()
failed=0

# step NAME COMMAND...: runs it with its output shown, and notes how it ended (with vitest's count of tests).
step() {
  local name=$1 started=$SECONDS status counts
  shift
  echo "== $name"
  "$@" 2>&1 | tee "$log"
  status=${PIPESTATUS[0]}
  counts=$(sed 's/\x1b\[[0-9;]*m//g' "$log" | grep -E '^ *Tests +[0-9]' | tail -1 | sed -E 's/^ *Tests +//')
  if [ "$status" -eq 0 ]; then
    summary+=("ok      $name ($((SECONDS - started))s)${counts:+: $counts}")
  else
    summary+=("FAILED  $name (exit $status, $((SECONDS - started))s)${counts:+: $counts}")
    failed=1
  fi
}

step "services (PostgreSQL, Redis, Chromium, curl, jq)" bash scripts/test-services.sh
step "typecheck" npx tsc
step "lint" npx biome check .
step "tests on the embedded database (SQLite)" npx vitest run
step "tests on PostgreSQL" env TEST_DATABASE=postgres npx vitest run

echo "== summary"
printf '%s\n' "${summary[@]}"
exit "$failed"
