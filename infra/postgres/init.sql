-- One database per service (ARCHITECTURE: each service owns its data). Used by
-- docker-compose (mounted into /docker-entrypoint-initdb.d) and by hand on other machines.
-- `npm start` creates the same databases itself when they are missing.
CREATE DATABASE dormant_gateway;
CREATE DATABASE dormant_filing;
CREATE DATABASE dormant_billing;
CREATE DATABASE dormant_notifier;
CREATE DATABASE dormant_dashboard;
