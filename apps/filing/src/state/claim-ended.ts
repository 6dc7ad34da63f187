import { Prisma } from "../generated/prisma/client.ts";

/**
 * What `claim_expires_at` becomes when a submit request's claim ends (released, or dropped by a
 * change): the moment it ended, to the millisecond the column stores (truncated, never rounded up
 * past `now()`, so that a retry right after may claim at once). A pending filing's last request
 * thus stays on record, and the sweeper leaves it alone until nobody has worked on it for its
 * `SWEEPER_PENDING_AFTER_SECONDS` (src/sweeper/sweep-pending.ts).
 */
export const CLAIM_ENDED_NOW = Prisma.sql`date_trunc('milliseconds', now())`;
