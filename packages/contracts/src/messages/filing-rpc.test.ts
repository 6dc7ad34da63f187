import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  credentialsBinding,
  DOCUMENT_CHUNK_MAX_BYTES,
  FILING_RECONCILE_RPC_CATALOG,
  FILING_RPC_CATALOG,
  FILING_RPC_QUEUE,
  LIST_FINAL_PAGE,
  MessageTypeName,
  sealSecret,
  sealingKeyFromBase64,
} from "../index.ts";

const caller = { account_id: "acc_1", key_id: "key_1", mode: "live" as const, request_id: "3f0c1b7e-2f4d-4c59-9a4e-8d7a1c0b5e21" };
const key = sealingKeyFromBase64("k1", randomBytes(32).toString("base64"));

describe("filing RPC catalog", () => {
  it("serves every filing RPC on filing.rpc, as dotted message types", () => {
    for (const [type, definition] of Object.entries({ ...FILING_RPC_CATALOG, ...FILING_RECONCILE_RPC_CATALOG })) {
      expect(MessageTypeName.safeParse(type).success).toBe(true);
      expect(definition.queue).toBe(FILING_RPC_QUEUE);
    }
  });

  it("carries a submit without clear credentials and refuses one with them", () => {
    const filing = { company_number: "00000001", utr: "1234567890", period_end: "2024-03-31" };
    const sealed = sealSecret({ government_gateway_id: "u", government_gateway_password: "p" }, key, credentialsBinding("acc_1", "idem-1"));
    expect(
      FILING_RPC_CATALOG["filing.submit_ct600"].request.safeParse({ caller, idempotency_key: "idem-1", filing, credentials: sealed })
        .success,
    ).toBe(true);
    const clear = { ...filing, credentials: { government_gateway_id: "u", government_gateway_password: "p" } };
    expect(
      FILING_RPC_CATALOG["filing.submit_ct600"].request.safeParse({ caller, idempotency_key: "idem-1", filing: clear, credentials: sealed })
        .success,
    ).toBe(false);
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

describe("filing.list_final", () => {
  const { request, response } = FILING_RECONCILE_RPC_CATALOG["filing.list_final"];
  const window = { since: "2026-01-01T00:00:00.000Z", until: "2026-04-01T00:00:00.000Z" };
  const cursor = { finalized_at: "2026-02-03T04:05:06.789Z", filing_id: "fil_7Hc2kLmN0pQrStUv" };

  it("takes a window with an optional position, and a limit that defaults to a full page", () => {
    expect(request.parse(window)).toEqual({ ...window, limit: LIST_FINAL_PAGE.default });
    expect(request.parse({ ...window, after: cursor, limit: 2 })).toEqual({ ...window, after: cursor, limit: 2 });
    expect(request.safeParse({ since: "2026-01-01T00:00:00+01:00", until: "2026-01-01T00:00:00Z" }).success).toBe(true);
  });

  it("refuses an empty or reversed window, bad timestamps and limits beyond a page", () => {
    expect(request.safeParse({ since: window.since, until: window.since }).success).toBe(false);
    expect(request.safeParse({ since: window.until, until: window.since }).success).toBe(false);
    expect(request.safeParse({ since: "2026-01-01", until: window.until }).success).toBe(false);
    expect(request.safeParse({ until: window.until }).success).toBe(false);
    expect(request.safeParse({ ...window, limit: LIST_FINAL_PAGE.max + 1 }).success).toBe(false);
    expect(request.safeParse({ ...window, limit: 0 }).success).toBe(false);
    expect(request.safeParse({ ...window, after: { finalized_at: cursor.finalized_at } }).success).toBe(false);
    expect(request.safeParse({ ...window, after: { ...cursor, filing_id: "acc_1" } }).success).toBe(false);
  });

  it("answers final filings: the fee with every acceptance, none with a rejection or an error", () => {
    const accepted = { filing_id: "fil_a", account_id: "acc_1", status: "accepted", fee_pence: 2000, finalized_at: cursor.finalized_at };
    const rejected = { filing_id: "fil_b", account_id: "acc_1", status: "rejected", finalized_at: cursor.finalized_at };
    const errored = { ...rejected, filing_id: "fil_c", status: "error" };
    expect(response.parse({ filings: [accepted, rejected, errored], next: cursor })).toEqual({
      filings: [accepted, rejected, errored],
      next: cursor,
    });
    expect(response.parse({ filings: [] })).toEqual({ filings: [] });
    const { fee_pence: _, ...unpriced } = accepted;
    expect(response.safeParse({ filings: [unpriced] }).success).toBe(false);
    expect(response.safeParse({ filings: [{ ...rejected, status: "pending" }] }).success).toBe(false);
    expect(response.safeParse({ filings: [{ ...rejected, status: "submitted" }] }).success).toBe(false);
    expect(response.safeParse({ filings: [{ ...accepted, fee_pence: 0 }] }).success).toBe(false);
    expect(response.safeParse({ filings: Array.from({ length: LIST_FINAL_PAGE.max + 1 }, () => rejected) }).success).toBe(false);
  });
});
