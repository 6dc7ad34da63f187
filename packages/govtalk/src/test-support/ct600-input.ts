import type { Ct600NilReturnInput } from "../ct600/nil-return-input.ts";

/** A valid nil return input for tests; override what the test is about. */
export function nilReturnInput(overrides: Partial<Ct600NilReturnInput> = {}): Ct600NilReturnInput {
  return {
    utr: "8596148860",
    companyName: "Dormant Example Limited",
    companyNumber: "00000001",
    periodStart: "2024-04-01",
    periodEnd: "2025-03-31",
    declarantName: "Ada Lovelace",
    declarantStatus: "Director",
    vendorId: "1234",
    productName: "Dormant Filing Platform",
    productVersion: "1.0.0",
    gatewayTest: true,
    senderId: "GGUSER01",
    password: "s3cret-P@ss&<word>",
    ...overrides,
  };
}
