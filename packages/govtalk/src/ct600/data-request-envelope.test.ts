import { existsSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { compileSchema } from "../xsd/compiled-schema.ts";
import { hmrcTestdataPath } from "../test-support/testdata.ts";
import { buildCt600DataResponse } from "./answers/data-response.ts";
import { buildCt600DataRequest } from "./data-request.ts";

const ENVELOPE_XSD = hmrcTestdataPath("envelope-v2-0-HMRC.xsd");

/**
 * HMRC's GovTalk envelope schema, compiled offline: its one import (W3C xmldsig, by URL) is
 * referenced only by the `W3Csigned` branch of `Authentication` (`dsig:Signature`, the
 * alternative to `Value`), which these messages never use; that branch is replaced by a local
 * element so that nothing is fetched. Everything else is HMRC's schema as published.
 */
function offlineEnvelopeSchema(): string {
  const xsd = readFileSync(ENVELOPE_XSD, "utf8");
  const withoutImport = xsd.replace(/<xsd:import namespace="http:\/\/www\.w3\.org\/2000\/09\/xmldsig#"[^>]*\/>/, "");
  const withoutSignature = withoutImport.replace('ref="dsig:Signature"', 'name="Signature" type="xsd:anyType"');
  if (withoutImport === xsd || withoutSignature === withoutImport)
    throw new Error("the envelope schema changed: update offlineEnvelopeSchema");
  return withoutSignature;
}

describe.skipIf(!existsSync(ENVELOPE_XSD))("DATA_REQUEST messages against HMRC's envelope schema (envelope-v2-0-HMRC.xsd)", () => {
  it("the request (with and without a window) and the simulator's answer are valid envelopes; the schema refuses what it should", async () => {
    const schema = await compileSchema(offlineEnvelopeSchema(), `file://${ENVELOPE_XSD}`);
    const plain = buildCt600DataRequest({ senderId: "GGUSER01", password: "correct horse", gatewayTest: true }).xml;
    const windowed = buildCt600DataRequest({
      senderId: "GGUSER01",
      password: "p&ss<word>",
      gatewayTest: false,
      startTimeStamp: Date.UTC(2026, 10, 25, 9, 0, 0),
      endTimeStamp: new Date(),
      channel: { vendorId: "1234", productName: "Dormant Filing Platform", productVersion: "1.0.0" },
    }).xml;
    expect(schema.validate(plain)).toEqual({ valid: true, errors: [] });
    expect(schema.validate(windowed)).toEqual({ valid: true, errors: [] });
    const answer = buildCt600DataResponse({
      senderId: "GGUSER01",
      startTimeStamp: "25/11/2026 09:00:00",
      endTimeStamp: "25/11/2026 10:00:00",
      records: [
        {
          timestamp: "25/11/2026 09:10:00",
          correlationId: "0A1B",
          transactionId: "ABCDEF0123456789ABCDEF0123456789",
          status: "SUBMISSION_RESPONSE",
        },
      ],
      transactionId: "ABCDEF",
      responseEndPoint: { url: "https://transaction-engine.tax.service.gov.uk/poll", pollIntervalSeconds: 10 },
      gatewayTest: true,
      gatewayTimestamp: "2026-11-25T10:00:00.000",
    });
    expect(schema.validate(answer)).toEqual({ valid: true, errors: [] });
    // The schema is the judge: a Function it does not enumerate, or a lower-case CorrelationID, is refused.
    expect(schema.validate(plain.replace("<Function>list</Function>", "<Function>lists</Function>")).valid).toBe(false);
    expect(schema.validate(plain.replace("<CorrelationID/>", "<CorrelationID>abc</CorrelationID>")).valid).toBe(false);
  });
});
