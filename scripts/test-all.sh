#!/usr/bin/env bash
# The whole check: types, lint, then the test suite on the embedded database and on PostgreSQL.
# PostgreSQL is found at TEST_POSTGRES_URL (default postgresql://postgres:postgres@127.0.0.1:5432/postgres).
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/test-services.sh
export TEST_POSTGRES_URL="${TEST_POSTGRES_URL:-postgresql://postgres:postgres@127.0.0.1:5432/postgres}"
echo "== typecheck" && npx tsc
echo "== lint" && npx biome check .
echo "== tests on the embedded database (SQLite)" && npx vitest run
echo "== tests on PostgreSQL" && TEST_DATABASE=postgres npx vitest run
