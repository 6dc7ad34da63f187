import { renderDormantAccountsPdf, type DormantAccountsInput } from "@dormant/documents";
import type { Filing } from "../generated/prisma/client.ts";

/**
 * The accounts_pdf: the dormant accounts rendered from the very facts their iXBRL was rendered
 * from at submit time (`filings.accounts_input`), so the readable copy shows what was filed.
 * Undefined for a filing that has no stored facts (accounts submitted before they were kept).
 * @throws DormantAccountsInputError / PdfInputError when the facts cannot be rendered (a bug:
 * the same facts rendered the filed iXBRL).
 */
export function renderAccountsPdf(filing: Pick<Filing, "accountsInput">, generatedAt: Date): Promise<Buffer> | undefined {
  if (filing.accountsInput === null) return undefined;
  const facts = filing.accountsInput as unknown as DormantAccountsInput;
  return renderDormantAccountsPdf({ ...facts, generatedAt: generatedAt.toISOString() });
}
