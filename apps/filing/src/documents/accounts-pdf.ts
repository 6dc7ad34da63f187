import type { DormantAccountsInput } from "@dormant/documents";
import type { PdfJob } from "./pdf-jobs.ts";

/**
 * What the accounts_pdf is rendered from (`renderDormantAccountsPdf`): the very facts the
 * accounts' iXBRL was rendered from at submit time (`filings.accounts_input`), so the readable
 * copy shows what was filed. Undefined for a filing that has no stored facts (accounts submitted
 * before they were kept). Rendering it fails with DormantAccountsInputError / PdfInputError when
 * the facts cannot be rendered (a bug: the same facts rendered the filed iXBRL).
 */
export function accountsPdfJob(filing: { accountsInput: unknown }, generatedAt: Date): PdfJob | undefined {
  if (filing.accountsInput === null || filing.accountsInput === undefined) return undefined;
  const facts = filing.accountsInput as unknown as DormantAccountsInput;
  return { type: "accounts_pdf", input: { ...facts, generatedAt: generatedAt.toISOString() } };
}
