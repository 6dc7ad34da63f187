import { SANDBOX_SCENARIO_NAMES, type SandboxScenarioName } from "@dormant/contracts";

/**
 * The sandbox's scenarios: what each authority decides for a company, for every scenario of the
 * public spec's sandbox table, in one place. Numbers marked "sim-chosen" are not published by the
 * authority; the others are real codes.
 */

/** A rule-level error of a tax business rejection (the `Body/ErrorResponse` items). */
export interface TaxRuleError {
  number: number;
  text: string;
  location?: string;
  /** `Type` when it is not `business` (HMRC's iXBRL checks: e.g. `xbrl.ixbrl.HeaderAbsent`). */
  type?: string;
}

/** The tax authority's final answer to a submission. */
export type TaxOutcome =
  | { kind: "accept" }
  /** Error 3001 (business validation failed) with rule errors in the body. */
  | { kind: "business-errors"; rules: TaxRuleError[] }
  /**
   * A single standard GovTalk error (texts: @dormant/govtalk's TAX_ERRORS, or `text`): a
   * scenario's 3304 or 1000, or the back end's schema (1001) and IRmark (2021, 2022) refusals.
   */
  | { kind: "error"; number: 3304 | 1000 | 1001 | 2021 | 2022; text?: string }
  | { kind: "no-answer" };

export interface RegistryReject {
  code: string;
  description: string;
}

/** The registry's final status for a submission (after PENDING). */
export type RegistryOutcome =
  | { kind: "accept" }
  | { kind: "reject"; rejections: RegistryReject[] }
  /** PARKED for one more outcome delay, then ACCEPT. */
  | { kind: "parked-then-accept" }
  | { kind: "internal-failure" }
  | { kind: "no-answer" };

export interface Scenario {
  name: ScenarioName;
  description: string;
  /** Outcome ready at the first poll (no waiting for the outcome delay). */
  immediate: boolean;
  tax: TaxOutcome;
  registry: RegistryOutcome;
  /** False: the registry public data API answers 404 for the company. */
  knownToRegistry: boolean;
}

/** The scenario names are the shared sandbox table's (`@dormant/contracts`). */
export const SCENARIO_NAMES = SANDBOX_SCENARIO_NAMES;
export type ScenarioName = SandboxScenarioName;

export const AUTH_CODE_INVALID: RegistryReject = { code: "601", description: "Company authentication code invalid" };

export const SCENARIOS: Record<ScenarioName, Scenario> = {
  accepted: {
    name: "accepted",
    description: "standard success",
    immediate: false,
    tax: { kind: "accept" },
    registry: { kind: "accept" },
    knownToRegistry: true,
  },
  "accepted-immediately": {
    name: "accepted-immediately",
    description: "immediate success: the outcome is ready at the first poll",
    immediate: true,
    tax: { kind: "accept" },
    registry: { kind: "accept" },
    knownToRegistry: true,
  },
  "utr-mismatch": {
    name: "utr-mismatch",
    description: "UTR does not match company records",
    immediate: false,
    tax: {
      kind: "business-errors",
      rules: [
        {
          number: 9601,
          text: "The UTR supplied does not match the records held for this company registration number.",
          location: "/hd:GovTalkMessage[1]/hd:Body[1]/ct:IRenvelope[1]/ct:CompanyTaxReturn[1]/ct:CompanyInformation[1]/ct:Reference[1]",
        },
      ],
    },
    registry: {
      kind: "reject",
      rejections: [{ code: "211", description: "The company details supplied do not match the company records" }],
    },
    knownToRegistry: true,
  },
  "already-filed": {
    name: "already-filed",
    description: "period already filed",
    immediate: false,
    tax: { kind: "error", number: 3304 },
    registry: {
      kind: "reject",
      rejections: [{ code: "262", description: "Accounts for this period have already been filed" }],
    },
    knownToRegistry: true,
  },
  "gateway-timeout": {
    name: "gateway-timeout",
    description: "gateway time-out: the submission is acknowledged, then polls are never answered",
    immediate: false,
    tax: { kind: "no-answer" },
    registry: { kind: "no-answer" },
    knownToRegistry: true,
  },
  "company-dissolved": {
    name: "company-dissolved",
    description: "company dissolved",
    immediate: false,
    tax: {
      kind: "business-errors",
      rules: [{ number: 9602, text: "The company is dissolved: no return can be accepted for it." }],
    },
    registry: { kind: "reject", rejections: [{ code: "304", description: "The company has been dissolved" }] },
    knownToRegistry: true,
  },
  "auth-code-invalid": {
    name: "auth-code-invalid",
    description: "company authentication code invalid",
    immediate: false,
    tax: {
      kind: "business-errors",
      rules: [{ number: 9603, text: "The company's authentication details are invalid for this registration number." }],
    },
    registry: { kind: "reject", rejections: [AUTH_CODE_INVALID] },
    knownToRegistry: true,
  },
  "parked-then-accepted": {
    name: "parked-then-accepted",
    description: "registry: PARKED for one outcome delay, then ACCEPT; tax: accepted",
    immediate: false,
    tax: { kind: "accept" },
    registry: { kind: "parked-then-accept" },
    knownToRegistry: true,
  },
  "internal-failure": {
    name: "internal-failure",
    description: "registry: INTERNAL_FAILURE; tax: error 1000 system failure",
    immediate: false,
    tax: { kind: "error", number: 1000 },
    registry: { kind: "internal-failure" },
    knownToRegistry: true,
  },
  "company-not-found": {
    name: "company-not-found",
    description: "company unknown at the registry",
    immediate: false,
    tax: { kind: "business-errors", rules: [{ number: 9604, text: "The company registration number is not recognised." }] },
    registry: { kind: "reject", rejections: [{ code: "310", description: "Company number not found" }] },
    knownToRegistry: false,
  },
};
