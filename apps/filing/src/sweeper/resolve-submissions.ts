import { RpcNoServerError } from "@dormant/bus";
import type { ResolveRegistryAccountsResponse, ResolveTaxPartResponse } from "@dormant/contracts";
import type { FilingBus } from "../bus-catalog.ts";
import type { FilingRecord } from "../state/filing-record.ts";

/** What became of one submission the filing holds no acknowledgement for (see in-doubt.ts in contracts). */
export type SubmissionResolution = ResolveTaxPartResponse | ResolveRegistryAccountsResponse;

/** Asks the submitter that owns a filing's submission what became of it; never sends anything. */
export interface SubmissionResolver {
  taxPart(filing: Pick<FilingRecord, "id">, partNumber: number): Promise<ResolveTaxPartResponse>;
  accounts(filing: Pick<FilingRecord, "id" | "registrySubmissionNumber" | "companyNumber">): Promise<ResolveRegistryAccountsResponse>;
}

/** When the submitter cannot be asked (nobody serves its queue, no reply in time): ask again later. */
const UNREACHABLE_RETRY_SECONDS = 30;

function unreachable(error: unknown): { state: "in_doubt"; reason: string; retry_after_seconds: number } {
  const reason =
    error instanceof RpcNoServerError
      ? "no submitter is running to ask"
      : `the submitter could not be asked (${error instanceof Error ? error.message : String(error)})`;
  return { state: "in_doubt", reason, retry_after_seconds: UNREACHABLE_RETRY_SECONDS };
}

/** The resolver over the bus: `tax.resolve_part` on `tax.submit`, `registry.resolve_accounts` on `registry.submit`. */
export function busSubmissionResolver(bus: Pick<FilingBus, "rpcCall">): SubmissionResolver {
  return {
    async taxPart(filing, partNumber) {
      try {
        return await bus.rpcCall("tax.submit", "tax.resolve_part", { filing_id: filing.id, part_number: partNumber });
      } catch (error) {
        return unreachable(error);
      }
    },
    async accounts(filing) {
      if (!filing.registrySubmissionNumber) return { state: "not_submitted", reason: "the filing has no submission number" };
      try {
        return await bus.rpcCall("registry.submit", "registry.resolve_accounts", {
          filing_id: filing.id,
          submission_number: filing.registrySubmissionNumber,
          company_number: filing.companyNumber,
        });
      } catch (error) {
        return unreachable(error);
      }
    },
  };
}
