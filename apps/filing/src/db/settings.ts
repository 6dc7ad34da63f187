import { z } from "zod";

/**
 * Where the filing database lives. A zod shape (not a finished schema) so that env.ts and the
 * migrator share one name and one default.
 */
export const filingDatabaseEnvShape = {
  FILING_DATABASE_URL: z.url().default("postgresql://postgres@127.0.0.1:5432/dormant_filing"),
};
