import type { XmlNode } from "../envelope/write-envelope.ts";
import { NS } from "../xml/namespaces.ts";
import { DORMANT_REASON } from "./constants.ts";
import type { Ct600NilReturn } from "./nil-return-input.ts";

/** Every money figure of a dormant nil return, written the way the schema wants it. */
export const NIL_AMOUNT = "0.00";

/**
 * Appends the dormant nil return `IRenvelope` (CT schema v1.994 shape) to a GovTalk `Body`, with
 * the accounts attached in iXBRL when the input has them, else `NoAccountsReason` Company dormant.
 * Its `IRmark` is left empty; it returns that element so the caller can fill it in.
 */
export function appendNilReturnIRenvelope(body: XmlNode, input: Ct600NilReturn): XmlNode {
  const envelope = body.ele(NS.ct, "IRenvelope");

  const header = envelope.ele("IRheader");
  header.ele("Keys").ele("Key", { Type: "UTR" }).txt(input.utr);
  header.ele("PeriodEnd").txt(input.periodEnd);
  header.ele("DefaultCurrency").txt("GBP");
  const reference = header.ele("Manifest").ele("Contains").ele("Reference");
  reference.ele("Namespace").txt(NS.ct);
  reference.ele("SchemaVersion").txt(input.schemaVersion);
  reference.ele("TopElementName").txt("CompanyTaxReturn");
  const irmark = header.ele("IRmark", { Type: "generic" });
  header.ele("Sender").txt("Company");

  const ret = envelope.ele("CompanyTaxReturn", { ReturnType: "new" });
  const company = ret.ele("CompanyInformation");
  company.ele("CompanyName").txt(input.companyName);
  company.ele("RegistrationNumber").txt(input.companyNumber);
  company.ele("Reference").txt(input.utr);
  company.ele("CompanyType").txt(String(input.companyType));
  const period = company.ele("PeriodCovered");
  period.ele("From").txt(input.periodStart);
  period.ele("To").txt(input.periodEnd);

  // Either the accounts are attached (box 80 or 85 ticked, no reason: rules 9113, 9114, 9349) or
  // the reason for not attaching them is given (rule 9116: then neither box is ticked).
  const summary = ret.ele("ReturnInfoSummary");
  const accounts = summary.ele("Accounts");
  if (input.accounts) accounts.ele(input.accounts.period === "this-period" ? "ThisPeriodAccounts" : "DifferentPeriod").txt("yes");
  else accounts.ele("NoAccountsReason").txt(DORMANT_REASON);
  summary.ele("Computations").ele("NoComputationsReason").txt(DORMANT_REASON);

  ret.ele("Turnover").ele("Total").txt(NIL_AMOUNT);

  const calculation = ret.ele("CompanyTaxCalculation");
  calculation.ele("Income");
  calculation.ele("ChargeableProfits").txt(NIL_AMOUNT);
  calculation.ele("NetCorporationTaxChargeable").txt(NIL_AMOUNT);

  ret.ele("CalculationOfTaxOutstandingOrOverpaid").ele("TaxPayable").txt(NIL_AMOUNT);

  const declaration = ret.ele("Declaration");
  declaration.ele("AcceptDeclaration").txt("yes");
  declaration.ele("Name").txt(input.declarantName);
  declaration.ele("Status").txt(input.declarantStatus);

  if (input.accounts) {
    const instance = ret.ele("AttachedFiles").ele("XBRLsubmission").ele("Accounts").ele("Instance");
    instance
      .ele("EncodedInlineXBRLDocument", { Filename: input.accounts.filename })
      .txt(Buffer.from(input.accounts.ixbrl, "utf8").toString("base64"));
  }

  return irmark;
}
