import { buildCt600SubmitMessage, computeIRmark, type Ct600NilReturnInput, type Ct600SubmitMessage } from "@dormant/govtalk";

/** A dormant nil return submission built by @dormant/govtalk, as a submitter would send it. */
export function nilReturn(overrides: Partial<Ct600NilReturnInput> = {}): Ct600SubmitMessage {
  return buildCt600SubmitMessage({
    utr: "8596148860",
    companyName: "Lovelace Engines Limited",
    companyNumber: "00000001",
    periodStart: "2025-04-01",
    periodEnd: "2026-03-31",
    declarantName: "Augusta Ada Lovelace",
    declarantStatus: "Director",
    vendorId: "1234",
    productName: "Dormant Filing Platform",
    productVersion: "1.0.0",
    gatewayTest: true,
    senderId: "GGUSER01",
    password: "correct horse",
    ...overrides,
  });
}

/** The message with `from` replaced by `to`, its IRmark recomputed (a well-signed but altered return). */
export function alteredAndResigned(xml: string, from: string | RegExp, to: string): string {
  const altered = xml.replace(from, to);
  if (altered === xml) throw new Error(`nothing to replace: ${String(from)}`);
  const irmark = computeIRmark(altered).base64;
  return altered.replace(/<IRmark Type="generic">[^<]*<\/IRmark>/, `<IRmark Type="generic">${irmark}</IRmark>`);
}
