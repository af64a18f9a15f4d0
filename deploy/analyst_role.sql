-- A login for analysts that can read every table and view and change nothing.
--
-- Run as the role that runs the migrations (it owns the tables, and the default privileges
-- below cover what its later migrations create), in the application's database:
--   psql -v analyst_role=analyst -v analyst_password='...' -f deploy/analyst_role.sql DBNAME
-- docker-compose runs it once, when the PostgreSQL volume is first made
-- (deploy/postgres-init/10-analyst-role.sh, password from ANALYST_PASSWORD).
\set ON_ERROR_STOP on

CREATE ROLE :"analyst_role" LOGIN PASSWORD :'analyst_password';
-- Read-only even if a grant slips in later; and no query holds a worker's locks for long.
ALTER ROLE :"analyst_role" SET default_transaction_read_only = on;
ALTER ROLE :"analyst_role" SET statement_timeout = '5min';

GRANT CONNECT ON DATABASE :"DBNAME" TO :"analyst_role";
GRANT USAGE ON SCHEMA public TO :"analyst_role";
-- What exists now, and what the migrations make later (tables and views alike).
GRANT SELECT ON ALL TABLES IN SCHEMA public TO :"analyst_role";
ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT SELECT ON TABLES TO :"analyst_role";
