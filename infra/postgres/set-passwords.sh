#!/usr/bin/env bash
# Sets the password of each service's Postgres role (infra/postgres/init.sql) from the environment:
# GATEWAY_DB_PASSWORD, FILING_DB_PASSWORD, BILLING_DB_PASSWORD, NOTIFIER_DB_PASSWORD,
# DASHBOARD_DB_PASSWORD (from your secret store; each must match the password in that app's
# <APP>_DATABASE_URL). Run as a superuser or the roles' creator, with the usual PG* variables:
#   GATEWAY_DB_PASSWORD=... FILING_DB_PASSWORD=... ... bash infra/postgres/set-passwords.sh
# docker-compose runs it after init.sql (mounted into /docker-entrypoint-initdb.d). Rotation: run it
# again with the new password, then roll the app (docs/operations/secrets-and-least-privilege.md).
# The password goes to the server as a psql variable (never on a command line); the server stores
# its SCRAM verifier (password_encryption = scram-sha-256, PostgreSQL's default since 14).
# ROLE_PREFIX (default empty) prefixes the role names, as init.sql's `prefix` does.
set -euo pipefail

missing=()
for service in gateway filing billing notifier dashboard; do
  variable="${service^^}_DB_PASSWORD"
  if [ -z "${!variable:-}" ]; then missing+=("$variable"); fi
done
if [ "${#missing[@]}" -gt 0 ]; then
  echo "set-passwords.sh: missing ${missing[*]}" >&2
  exit 1
fi

for service in gateway filing billing notifier dashboard; do
  variable="${service^^}_DB_PASSWORD"
  psql -v ON_ERROR_STOP=1 --no-psqlrc --quiet --dbname "${PGDATABASE:-postgres}" \
    -v role="${ROLE_PREFIX:-}${service}" -v password="${!variable}" <<'SQL'
ALTER ROLE :"role" PASSWORD :'password';
SQL
done
echo "set-passwords.sh: set the passwords of the roles gateway, filing, billing, notifier, dashboard" >&2
