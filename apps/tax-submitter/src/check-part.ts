import { AppError, type CheckTaxPartRequest, type CheckTaxPartResponse, type ValidationProblem } from "@dormant/contracts";
import { checkCt600BusinessRules, GovTalkInputError, validateCt600Body, XsltprocError, XsltprocMissingError } from "@dormant/govtalk";
import { buildPartMessage, type Ct600Sender, type PartMessageConfig } from "./build-part-message.ts";

/**
 * The sender `tax.check_part` builds with. Credentials live only in the GovTalk header, which
 * neither the CT schema (it reads the IRenvelope) nor HMRC's rules (the IRenvelope and the
 * header's keys, never its Authentication) judge, so a check never needs, and never has, any.
 */
export const CHECK_ONLY_SENDER: Ct600Sender = { senderId: "CHECKONLY", password: "not-a-credential" };

/**
 * Runs the tax authority's own checks on a built CT600 GovTalk message of part `partNumber`:
 * HMRC's CT schema on the IRenvelope (libxml2, in process, under a millisecond) and HMRC's
 * compiled business rules (CT-2014-v1-96.xslt through xsltproc in a child process: ~0.1 s of CPU
 * per message, off the event loop, at most one per core at a time). Schema errors become
 * AUTHORITY_SCHEMA problems, each failed rule an AUTHORITY_RULE problem with HMRC's number.
 * When the rules cannot be run (xsltproc missing, timed out, aborted) it throws an AppError:
 * nothing is judged passed that was not checked.
 */
export async function checkPartMessage(xml: string, partNumber: number, signal?: AbortSignal): Promise<CheckTaxPartResponse> {
  let schema: Awaited<ReturnType<typeof validateCt600Body>>;
  let failures: Awaited<ReturnType<typeof checkCt600BusinessRules>>;
  try {
    [schema, failures] = await Promise.all([validateCt600Body(xml), checkCt600BusinessRules(xml, signal ? { signal } : {})]);
  } catch (error) {
    if (error instanceof XsltprocMissingError) {
      throw new AppError("INTERNAL_ERROR", "The tax authority's business rules cannot be run here; nothing was sent.", {
        retryable: false,
        cause: error,
      });
    }
    if (error instanceof XsltprocError) {
      throw new AppError("SERVICE_UNAVAILABLE", "The return could not be checked against the tax authority's rules; nothing was sent.", {
        retryable: true,
        retryAfterSeconds: 5,
        cause: error,
      });
    }
    throw error;
  }
  const problems: ValidationProblem[] = [
    ...schema.errors.map((message) => ({ field: "return", code: "AUTHORITY_SCHEMA" as const, message, part_number: partNumber })),
    ...failures.map((failure) => ({
      field: "return",
      code: "AUTHORITY_RULE" as const,
      rule: failure.number,
      message: failure.text,
      part_number: partNumber,
    })),
  ];
  return {
    checks: [
      { name: "ct600_schema", part_number: partNumber, passed: schema.valid && schema.errors.length === 0 },
      { name: "hmrc_business_rules", part_number: partNumber, passed: failures.length === 0 },
    ],
    problems,
  };
}

/**
 * HMRC's CT schema alone (libxml2, in process, under a millisecond): what every submission is
 * checked against before it is sent. HMRC's business rules are not run there (see
 * PartSubmitter.checkedMessage): `tax.check_part` and the authority itself run them.
 */
export async function checkPartSchema(xml: string, partNumber: number): Promise<ValidationProblem[]> {
  const schema = await validateCt600Body(xml);
  return schema.errors.map((message) => ({ field: "return", code: "AUTHORITY_SCHEMA" as const, message, part_number: partNumber }));
}

/**
 * `tax.check_part`: builds the part's message exactly as `tax.submit_part` would
 * (buildPartMessage), with CHECK_ONLY_SENDER in the header, and runs checkPartMessage on it.
 * Nothing is sent, claimed or recorded. A request the builder refuses is one AUTHORITY_SCHEMA
 * problem and no check listed (a check whose input could not be built does not run).
 */
export async function checkTaxPart(
  tax: PartMessageConfig,
  request: CheckTaxPartRequest,
  signal?: AbortSignal,
): Promise<CheckTaxPartResponse> {
  let xml: string;
  try {
    xml = buildPartMessage(tax, request, CHECK_ONLY_SENDER).message.xml;
  } catch (error) {
    if (!(error instanceof GovTalkInputError)) throw error;
    return {
      checks: [],
      problems: [
        {
          field: "return",
          code: "AUTHORITY_SCHEMA",
          message: `the CT600 could not be built: ${error.message}`,
          part_number: request.part_number,
        },
      ],
    };
  }
  return checkPartMessage(xml, request.part_number, signal);
}

/** The refusal of a submit whose message fails the checks: final (the same message would fail again). */
export function failedChecksError(problems: ValidationProblem[]): AppError {
  const summary = problems
    .map((problem) => (problem.rule === undefined ? problem.message : `${problem.rule}: ${problem.message}`))
    .join("; ");
  return new AppError("VALIDATION_ERROR", `The return fails the tax authority's checks: ${summary}`, {
    retryable: false,
    details: problems,
  });
}
