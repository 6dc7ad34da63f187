import { deriveCompanyFacts } from "@dormant/company-data";
import type { Ct600FilingInput } from "@dormant/contracts";
import { newFilingId } from "../ids.ts";
import type { RegistryDataSource } from "../registry-data/registry-data-source.ts";
import { deriveFilingFacts } from "./company-lookup.ts";
import type { NewFiling } from "./new-filing.ts";

/**
 * A CT600 submit turned into a filing: the company's registry data with the request's overrides
 * (company.name, period.start, declarant.name/status), the business rules (company known, period
 * ends after it starts and not in the future, at most 18 months, someone to sign), and one
 * tax.submit_part request per return (two when the period is longer than 12 months).
 */
export async function planCt600Filing(registry: RegistryDataSource, input: Ct600FilingInput, now: Date = new Date()): Promise<NewFiling> {
  const overrides = { company: input.company, period: input.period, declarant: input.declarant };
  const { facts } = await deriveFilingFacts(registry, input, now, (basis) =>
    deriveCompanyFacts({ ...basis, filingType: "ct600", overrides }),
  );
  const id = newFilingId();
  const partsTotal = facts.ct600Periods.length;
  return {
    id,
    filingType: "ct600",
    companyNumber: facts.companyNumber,
    companyName: facts.companyName,
    period: facts.period,
    periodSplit: facts.periodSplit,
    derivedValues: { ...facts.derivedValues },
    clientReference: input.client_reference ?? null,
    parts: facts.ct600Periods.map((period, index) => ({
      partNumber: index + 1,
      period,
      request: {
        filing_id: id,
        part_number: index + 1,
        parts_total: partsTotal,
        company: { number: facts.companyNumber, name: facts.companyName, utr: input.utr },
        period: { start: period.start, end: period.end },
        declarant: { name: facts.declarant.name, status: facts.declarant.status },
      },
    })),
    documents: [],
  };
}
