import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { credentialsBinding, DOCUMENT_CHUNK_MAX_BYTES, FILING_RPC_CATALOG, FILING_RPC_QUEUE, MessageTypeName, sealSecret, sealingKeyFromBase64 } from "../index.ts";

const caller = { account_id: "acc_1", key_id: "key_1", mode: "live" as const, request_id: "3f0c1b7e-2f4d-4c59-9a4e-8d7a1c0b5e21" };
const key = sealingKeyFromBase64("k1", randomBytes(32).toString("base64"));

describe("filing RPC catalog", () => {
  it("serves every filing RPC on filing.rpc, as dotted message types", () => {
    for (const [type, definition] of Object.entries(FILING_RPC_CATALOG)) {
      expect(MessageTypeName.safeParse(type).success).toBe(true);
      expect(definition.queue).toBe(FILING_RPC_QUEUE);
    }
  });

  it("carries a submit without clear credentials and refuses one with them", () => {
    const filing = { company_number: "00000001", utr: "1234567890", period_end: "2024-03-31" };
    const sealed = sealSecret({ government_gateway_id: "u", government_gateway_password: "p" }, key, credentialsBinding("acc_1", "idem-1"));
    expect(FILING_RPC_CATALOG["filing.submit_ct600"].request.safeParse({ caller, idempotency_key: "idem-1", filing, credentials: sealed }).success).toBe(true);
    const clear = { ...filing, credentials: { government_gateway_id: "u", government_gateway_password: "p" } };
    expect(FILING_RPC_CATALOG["filing.submit_ct600"].request.safeParse({ caller, idempotency_key: "idem-1", filing: clear, credentials: sealed }).success).toBe(false);
  });

  it("validates list criteria as numbers within the page limits", () => {
    expect(FILING_RPC_CATALOG["filing.list"].request.safeParse({ caller, criteria: { limit: 20, offset: 0 } }).success).toBe(true);
    expect(FILING_RPC_CATALOG["filing.list"].request.safeParse({ caller, criteria: { limit: 101, offset: 0 } }).success).toBe(false);
  });
});

describe("document RPCs", () => {
  const document = { caller, filing_id: "fil_abc", document_type: "ct600_xml" };

  it("take an optional part of a split CT600: 1 or 2", () => {
    const request = FILING_RPC_CATALOG["filing.get_document"].request;
    expect(request.safeParse(document).success).toBe(true);
    expect(request.safeParse({ ...document, part: 2 }).success).toBe(true);
    expect(request.safeParse({ ...document, part: 3 }).success).toBe(false);
    expect(request.safeParse({ ...document, part: 0 }).success).toBe(false);
  });

  it("hand out slices of at most DOCUMENT_CHUNK_MAX_BYTES from any offset", () => {
    const request = FILING_RPC_CATALOG["filing.get_document_chunk"].request;
    expect(request.safeParse({ ...document, offset: 0, length: DOCUMENT_CHUNK_MAX_BYTES }).success).toBe(true);
    expect(request.safeParse({ ...document, part: 2, offset: 5_000_000, length: 1 }).success).toBe(true);
    expect(request.safeParse({ ...document, offset: 0, length: DOCUMENT_CHUNK_MAX_BYTES + 1 }).success).toBe(false);
    expect(request.safeParse({ ...document, offset: -1, length: 10 }).success).toBe(false);
    expect(request.safeParse({ ...document, offset: 0, length: 0 }).success).toBe(false);
  });
});
