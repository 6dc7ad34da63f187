/** Accounts the registry accepted, kept in the repository (provenance and sha256 in SOURCES.md there). */
export const ACCEPTED_ACCOUNTS_CORPUS = new URL("../../testdata/accepted-accounts/", import.meta.url);

/** Dormant accounts the registry accepted (LAUDERDALE TWO LIMITED, period 2025-01-15 to 2026-03-31). */
export const ACCEPTED_DORMANT_ACCOUNTS_FILE = new URL("Prod223_4316_16186885_20260331.html", ACCEPTED_ACCOUNTS_CORPUS);
