import { deriveCompanyFacts } from "@dormant/company-data";
import { DOCUMENT_MEDIA_TYPES, type AccountsFilingInput } from "@dormant/contracts";
import { missingMandatoryFacts, readIxbrl, renderDormantAccountsIxbrl } from "@dormant/documents";
import { newFilingId } from "../ids.ts";
import type { RegistryDataSource } from "../registry-data/registry-data-source.ts";
import { accountsDocumentProblems, dormantAccountsInput } from "./accounts-document.ts";
import { businessValidationError, deriveFilingFacts } from "./company-lookup.ts";
import type { NewFiling } from "./new-filing.ts";

/**
 * An accounts submit turned into a filing: the company's registry data with every override
 * (company.name/entity_type, period.start/is_first_year, approval.*, balance_sheet.*), the
 * business rules (company known, period, approval date, a balance sheet that balances), and the
 * iXBRL accounts rendered once, here, with the registry's mandatory facts checked: they are stored as the ixbrl_accounts document and sent to
 * the registry byte for byte, and the facts they were rendered from are kept for the accounts_pdf.
 */
export async function planAccountsFiling(
  registry: RegistryDataSource,
  input: AccountsFilingInput,
  now: Date = new Date(),
): Promise<NewFiling> {
  const overrides = { company: input.company, period: input.period, approval: input.approval, balance_sheet: input.balance_sheet };
  const { record, facts } = await deriveFilingFacts(registry, input, now, (basis) =>
    deriveCompanyFacts({ ...basis, filingType: "accounts", overrides }),
  );
  const documentInput = dormantAccountsInput(facts, record.profile, record.filingHistory);
  const problems = accountsDocumentProblems(documentInput);
  if (problems.length > 0) throw businessValidationError(problems);
  const ixbrl = renderDormantAccountsIxbrl(documentInput);
  // The registry's check 3312: every mandatory fact tagged for the reporting period.
  const missing = missingMandatoryFacts(readIxbrl(ixbrl));
  if (missing.length > 0) {
    const message = `the accounts iXBRL lacks facts the registry requires: ${missing.join(", ")}`;
    throw businessValidationError([{ path: "accounts", message }], "IXBRL_MANDATORY_FACT");
  }
  const id = newFilingId();
  // FormSubmission/Document/Filename is at most 32 characters (FormSubmission-v2-11.xsd): 23 here.
  const fileName = `${facts.companyNumber}-${facts.period.end.replaceAll("-", "")}.xhtml`;
  return {
    id,
    filingType: "accounts",
    companyNumber: facts.companyNumber,
    companyName: facts.companyName,
    period: facts.period,
    periodSplit: false,
    derivedValues: { ...facts.derivedValues },
    clientReference: input.client_reference ?? null,
    parts: [],
    accountsInput: documentInput,
    registry: {
      filing_id: id,
      company: { number: facts.companyNumber, name: facts.companyName, registry_company_type: facts.registryCompanyType },
      date_signed: facts.approval.date,
      document_filename: fileName,
    },
    documents: [
      {
        type: "ixbrl_accounts",
        partNumber: null,
        mediaType: DOCUMENT_MEDIA_TYPES.ixbrl_accounts,
        fileName,
        content: Buffer.from(ixbrl, "utf8"),
      },
    ],
  };
}
