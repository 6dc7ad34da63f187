import { Prisma } from "../generated/prisma/client.ts";

/** Whether `error` is the database refusing a duplicate in the unique index (or primary key) `index` (raw statements). */
export function isUniqueViolation(error: unknown, index: string): boolean {
  if (!(error instanceof Prisma.PrismaClientKnownRequestError) || error.code !== "P2010") return false;
  const cause = (error.meta as { driverAdapterError?: { cause?: { originalCode?: string; constraint?: { index?: string } } } } | undefined)
    ?.driverAdapterError?.cause;
  return cause?.originalCode === "23505" && cause.constraint?.index === index;
}
