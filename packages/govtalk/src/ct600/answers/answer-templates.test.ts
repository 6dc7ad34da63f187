import { describe, expect, it } from "vitest";
import { parseCt600Response } from "../parse-response.ts";
import { buildCt600Acknowledgement, serialiseCt600Acknowledgement } from "./acknowledgement.ts";
import { buildCt600DeleteResponse, serialiseCt600DeleteResponse } from "./delete-response.ts";
import { buildCt600SuccessResponse, serialiseSuccess } from "./success-response.ts";

const correlationIds = ["0123456789ABCDEF0123456789ABCDEF", "A&B<C>\"D'"];
const urls = ["http://127.0.0.1:4100/tax/poll", "https://example.test/poll?a=1&b=<2>"];
const timestamps = ["2026-11-22T06:00:00.000", ""];

describe("simulator answers written over a serialised template", () => {
  it("gives the acknowledgement the whole tree gives, for every value (escaped, empty, odd intervals)", () => {
    for (const correlationId of correlationIds) {
      for (const responseEndPoint of urls) {
        for (const gatewayTimestamp of timestamps) {
          for (const pollIntervalSeconds of [1, 10, 0.5]) {
            const input = { correlationId, responseEndPoint, gatewayTimestamp, pollIntervalSeconds };
            expect(buildCt600Acknowledgement(input)).toBe(serialiseCt600Acknowledgement(input));
          }
        }
      }
    }
    expect(buildCt600Acknowledgement({ correlationId: "AB", responseEndPoint: "u", pollIntervalSeconds: 1 })).toBe(
      serialiseCt600Acknowledgement({ correlationId: "AB", responseEndPoint: "u", pollIntervalSeconds: 1 }),
    );
    const read = parseCt600Response(
      buildCt600Acknowledgement({ correlationId: "AB12", responseEndPoint: urls[1]!, pollIntervalSeconds: 7, gatewayTimestamp: "t" }),
    );
    expect(read).toMatchObject({ type: "acknowledgement", correlationId: "AB12", pollIntervalSeconds: 7, responseEndPoint: urls[1] });
  });

  it("gives the success response the whole tree gives", () => {
    const irmark = "YrgW02ybxWOff7gHrELynhp1gRw=";
    for (const correlationId of correlationIds) {
      for (const responseEndPoint of [...urls, undefined]) {
        for (const gatewayTimestamp of [...timestamps, undefined]) {
          for (const pollIntervalSeconds of [1, undefined]) {
            for (const utr of ["8596148860", "<&>"]) {
              const input = {
                correlationId,
                irmark,
                utr,
                acceptedTime: "2026-09-29T00:33:06.257",
                responseEndPoint,
                gatewayTimestamp,
                pollIntervalSeconds,
              };
              const built = buildCt600SuccessResponse(input);
              const tree = serialiseSuccess(
                input,
                built
                  .match(/<Message code="0000">([^<]*)<\/Message>/)![1]!
                  .replace(/&lt;/g, "<")
                  .replace(/&gt;/g, ">")
                  .replace(/&amp;/g, "&"),
              );
              expect(built).toBe(tree);
            }
          }
        }
      }
    }
  });

  it("gives the delete response the whole tree gives", () => {
    for (const correlationId of correlationIds) {
      for (const gatewayTimestamp of [...timestamps, undefined]) {
        expect(buildCt600DeleteResponse({ correlationId, gatewayTimestamp })).toBe(
          serialiseCt600DeleteResponse({ correlationId, gatewayTimestamp }),
        );
      }
    }
  });
});
