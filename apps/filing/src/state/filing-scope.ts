import { AppError, type FilingAccountReader, type FilingRpcCaller } from "@dormant/contracts";
import { Prisma } from "../generated/prisma/client.ts";

/**
 * Whose filings a read sees: the API key's own (the gateway's reads, `filing.get` and the rest:
 * a filing belongs to the key that created it, spec section 5 rule 6), or the whole account's,
 * whichever of its keys made them (the dashboard's `filing.account_*` reads). Every read takes
 * one and turns it into its WHERE condition here, so that the two kinds of read share one code
 * path and differ only in that condition.
 */
export type FilingScope = { readonly keyId: string; readonly accountId?: never } | { readonly accountId: string; readonly keyId?: never };

/** The key-scoped reads' scope: the calling API key's filings. */
export const keyScope = (caller: FilingRpcCaller): FilingScope => ({ keyId: caller.key_id });

/** The account-wide reads' scope: every filing of the reader's account. */
export const accountScope = (reader: FilingAccountReader): FilingScope => ({ accountId: reader.account_id });

/**
 * The scope as an SQL condition on filings (`alias` names the table in a join). The key's is
 * served by filings_key_id_created_at_idx, the account's by filings_account_id_created_at_id_idx.
 */
export function scopeSql(scope: FilingScope, alias?: "f"): Prisma.Sql {
  const column = (name: string) => Prisma.raw(alias ? `${alias}.${name}` : name);
  return scope.keyId !== undefined
    ? Prisma.sql`${column("key_id")} = ${scope.keyId}`
    : Prisma.sql`${column("account_id")} = ${scope.accountId}`;
}

/** The scope as a Prisma condition on Filing. */
export function scopeWhere(scope: FilingScope): Prisma.FilingWhereInput {
  return scope.keyId !== undefined ? { keyId: scope.keyId } : { accountId: scope.accountId };
}

/**
 * FILING_NOT_FOUND for a filing outside the scope: another key's (or account's) filing is exactly
 * as unknown as one that does not exist, the same code and the same message.
 */
export function filingNotFound(scope: FilingScope): AppError {
  return new AppError("FILING_NOT_FOUND", `No filing with this id for this ${scope.keyId !== undefined ? "API key" : "account"}`);
}
