import type { GovTalkErrorInput } from "../../envelope/govtalk-error.ts";

/** The tax authority's standard GovTalk errors, as its transaction engine words them. */
export const TAX_ERRORS = {
  1000: {
    raisedBy: "Department",
    number: 1000,
    type: "fatal",
    text: "System failure. The submission of this document has failed due to an internal system error. Please try again later.",
  },
  1001: {
    raisedBy: "Department",
    number: 1001,
    type: "fatal",
    text: "The submitted XML document either failed to validate against the schema, or contained an invalid value.",
  },
  1020: { raisedBy: "Gateway", number: 1020, type: "fatal", text: "The CorrelationID must be empty on a submission." },
  1046: {
    raisedBy: "Gateway",
    number: 1046,
    type: "fatal",
    text: "Authentication Failure. The supplied user credentials failed validation for the requested service.",
  },
  1047: { raisedBy: "Gateway", number: 1047, type: "fatal", text: "Authentication method MD5 is not supported for this service." },
  2000: {
    raisedBy: "Gateway",
    number: 2000,
    type: "fatal",
    text: "The CorrelationID is not recognised: the submission does not exist or has been deleted.",
  },
  2021: {
    raisedBy: "ChRIS",
    number: 2021,
    type: "business",
    text: "The IRmark in the submission does not match the IRmark computed by HMRC.",
  },
  2022: { raisedBy: "ChRIS", number: 2022, type: "business", text: "The submission does not contain an IRmark." },
  3001: {
    raisedBy: "ChRIS",
    number: 3001,
    type: "business",
    text: "Your submission failed due to business validation errors. Please see below for details.",
  },
  3304: { raisedBy: "ChRIS", number: 3304, type: "business", text: "The original return for this period has already been received." },
} as const satisfies Record<number, GovTalkErrorInput>;

export type TaxErrorNumber = keyof typeof TAX_ERRORS;

/** A standard tax error, optionally with a Location or other overrides. */
export function taxError(number: TaxErrorNumber, overrides: Partial<GovTalkErrorInput> = {}): GovTalkErrorInput {
  return { ...TAX_ERRORS[number], ...overrides };
}

/** An itemised business rule error for `Body/ErrorResponse` (e.g. 9100, 9101), raised by ChRIS. */
export function taxRuleError(number: number, text: string, location = ""): GovTalkErrorInput {
  return { raisedBy: "ChRIS", number, type: "business", text, location };
}
