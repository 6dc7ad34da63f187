-- One database per service (ARCHITECTURE: each service owns its data), each owned by a role of
-- its own that can reach no other service's database. Run by psql as a superuser (or a role with
-- CREATEROLE and CREATEDB): docker-compose mounts it into /docker-entrypoint-initdb.d; elsewhere
--   psql -v ON_ERROR_STOP=1 -f infra/postgres/init.sql
-- Idempotent: it creates what is missing and (re)applies ownership and privileges. Passwords are
-- not here: set-passwords.sh sets them from the secret store (docs/operations/secrets-and-least-privilege.md).
-- `npm start` on a developer's machine creates the databases itself (as postgres) without roles.
--
-- psql variable `prefix` (default empty) prefixes every role and database name, so that a test can
-- run this file on a shared server (tests/deploy/src/postgres-roles.test.ts).
\if :{?prefix}
\else
  \set prefix ''
\endif

CREATE TEMPORARY TABLE dormant_service (role name, db name);
INSERT INTO dormant_service
  SELECT :'prefix' || service, :'prefix' || 'dormant_' || service
  FROM unnest(ARRAY['gateway', 'filing', 'billing', 'notifier', 'dashboard']) AS service;

-- The roles: log in, nothing more (no superuser, no CREATEDB/CREATEROLE, no replication).
SELECT format('CREATE ROLE %I LOGIN', role) FROM dormant_service
  WHERE NOT EXISTS (SELECT FROM pg_roles WHERE rolname = role) \gexec
SELECT format('ALTER ROLE %I LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS', role) FROM dormant_service \gexec

-- The databases, each owned by its service's role: the role owns its schema `public` (PostgreSQL
-- 15: pg_database_owner) and so creates its tables in its migrations.
SELECT format('CREATE DATABASE %I OWNER %I', db, role) FROM dormant_service
  WHERE NOT EXISTS (SELECT FROM pg_database WHERE datname = db) \gexec
SELECT format('ALTER DATABASE %I OWNER TO %I', db, role) FROM dormant_service \gexec

-- Nobody but the owner (and superusers) may connect to a service's database or make temporary
-- tables in it: PUBLIC's default CONNECT and TEMPORARY are revoked.
SELECT format('REVOKE ALL ON DATABASE %I FROM PUBLIC', db) FROM dormant_service \gexec
SELECT format('GRANT CONNECT, TEMPORARY ON DATABASE %I TO %I', db, role) FROM dormant_service \gexec

DROP TABLE dormant_service;
