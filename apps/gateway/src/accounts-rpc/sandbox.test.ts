import { AppError, GATEWAY_RPC_QUEUE, SandboxFiling, SandboxOverview } from "@dormant/contracts";
import { rejectionOf } from "@dormant/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sandboxFilingId } from "../sandbox/filing-id.ts";
import { SANDBOX_COMPANIES } from "@dormant/contracts";
import { createGatewayRpcHarness, type GatewayRpcHarness } from "../test-support/gateway-rpc-harness.ts";
import { get } from "../test-support/requests.ts";

const UNKNOWN_ACCOUNT = "acc_unknown0000000000";

describe("gateway.rpc sandbox reads (sandbox_filing, sandbox_overview) on a test vhost", () => {
  let h: GatewayRpcHarness;
  beforeAll(async () => {
    h = await createGatewayRpcHarness("sandbox");
  });
  afterAll(async () => {
    await h?.close();
  });

  const rpc = {
    filing: (account_id: string, filing_id: string) =>
      h.client.rpcCall(GATEWAY_RPC_QUEUE, "gateway.sandbox_filing", { account_id, filing_id }),
    overview: (account_id: string) => h.client.rpcCall(GATEWAY_RPC_QUEUE, "gateway.sandbox_overview", { account_id }),
  };
  const idFor = (type: "ct600" | "accounts", companyNumber: string) =>
    sandboxFilingId("any secret: polls derive everything from the id", type, companyNumber, `key-${companyNumber}`, { companyNumber });

  it("answers a sandbox filing id exactly as a test key's poll of it does", async () => {
    const { accountId, testKey } = h.gw.account;
    for (const [type, companyNumber] of [
      ["ct600", "00000001"],
      ["accounts", "00000001"],
      ["ct600", "00000002"],
      ["accounts", "00000004"],
      ["ct600", "12345678"],
    ] as const) {
      const filingId = idFor(type, companyNumber);
      const answer = SandboxFiling.strict().parse(await rpc.filing(accountId, filingId));
      const polled = await get(h.gw.app, `/filings/${filingId}`, testKey);
      expect(polled.status).toBe(200);
      expect(answer).toEqual(polled.body.data);
    }
    expect(await rpc.filing(accountId, idFor("ct600", "00000002"))).toMatchObject({
      status: "rejected",
      error: { code: "TAX_UTR_MISMATCH" },
    });
  });

  it("answers NOT_FOUND for an id that is not a sandbox filing id (live ids too), and for an unknown account", async () => {
    const { accountId } = h.gw.account;
    for (const bad of ["fil_0123456789abcdef", "fil_test_ct600_00000001_XYZ", "fil_test_vat_00000001_0123456789abcdef", "nonsense"]) {
      expect(await rejectionOf(rpc.filing(accountId, bad), AppError)).toMatchObject({ code: "NOT_FOUND", retryable: false });
    }
    expect(await rejectionOf(rpc.filing(UNKNOWN_ACCOUNT, idFor("ct600", "00000001")), AppError)).toMatchObject({ code: "NOT_FOUND" });
    expect(await rejectionOf(rpc.overview(UNKNOWN_ACCOUNT), AppError)).toMatchObject({ code: "NOT_FOUND" });
  });

  it("overview: a test key's GET /filings answer and the whole sandbox table, the any-other-company row last", async () => {
    const { accountId, testKey } = h.gw.account;
    const overview = SandboxOverview.parse(await rpc.overview(accountId));
    const listed = await get(h.gw.app, "/filings", testKey);
    expect(listed.status).toBe(200);
    expect(overview.list).toEqual(listed.body.data);
    expect(overview.scenarios.map((r) => r.company_number)).toEqual([...Object.keys(SANDBOX_COMPANIES), null]);
    expect(overview.scenarios[0]).toEqual({
      company_number: "00000001",
      jurisdiction: "England/Wales",
      outcome: "accepted",
      reason: "standard success",
    });
    expect(overview.scenarios.at(-1)).toMatchObject({ company_number: null, outcome: "accepted", reason: "any other company number" });
  });
});
