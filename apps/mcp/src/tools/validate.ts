import type { AccountsValidationResult as AccountsReport, Ct600ValidationResult as Ct600Report } from "@dormant/client";
import { AccountsSubmitRequest, AccountsValidationResult, Ct600SubmitRequest, Ct600ValidationResult } from "@dormant/contracts";
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { jsonText, secretValuesOf, withoutSecretValues, withoutSecrets } from "../results.ts";
import { type ToolContext, runTool } from "./context.ts";

/**
 * Input schemas: exactly the submit's request contract, rules included (no idempotency key: a
 * validation changes nothing). A copy (`safeExtend`, as the submit tools do), so the tool's
 * JSON Schema is the object itself rather than a reference to the contract's registered id.
 */
export const validateCt600Input = Ct600SubmitRequest.safeExtend<Record<never, never>>({});
export const validateAccountsInput = AccountsSubmitRequest.safeExtend<Record<never, never>>({});
/** Output schemas: the API's report contracts, copied for the same reason. */
export const validateCt600Output = Ct600ValidationResult.extend({});
export const validateAccountsOutput = AccountsValidationResult.extend({});

type Report = Ct600Report | AccountsReport;

const CODES = {
  INVALID_FIELD: "the argument breaks the request contract: fix that field",
  BUSINESS_RULE:
    "the company, period, dates, declarant or another value derived from the registry with your overrides is wrong (unknown company, period too long, approval date before the period end...): check it with the user (get_deadlines shows the company's periods), then correct the argument or drop the override",
  AUTHORITY_SCHEMA:
    "the message built for the authority fails its published schema, almost always because of an override value (a name or text with characters or a length the authority refuses): correct the override",
  AUTHORITY_RULE:
    "HMRC would reject the return under HMRC's rule number `rule`: explain the message to the user and correct the argument it names",
  IXBRL_MANDATORY_FACT:
    "the accounts lack a fact the registry requires: supply the missing value (director, approval date, balance sheet figures)",
} as const;

/** How to read the result, for the codes this tool can report. */
function reading(codes: (keyof typeof CODES)[], where: string): string {
  return `The result (also as structuredContent): valid (true only when problems is empty: a submit of these arguments would be sent now), derived_values (what would be filed; null when the company or period could not be derived), period_split, parts (each submission's period), checks (each check that ran, with passed) and problems. Each problem has field (an argument path such as period.start or approval.date, or ${where}), code, message${codes.includes("AUTHORITY_RULE") ? " and, for HMRC's rules, rule (HMRC's rule number)" : ""}. What to do per code: ${codes.map((code) => `${code}: ${CODES[code]}`).join("; ")}. After correcting, validate again; submit only when valid is true. Arguments that break the input schema are refused before anything runs, with an input validation error naming each field ("at <field>"): fix those and call again. A valid result is no guarantee: credentials are checked for form only (the authority checks them at submit time) and the registry's data may change before the submit.`;
}

const FREE = `Files nothing, stores nothing, holds or charges nothing (a zero balance is fine), needs no idempotency_key and may be called as often as needed, with a live or a test key (a test key validates against the sandbox's made-up company and the result says sandbox: true). A failed call (isError, not a report) is one of the API's errors: RATE_LIMIT_EXCEEDED or *_UNAVAILABLE means call again with the same arguments after retry_after_seconds; INVALID_KEY means the key is refused.`;

/** One line per problem, for the text summary. */
function problemLine(problem: Report["problems"][number]): string {
  const where = problem.part_number === undefined ? problem.field : `${problem.field} (return ${problem.part_number})`;
  const rule = problem.rule === undefined ? "" : ` rule ${problem.rule}`;
  return `- ${where}: ${problem.code}${rule}: ${problem.message}`;
}

/** A short text summary of a report: the verdict, the parts, the checks and each problem. */
export function validationSummary(kind: "CT600" | "accounts", report: Report): string {
  const sandbox = report.sandbox ? " (sandbox: test key)" : "";
  const checks = report.checks.map(
    (check) => `${check.name}${check.part_number ? `#${check.part_number}` : ""} ${check.passed ? "passed" : "FAILED"}`,
  );
  const parts = report.parts.map((part) => `${part.period.start} to ${part.period.end}`);
  const submit = kind === "CT600" ? "submit_ct600" : "submit_accounts";
  const lines = report.valid
    ? [
        `VALID${sandbox}: a submit of these arguments would be sent to the authority now; nothing was filed or charged.`,
        `${kind === "CT600" ? (report.period_split ? "Two returns" : "One return") : "Accounts"}: ${parts.join("; ")}.`,
        `Checks: ${checks.join(", ")}.`,
        `Next: confirm the derived values with the user, then call ${submit} with the same arguments.`,
      ]
    : [
        `NOT VALID${sandbox}: ${report.problems.length} problem(s); nothing was filed or charged.`,
        ...report.problems.map(problemLine),
        `Checks: ${checks.join(", ")}.`,
        `Next: correct the arguments as each code asks, validate again, and only then call ${submit}.`,
      ];
  return lines.join("\n");
}

/**
 * The report as structured content, a short summary and the report as JSON text (for clients that
 * read text only). No secret field, and no secret value of the arguments quoted in a message, can
 * be in any of them.
 */
export function validationResult(kind: "CT600" | "accounts", report: Report, args: object): CallToolResult {
  const clean = withoutSecretValues(withoutSecrets(report), secretValuesOf(args)) as Report;
  return {
    structuredContent: clean as unknown as Record<string, unknown>,
    content: [{ type: "text", text: validationSummary(kind, clean) }, jsonText(clean)],
  };
}

export function registerValidateTools(server: McpServer, context: ToolContext): void {
  server.registerTool(
    "validate_ct600",
    {
      title: "Validate a nil CT600 without filing it",
      description: `Checks a nil CT600 return without filing it. Call it before every submit_ct600, with exactly the arguments you mean to submit (submit_ct600's arguments without idempotency_key). It runs everything submit_ct600 runs before the tax authority or money are involved: the request contract; derivation of the company name, period start and declarant from the registry, with every override given; our business rules; the period split (a period over 12 months becomes two returns); and, for each return, the CT600 message exactly as it would be sent, checked against HMRC's CT600 schema and HMRC's own business rules. ${FREE} ${reading(["INVALID_FIELD", "BUSINESS_RULE", "AUTHORITY_SCHEMA", "AUTHORITY_RULE"], '"return" for the CT600 built for HMRC, with part_number naming the return of a split period')}`,
      inputSchema: validateCt600Input,
      outputSchema: validateCt600Output,
      annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    },
    (args) =>
      runTool(context, "validate_ct600", async () => validationResult("CT600", await context.client.filings.validateCt600(args), args)),
  );

  server.registerTool(
    "validate_accounts",
    {
      title: "Validate dormant accounts without filing them",
      description: `Checks dormant company accounts without filing them. Call it before every submit_accounts, with exactly the arguments you mean to submit (submit_accounts' arguments without idempotency_key). It runs everything submit_accounts runs before the registry or money are involved: the request contract; derivation of the company name, period start, director, approval date and balance sheet from the registry, with every override given (a balance sheet given must balance); our business rules; and the accounts (iXBRL) exactly as they would be sent, checked for every fact the registry requires. ${FREE} ${reading(["INVALID_FIELD", "BUSINESS_RULE", "AUTHORITY_SCHEMA", "IXBRL_MANDATORY_FACT"], '"accounts" for the iXBRL built for the registry')}`,
      inputSchema: validateAccountsInput,
      outputSchema: validateAccountsOutput,
      annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    },
    (args) =>
      runTool(context, "validate_accounts", async () =>
        validationResult("accounts", await context.client.filings.validateAccounts(args), args),
      ),
  );
}
