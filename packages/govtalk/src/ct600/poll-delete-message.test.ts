import { describe, expect, it } from "vitest";
import { readGovTalkEnvelope } from "../envelope/read-envelope.ts";
import { GovTalkInputError } from "../errors.ts";
import { buildCt600DeleteMessage } from "./delete-message.ts";
import { buildCt600PollMessage } from "./poll-message.ts";

describe("poll and delete messages", () => {
  it("builds a poll: same class, CorrelationID, no SenderDetails, empty Body", () => {
    const envelope = readGovTalkEnvelope(buildCt600PollMessage({ correlationId: "0123456789ABCDEF0123456789ABCDEF", gatewayTest: true }));
    expect(envelope).toMatchObject({
      envelopeVersion: "2.0", class: "HMRC-CT-CT600", qualifier: "poll", function: "submit",
      correlationId: "0123456789ABCDEF0123456789ABCDEF", transformation: "XML", gatewayTest: true, sender: undefined, keys: [],
    });
    expect(envelope.body?.childNodes.length ?? 0).toBe(0);
  });

  it("builds a delete request", () => {
    const envelope = readGovTalkEnvelope(buildCt600DeleteMessage({ correlationId: "AB12", gatewayTest: false }));
    expect(envelope).toMatchObject({ qualifier: "request", function: "delete", correlationId: "AB12", gatewayTest: false, sender: undefined });
  });

  it.each(["", "ab12", "XYZ", "0".repeat(33)])("refuses the CorrelationID %j", (correlationId) => {
    expect(() => buildCt600PollMessage({ correlationId, gatewayTest: true })).toThrow(GovTalkInputError);
    expect(() => buildCt600DeleteMessage({ correlationId, gatewayTest: true })).toThrow(GovTalkInputError);
  });
});
