import { describe, expect, it } from "vitest";
import {
  FILING_ERROR_CODES,
  FILING_OUTCOMES_QUEUE,
  Filing,
  FilingErrorCode,
  PLATFORM_MESSAGE_CATALOG,
  PollRegistryStatusCommand,
  RegistryStatusReport,
} from "../index.ts";

const report = {
  filing_id: "fil_abc",
  submission_number: "00000A",
  registry_status: "PARKED",
  examiner_comment: "Held for examination",
  polled_at: "2026-05-02T10:00:00.000Z",
};

const command = {
  filing_id: "fil_abc",
  submission_number: "00000A",
  company_number: "00000006",
  poll_interval_seconds: 60,
  give_up_at: "2026-05-15T10:00:00.000Z",
  poll_number: 3,
};

describe("registry.status (the registry's undecided status, on filing.outcomes)", () => {
  it("is a command on filing.outcomes, retried like the outcomes", () => {
    const definition = PLATFORM_MESSAGE_CATALOG["registry.status"];
    expect(definition.route).toEqual({ kind: "command", queue: FILING_OUTCOMES_QUEUE });
    expect(definition.retry).toEqual(PLATFORM_MESSAGE_CATALOG["registry.outcome"].retry);
  });

  it("carries PENDING or PARKED only: a final status is a registry.outcome", () => {
    expect(RegistryStatusReport.safeParse(report).success).toBe(true);
    const { examiner_comment: _, ...withoutComment } = report;
    expect(RegistryStatusReport.safeParse({ ...withoutComment, registry_status: "PENDING" }).success).toBe(true);
    for (const code of ["ACCEPT", "REJECT", "INTERNAL_FAILURE", "parked"]) {
      expect(RegistryStatusReport.safeParse({ ...report, registry_status: code }).success, code).toBe(false);
    }
    expect(RegistryStatusReport.safeParse({ ...report, polled_at: "yesterday" }).success).toBe(false);
  });
});

describe("registry.poll_status", () => {
  it("accepts a command without a reported status (commands published before it existed) and one with it", () => {
    expect(PollRegistryStatusCommand.safeParse(command).success).toBe(true);
    const parsed = PollRegistryStatusCommand.parse({ ...command, reported_status: { code: "PENDING", since: "2026-05-01T10:00:05.000Z" } });
    expect(parsed.reported_status).toEqual({ code: "PENDING", since: "2026-05-01T10:00:05.000Z" });
    expect(
      PollRegistryStatusCommand.safeParse({ ...command, reported_status: { code: "ACCEPT", since: "2026-05-01T10:00:05.000Z" } }).success,
    ).toBe(false);
  });
});

describe("the public Filing", () => {
  const accounts = {
    filing_id: "fil_abc",
    filing_type: "accounts",
    company_number: "00000006",
    company_name: "LOVELACE ENGINES LIMITED",
    period: { start: "2025-04-01", end: "2026-03-31" },
    status: "submitted",
    period_split: false,
    registry_status: "submitted",
    registry_submission_number: "00000A",
    created_at: "2026-05-01T10:00:00.000Z",
    updated_at: "2026-05-02T10:00:00.000Z",
  };

  it("shows the registry's examination of submitted accounts, and stays valid without it", () => {
    expect(Filing.safeParse(accounts).success).toBe(true);
    const examined = {
      ...accounts,
      registry_examination: { status_code: "PARKED", since: "2026-05-02T10:00:00.000Z", examiner_comment: "Held for examination" },
    };
    expect(Filing.parse(examined).registry_examination).toEqual(examined.registry_examination);
    expect(
      Filing.safeParse({ ...accounts, registry_examination: { status_code: "ACCEPT", since: "2026-05-02T10:00:00.000Z" } }).success,
    ).toBe(false);
  });

  it("has an error code of its own for accounts the registry did not decide within the horizon, distinct from a time-out", () => {
    expect(FilingErrorCode.options).toContain("REGISTRY_NO_DECISION");
    expect(FILING_ERROR_CODES.REGISTRY_NO_DECISION.status).toBe("error");
    expect(FILING_ERROR_CODES.REGISTRY_NO_DECISION.description).toMatch(/PENDING.*PARKED/);
    expect(FILING_ERROR_CODES.GATEWAY_TIMEOUT.status).toBe("error");
  });
});
