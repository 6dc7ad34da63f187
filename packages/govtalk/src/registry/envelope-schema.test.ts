import { existsSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot } from "../test-support/testdata.ts";
import { accountsInput, presenter } from "../test-support/registry-input.ts";
import { compileSchema } from "../xsd/compiled-schema.ts";
import { buildAccountsSubmission } from "./form-submission.ts";
import { buildSubmissionStatusRequest } from "./status-request.ts";

/** The registry's own envelope schema (shared/testdata/registry, SOURCES.md there). */
const ENVELOPE_XSD = resolve(repoRoot, "../shared/testdata/registry/Egov_ch-v2-0.xsd");

describe.skipIf(!existsSync(ENVELOPE_XSD))("registry messages against the registry's envelope schema Egov_ch-v2-0.xsd", () => {
  it.each(["clear", "CHMD5"] as const)("the Accounts request and the status poll with Method %s are valid", async (authMethod) => {
    const schema = await compileSchema(readFileSync(ENVELOPE_XSD, "utf8"), `file://${ENVELOPE_XSD}`);
    const accounts = buildAccountsSubmission(accountsInput({ presenter: { ...presenter, authMethod } })).xml;
    expect(schema.validate(accounts)).toEqual({ valid: true, errors: [] });
    const status = buildSubmissionStatusRequest({
      presenter: { ...presenter, authMethod },
      transactionId: "1F",
      gatewayTest: true,
      submissionNumber: "00001A",
    });
    expect(schema.validate(status)).toEqual({ valid: true, errors: [] });
    // The schema is the judge: a method it does not enumerate is refused.
    expect(schema.validate(accounts.replace(`<Method>${authMethod}</Method>`, "<Method>MD5</Method>")).valid).toBe(false);
  });
});
