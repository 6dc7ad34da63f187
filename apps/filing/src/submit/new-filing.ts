import type { DatePeriod } from "@dormant/company-data";
import type { DocumentType, SubmitRegistryAccountsRequest, SubmitTaxPartRequest } from "@dormant/contracts";
import type { DormantAccountsInput } from "@dormant/documents";

/**
 * A tax.submit_part request as kept in the database: no credentials, and no accounts iXBRL: when
 * the return attaches accounts, `accounts_filing_id` names the accounts filing whose ixbrl_accounts
 * document they are (set by the statement that writes the pending filing: accounts-for-ct600.ts).
 */
export type TaxPartDraft = Omit<SubmitTaxPartRequest, "credentials" | "accounts"> & { accounts_filing_id?: string };

/**
 * A registry.submit_accounts request as kept in the database: no credentials, no iXBRL (it is the
 * ixbrl_accounts document), and no submission number yet (drawn from the sequence on insert).
 */
export type RegistryDraft = Omit<SubmitRegistryAccountsRequest, "credentials" | "ixbrl_base64" | "submission_number">;
export type RegistryRequestRecord = Omit<SubmitRegistryAccountsRequest, "credentials" | "ixbrl_base64">;

export interface NewDocument {
  type: DocumentType;
  partNumber: number | null;
  mediaType: string;
  fileName: string;
  content: Buffer<ArrayBuffer>;
}

/** A filing derived and validated from a submit request, ready to be written as `pending`. */
export interface NewFiling {
  id: string;
  filingType: "ct600" | "accounts";
  companyNumber: string;
  companyName: string;
  period: DatePeriod;
  periodSplit: boolean;
  derivedValues: Record<string, unknown>;
  /** The request's `client_reference` (absent or null: none). */
  clientReference?: string | null;
  /** CT600: one per return. */
  parts: Array<{ partNumber: number; period: DatePeriod; request: TaxPartDraft }>;
  /** Accounts: the registry submission. */
  registry?: RegistryDraft;
  /** Accounts: the facts the iXBRL was rendered from (the accounts_pdf is rendered from them too). */
  accountsInput?: DormantAccountsInput;
  /** Documents that exist from the start (the iXBRL accounts). */
  documents: NewDocument[];
}
