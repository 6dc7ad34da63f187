import { formatSubmissionNumber } from "@dormant/govtalk";
import type { FilingDb } from "../db/client.ts";
import { dbDate } from "../dates.ts";
import { Prisma } from "../generated/prisma/client.ts";
import type { NewFiling, RegistryRequestRecord } from "./new-filing.ts";

/** Who creates the filing and under which idempotency key, and the claim its request holds. */
export interface FilingOrigin {
  accountId: string;
  keyId: string;
  idempotencyKey: string;
  fingerprint: string;
  requestId: string;
  feePence: number;
  claimToken: string;
  claimSeconds: number;
}

/**
 * Writes a new filing as `pending` with its parts (or its registry submission and submission
 * number), the first history entries and its initial documents, claimed by the creating request,
 * in one transaction. "exists" when another request already created the filing under the same
 * API key and Idempotency-Key (the unique key is the idempotency backstop).
 */
export async function insertPendingFiling(db: FilingDb, filing: NewFiling, origin: FilingOrigin): Promise<"created" | "exists"> {
  const cause = `submit request ${origin.requestId}`;
  try {
    await db.$transaction(async (tx) => {
      let registryRequest: RegistryRequestRecord | undefined;
      if (filing.registry) {
        const [row] = await tx.$queryRaw<Array<{ n: bigint }>>`SELECT nextval('registry_submission_number_seq') AS n`;
        registryRequest = { ...filing.registry, submission_number: formatSubmissionNumber(Number(row!.n)) };
      }
      const generatedAt = new Date();
      await tx.filing.create({
        data: {
          id: filing.id,
          accountId: origin.accountId,
          keyId: origin.keyId,
          idempotencyKey: origin.idempotencyKey,
          requestFingerprint: origin.fingerprint,
          requestId: origin.requestId,
          filingType: filing.filingType,
          companyNumber: filing.companyNumber,
          companyName: filing.companyName,
          periodStart: dbDate(filing.period.start),
          periodEnd: dbDate(filing.period.end),
          periodSplit: filing.periodSplit,
          status: "pending",
          feePence: origin.feePence,
          derivedValues: filing.derivedValues as Prisma.InputJsonValue,
          ...(filing.accountsInput ? { accountsInput: filing.accountsInput as unknown as Prisma.InputJsonValue } : {}),
          claimToken: origin.claimToken,
          ...(registryRequest
            ? { registryStatus: "pending", registrySubmissionNumber: registryRequest.submission_number, registryRequest: registryRequest as Prisma.InputJsonValue }
            : {}),
          parts: {
            create: filing.parts.map((part) => ({
              partNumber: part.partNumber,
              periodStart: dbDate(part.period.start),
              periodEnd: dbDate(part.period.end),
              taxStatus: "pending" as const,
              submitRequest: part.request as Prisma.InputJsonValue,
            })),
          },
          history: {
            create: [
              { field: "status", toStatus: "pending", cause },
              ...filing.parts.map((part) => ({ partNumber: part.partNumber, field: "tax_status", toStatus: "pending", cause })),
              ...(registryRequest ? [{ field: "registry_status", toStatus: "pending", cause }] : []),
            ],
          },
          documents: {
            create: filing.documents.map((doc) => ({ ...doc, sizeBytes: doc.content.length, generatedAt })),
          },
        },
      });
      await tx.$executeRaw`UPDATE filings SET claim_expires_at = now() + ${origin.claimSeconds}::int * interval '1 second' WHERE id = ${filing.id}`;
    });
    return "created";
  } catch (error) {
    if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002") return "exists";
    throw error;
  }
}
