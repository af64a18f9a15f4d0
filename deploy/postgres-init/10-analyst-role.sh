#!/bin/sh
# Run by the postgres image on first start (an empty volume), before the migrations: makes the
# read-only analyst role from deploy/analyst_role.sql, its password from ANALYST_PASSWORD.
set -eu
psql --username "$POSTGRES_USER" --dbname "$POSTGRES_DB" \
    -v analyst_role="${ANALYST_ROLE:-analyst}" -v analyst_password="$ANALYST_PASSWORD" \
    -f /deploy/analyst_role.sql
