import type { DeclarantStatus } from "@dormant/contracts";
import type { DatePeriod } from "../../accounting-period.ts";
import type { BalanceSheetPence } from "../../balance-sheet.ts";
import type { IsoDate } from "../../calendar-date.ts";
import type { FieldProblem } from "../../validation/field-problem.ts";
import type { RegistryCompanyType, SupportedEntityType } from "../entity-type.ts";
import type { PriorYearFigures } from "../prior-year-figures.ts";

/** `data.derived_values` of the CT600 submit response. */
export interface Ct600DerivedValues {
  company_name: string;
  period_start: IsoDate;
  is_first_year: boolean;
  declarant_name: string;
  declarant_status: DeclarantStatus;
}

/** `data.derived_values` of the accounts submit response (amounts in pounds). */
export interface AccountsDerivedValues {
  company_name: string;
  entity_type: SupportedEntityType;
  period_start: IsoDate;
  is_first_year: boolean;
  director_name: string;
  approval_date: IsoDate;
  share_capital: number;
  cash: number;
}

/** What both filings know of the company and the period. */
export interface CommonFacts {
  companyNumber: string;
  companyName: string;
  /** The registry's company_status (active, dissolved, ...), for information: never refused here. */
  companyStatus: string;
  entityType: SupportedEntityType;
  /** The accounting period being filed. */
  period: DatePeriod;
  isFirstYear: boolean;
}

export interface Ct600Facts extends CommonFacts {
  filingType: "ct600";
  declarant: { name: string; status: DeclarantStatus };
  /** One return per part: the period itself, or its first 12 months and the rest. */
  ct600Periods: readonly DatePeriod[];
  periodSplit: boolean;
  derivedValues: Ct600DerivedValues;
}

export interface AccountsFacts extends CommonFacts {
  filingType: "accounts";
  registryCompanyType: RegistryCompanyType;
  approval: { date: IsoDate; directorName: string; directorPosition: string };
  balanceSheet: BalanceSheetPence;
  /** Comparatives; always null in a first year. */
  priorYear: PriorYearFigures | null;
  derivedValues: AccountsDerivedValues;
}

export type CompanyFacts = Ct600Facts | AccountsFacts;

export type CompanyFactsResult<Facts extends CompanyFacts> = { ok: true; facts: Facts } | { ok: false; problems: FieldProblem[] };
