import { describe, expect, it } from "vitest";
import { readGovTalkEnvelope } from "../envelope/read-envelope.ts";
import { GovTalkInputError } from "../errors.ts";
import { buildCt600DeleteMessage } from "./delete-message.ts";
import { serializeMessage, startGovTalkMessage } from "../envelope/write-envelope.ts";
import { buildCt600PollMessage } from "./poll-message.ts";

/** The poll or delete as serialising the whole tree writes it (how they were built before templates). */
function serialisedTree(qualifier: "poll" | "request", fn: "submit" | "delete", correlationId: string, gatewayTest: boolean): string {
  const { document, root } = startGovTalkMessage({
    envelopeVersion: "2.0",
    class: "HMRC-CT-CT600",
    qualifier,
    function: fn,
    correlationId,
    transformation: "XML",
    gatewayTest,
  });
  root.ele("GovTalkDetails").ele("Keys");
  root.ele("Body");
  return serializeMessage(document);
}

describe("poll and delete messages", () => {
  it("builds a poll: same class, CorrelationID, no SenderDetails, empty Body", () => {
    const envelope = readGovTalkEnvelope(buildCt600PollMessage({ correlationId: "0123456789ABCDEF0123456789ABCDEF", gatewayTest: true }));
    expect(envelope).toMatchObject({
      envelopeVersion: "2.0",
      class: "HMRC-CT-CT600",
      qualifier: "poll",
      function: "submit",
      correlationId: "0123456789ABCDEF0123456789ABCDEF",
      transformation: "XML",
      gatewayTest: true,
      sender: undefined,
      keys: [],
    });
    expect(envelope.body?.childNodes.length ?? 0).toBe(0);
  });

  it("builds a delete request", () => {
    const envelope = readGovTalkEnvelope(buildCt600DeleteMessage({ correlationId: "AB12", gatewayTest: false }));
    expect(envelope).toMatchObject({
      qualifier: "request",
      function: "delete",
      correlationId: "AB12",
      gatewayTest: false,
      sender: undefined,
    });
  });

  it.each(["", "ab12", "XYZ", "0".repeat(33)])("refuses the CorrelationID %j", (correlationId) => {
    expect(() => buildCt600PollMessage({ correlationId, gatewayTest: true })).toThrow(GovTalkInputError);
    expect(() => buildCt600DeleteMessage({ correlationId, gatewayTest: true })).toThrow(GovTalkInputError);
  });

  it.each([
    ["0123456789ABCDEF0123456789ABCDEF", true],
    ["AB12", false],
    ["F", true],
  ] as const)("writes %s (GatewayTest %s) byte for byte as serialising the whole message did", (correlationId, gatewayTest) => {
    expect(buildCt600PollMessage({ correlationId, gatewayTest })).toBe(serialisedTree("poll", "submit", correlationId, gatewayTest));
    expect(buildCt600DeleteMessage({ correlationId, gatewayTest })).toBe(serialisedTree("request", "delete", correlationId, gatewayTest));
  });
});
