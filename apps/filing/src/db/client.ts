import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "../generated/prisma/client.ts";

export type FilingDb = PrismaClient;

/** A Prisma client for the filing database over node-postgres (call `$disconnect()` when done). */
export function createFilingDb(connectionString: string, options: { poolMax?: number } = {}): FilingDb {
  return new PrismaClient({ adapter: new PrismaPg({ connectionString, ...(options.poolMax ? { max: options.poolMax } : {}) }) });
}
