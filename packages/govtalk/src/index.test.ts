import { describe, expect, it } from "vitest";
import * as govtalk from "./index.ts";

describe("@dormant/govtalk public API", () => {
  it("runs the whole CT600 exchange through the package entry point", () => {
    const { xml, irmark } = govtalk.buildCt600SubmitMessage({
      utr: "1234567890",
      companyName: "Entry Point Ltd",
      companyNumber: "00000005",
      periodStart: "2025-01-01",
      periodEnd: "2025-12-31",
      declarantName: "Grace Hopper",
      declarantStatus: "Director",
      vendorId: "0001",
      productName: "p",
      productVersion: "1",
      gatewayTest: true,
      senderId: "user",
      password: "pw",
    });
    const request = govtalk.parseCt600Request(xml);
    expect(request.kind === "submit" && request.irmarkStatus).toBe("valid");
    const ack = govtalk.parseCt600Response(
      govtalk.buildCt600Acknowledgement({ correlationId: "C0FFEE", pollIntervalSeconds: 1, responseEndPoint: "http://127.0.0.1/poll" }),
    );
    expect(ack).toMatchObject({ type: "acknowledgement", correlationId: "C0FFEE" });
    const poll = govtalk.parseCt600Request(govtalk.buildCt600PollMessage({ correlationId: "C0FFEE", gatewayTest: true }));
    expect(poll.kind).toBe("poll");
    const success = govtalk.parseCt600Response(
      govtalk.buildCt600SuccessResponse({
        correlationId: "C0FFEE",
        irmark: irmark.base64,
        utr: "1234567890",
        acceptedTime: "2026-01-01T10:00:00",
      }),
    );
    expect(success.type === "success" && govtalk.receiptConfirmsIRmark(success.receipt, irmark)).toBe(true);
    expect(govtalk.parseCt600Request(govtalk.buildCt600DeleteMessage({ correlationId: "C0FFEE", gatewayTest: true })).kind).toBe("delete");
    expect(govtalk.parseCt600Response(govtalk.buildCt600DeleteResponse({ correlationId: "C0FFEE" })).type).toBe("deleted");
    expect(govtalk.maskGatewayPassword(xml)).toContain(govtalk.PASSWORD_MASK);
  });
});
