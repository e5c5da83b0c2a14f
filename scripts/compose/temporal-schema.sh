#!/bin/sh
# One-shot job of docker-compose.yml (temporalio/admin-tools image): creates Temporal's two
# databases on Formward's PostgreSQL and brings their schemas to the version of the tools,
# which is the server's version. Safe to run on every `docker compose up`; the native
# equivalent is setupTemporalSchema in src/embedded/temporal-postgres.ts.
set -eu

SCHEMA=/etc/temporal/schema/postgresql/v12
for db in "$DBNAME:temporal" "$VISIBILITY_DBNAME:visibility"; do
  name="${db%%:*}"
  dir="${db#*:}"
  tool() {
    temporal-sql-tool --plugin postgres12 --ep "$POSTGRES_SEEDS" -p "$DB_PORT" \
      -u "$POSTGRES_USER" --db "$name" "$@"
  }
  # `create` fails once the database exists; a real connection problem fails the next step too.
  tool create >/dev/null 2>&1 || echo "database $name exists"
  tool setup-schema -v 0.0
  tool update-schema -d "$SCHEMA/$dir/versioned"
done
echo "Temporal schemas are up to date"
