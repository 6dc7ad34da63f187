import { endPoolFully } from "@dormant/service-kit";
import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { PrismaClient } from "../generated/prisma/client.ts";

/** The dashboard database: one node-postgres pool under a Prisma client. */
export interface DashboardDb {
  readonly pool: pg.Pool;
  readonly prisma: PrismaClient;
}

export function createDashboardDb(
  connectionString: string,
  options: { max?: number; onConnectionError?: (error: Error) => void } = {},
): DashboardDb {
  const pool = new pg.Pool({ connectionString, allowExitOnIdle: true, max: options.max ?? 10 });
  const onError = (error: Error) => options.onConnectionError?.(error);
  pool.on("error", onError);
  pool.on("connect", (client) => client.on("error", onError));
  return { pool, prisma: new PrismaClient({ adapter: new PrismaPg(pool) }) };
}

/** Disconnects Prisma and ends the pool, waiting until its connections are closed. Safe to call twice. */
export async function closeDashboardDb(db: DashboardDb): Promise<void> {
  await db.prisma.$disconnect();
  await endPoolFully(db.pool);
}
