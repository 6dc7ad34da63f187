import { accountsContexts } from "./accounts-contexts.ts";
import { renderBalanceSheet, balanceSheetLines, type BalanceSheetColumn } from "./balance-sheet.ts";
import { addDays, addMonths } from "@dormant/company-data";
import { longDate } from "./long-date.ts";
import { assertValidDormantAccountsInput, type DormantAccountsInput } from "./dormant-accounts-input.ts";
import { InlineFacts } from "./inline-facts.ts";
import { JURISDICTIONS, LEGAL_FORMS, TRADING_STATUS_MEMBER } from "./legal-form.ts";
import { el, serialiseDocument, type ElementNode } from "./markup.ts";
import { decimalsFor } from "./money.ts";
import { dormantAccountsStatements, dormantPrincipalActivity } from "./statements.ts";
import { CONCEPT, DIMENSION, FRC_ENTRY_POINT, MEMBER, NS } from "./taxonomy.ts";

const STYLE = [
  "body { font-family: Arial, Helvetica, sans-serif; font-size: 11pt; color: #000; max-width: 46em; margin: 2em auto; padding: 0 1em; }",
  ".page { margin-bottom: 3em; }",
  ".title-page { text-align: center; padding: 4em 0; }",
  "h1 { font-size: 18pt; } h2 { font-size: 14pt; } h3 { font-size: 11pt; }",
  "table.balance-sheet { width: 100%; border-collapse: collapse; margin: 1em 0; }",
  "table.balance-sheet td, table.balance-sheet th { padding: 0.25em 0.5em; }",
  ".amount { text-align: right; width: 9em; white-space: nowrap; }",
  "tr.subtotal td.amount { border-top: 1px solid #000; }",
  "tr.total td { font-weight: bold; } tr.total td.amount { border-top: 1px solid #000; border-bottom: 3px double #000; }",
  "tr.heading td { font-weight: bold; padding-top: 1em; }",
  "@media print { .page { page-break-after: always; } }",
].join(" ");

/** "year" for a period of exactly twelve months, otherwise "period". */
function periodNoun(start: string, end: string): string {
  return addDays(addMonths(start, 12), -1) === end ? "year" : "period";
}

/**
 * Renders the dormant company accounts of one accounting period as an XHTML Inline XBRL 1.1
 * document tagged with the FRC 2026 taxonomy: what the registry submission carries and what the
 * `ixbrl_accounts` document offers. The result is well-formed XML in plain ASCII.
 * @throws DormantAccountsInputError when the input is incomplete, inconsistent or does not balance.
 */
export function renderDormantAccountsIxbrl(input: DormantAccountsInput): string {
  assertValidDormantAccountsInput(input);
  const facts = new InlineFacts(input.companyNumber);
  const contexts = accountsContexts(input);
  const legalForm = LEGAL_FORMS[input.registryCompanyType ?? "ltd"];
  const jurisdiction = input.jurisdiction === undefined ? undefined : JURISDICTIONS[input.jurisdiction];
  const current = contexts.current;
  const noun = periodNoun(input.periodStart, input.periodEnd);
  const position = input.directorPosition?.trim() || "Director";
  const director1 = contexts.dimension("director1", { dimension: DIMENSION.entityOfficers, member: MEMBER.director1 });

  const columns: BalanceSheetColumn[] = [{ balanceSheetDate: input.periodEnd, contexts: current, figures: input.current }];
  if (input.priorYear !== undefined && contexts.prior !== undefined) {
    columns.push({ balanceSheetDate: input.priorYear.periodEnd, contexts: contexts.prior, figures: input.priorYear });
  }
  const decimals = decimalsFor(columns.flatMap((column) => Object.values(balanceSheetLines(column.figures))));

  const titlePage = el(
    "div",
    { class: "page title-page" },
    el("p", {}, "Registered number: ", facts.text(CONCEPT.registeredNumber, current.duration, input.companyNumber)),
    el("h1", {}, facts.text(CONCEPT.entityName, current.duration, input.companyName)),
    el("p", {}, "Unaudited dormant accounts"),
    el(
      "p",
      {},
      "for the period from ",
      facts.date(CONCEPT.periodStart, current.instant, input.periodStart),
      " to ",
      facts.date(CONCEPT.periodEnd, current.instant, input.periodEnd),
    ),
  );

  const balanceSheetPage = el(
    "div",
    { class: "page" },
    el("h2", {}, input.companyName),
    el("p", {}, `Registered number: ${input.companyNumber}`),
    el("h2", {}, "Balance sheet as at ", facts.date(CONCEPT.balanceSheetDate, current.instant, input.periodEnd)),
    renderBalanceSheet(facts, columns, decimals, legalForm.fundsLabel),
    dormantAccountsStatements(noun, longDate(input.periodEnd)).map((statement) =>
      el("p", { class: "statement" }, facts.text(statement.concept, current.duration, statement.text)),
    ),
    el(
      "p",
      { class: "approval" },
      "Approved by the board on ",
      facts.date(CONCEPT.approvalDate, current.instant, input.approvalDate),
      " and signed on its behalf by ",
      facts.text(CONCEPT.officerName, director1, input.directorName),
      `, ${position}.`,
    ),
    el("p", { class: "signature" }, input.directorName, el("br", {}), position),
  );

  const employees = (count: number | undefined) => count ?? 0;
  const priorEmployees =
    input.priorYear !== undefined && contexts.prior !== undefined
      ? [
          " (previous period: ",
          facts.count(CONCEPT.averageEmployees, contexts.prior.duration, employees(input.priorYear.averageEmployees)),
          ")",
        ]
      : [];
  const tradingSentence =
    (input.tradingStatus ?? "never-traded") === "never-traded"
      ? "It has not traded since its incorporation."
      : "It traded in the past but did not trade during the period.";
  const notesPage = el(
    "div",
    { class: "page" },
    el("h2", {}, "Notes to the accounts"),
    el("h3", {}, "1. General information"),
    el(
      "p",
      {},
      `${input.companyName} is ${legalForm.description}`,
      jurisdiction === undefined ? "" : `, registered in ${jurisdiction.name}`,
      `, with registered number ${input.companyNumber}.`,
    ),
    el("h3", {}, "2. Principal activity"),
    el("p", {}, facts.text(CONCEPT.principalActivities, current.duration, dormantPrincipalActivity(noun))),
    el("h3", {}, "3. Dormancy"),
    el(
      "p",
      {},
      `The company was dormant within the meaning of section 1169 of the Companies Act 2006 throughout the ${noun}. `,
      tradingSentence,
    ),
    el("h3", {}, "4. Employees"),
    el(
      "p",
      {},
      `The average number of persons employed by the company (including directors) during the ${noun} was `,
      facts.count(CONCEPT.averageEmployees, current.duration, employees(input.averageEmployees)),
      priorEmployees,
      ".",
    ),
  );

  /** An empty fact that says what it says by its context's dimension member (`slug` names the context). */
  const memberFact = (concept: string, slug: string, dimension: string, member: string): ElementNode =>
    facts.empty(concept, contexts.dimension(slug, { dimension, member }));
  const hidden = el(
    "ix:hidden",
    {},
    facts.boolean(CONCEPT.dormant, current.duration, true),
    memberFact(
      CONCEPT.tradingStatus,
      "trading-status",
      DIMENSION.tradingStatus,
      TRADING_STATUS_MEMBER[input.tradingStatus ?? "never-traded"],
    ),
    memberFact(CONCEPT.accountingStandards, "accounting-standards", DIMENSION.accountingStandards, MEMBER.microEntities),
    memberFact(CONCEPT.accountsStatus, "accounts-status", DIMENSION.accountsStatus, MEMBER.auditExemptNoAccountantsReport),
    memberFact(CONCEPT.accountsType, "accounts-type", DIMENSION.accountsType, MEMBER.fullAccounts),
    memberFact(CONCEPT.legalForm, "legal-form", DIMENSION.legalForm, legalForm.member),
    jurisdiction === undefined
      ? undefined
      : memberFact(CONCEPT.countryOfIncorporation, "country", DIMENSION.countriesRegions, jurisdiction.member),
    facts.empty(CONCEPT.directorSigning, director1),
  );

  const header: ElementNode = el(
    "ix:header",
    {},
    hidden,
    el("ix:references", {}, el("link:schemaRef", { "xlink:type": "simple", "xlink:href": FRC_ENTRY_POINT })),
    el("ix:resources", {}, facts.resources()),
  );

  const root = el(
    "html",
    {
      xmlns: NS.xhtml,
      "xmlns:ix": NS.ix,
      "xmlns:ixt": NS.ixt,
      "xmlns:xbrli": NS.xbrli,
      "xmlns:xbrldi": NS.xbrldi,
      "xmlns:link": NS.link,
      "xmlns:xlink": NS.xlink,
      "xmlns:iso4217": NS.iso4217,
      "xmlns:core": NS.core,
      "xmlns:bus": NS.bus,
      "xmlns:direp": NS.direp,
      "xmlns:countries": NS.countries,
      "xml:lang": "en",
    },
    el(
      "head",
      {},
      el("meta", { "http-equiv": "Content-Type", content: "text/html; charset=UTF-8" }),
      el("title", {}, `${input.companyName} - Dormant accounts for the ${noun} ended ${longDate(input.periodEnd)}`),
      el("style", { type: "text/css" }, STYLE),
    ),
    el("body", {}, el("div", { style: "display:none" }, header), titlePage, balanceSheetPage, notesPage),
  );
  return serialiseDocument(root);
}
