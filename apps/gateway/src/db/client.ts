import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "../generated/prisma/client.ts";

export type GatewayDb = PrismaClient;

/** A Prisma client for the gateway database over node-postgres (call `$disconnect()` when done). */
export function createGatewayDb(connectionString: string): GatewayDb {
  return new PrismaClient({ adapter: new PrismaPg({ connectionString }) });
}
