import { maskGatewayPassword, md5Hex, parseCt600Response } from "@dormant/govtalk";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { resetSimContext } from "../context.ts";
import type { SimServer } from "../server.ts";
import { ReceivedBodies } from "../state/received-bodies.ts";
import { maskedBody } from "../state/masked-body.ts";
import { accountsSubmission, SIM_PRESENTER } from "../test-support/registry-messages.ts";
import { nilReturn } from "../test-support/tax-messages.ts";
import { control, postXml, startTestSim } from "../testing/test-sim.ts";

let sim: SimServer;
beforeAll(async () => {
  sim = await startTestSim();
});
afterAll(() => sim.close());
beforeEach(() => resetSimContext(sim.context));

interface Listed {
  seq: number;
  kind: string;
  body?: string | null;
  bodyTruncated?: boolean;
}

async function received(query: string): Promise<Listed[]> {
  return ((await control(sim, "GET", `/received?${query}`)).json as { items: Listed[] }).items;
}

describe("GET /_control/received?body=true: what was sent, secrets masked", () => {
  it("tax: each request's raw body with the password masked, every other byte as sent", async () => {
    const message = nilReturn({ password: "correct horse" });
    const ack = parseCt600Response((await postXml(sim.urls.taxSubmission, message.xml)).text);
    if (ack.type !== "acknowledgement") throw new Error(`not acknowledged: ${ack.type}`);
    const [submit] = await received("target=tax&kind=submit&body=true");
    expect(submit?.body).toBe(maskGatewayPassword(message.xml));
    expect(submit?.body).toBe(message.maskedXml);
    expect(submit?.body).not.toContain("correct horse");
    // Without ?body=true, no body.
    expect((await received("target=tax&kind=submit"))[0]).not.toHaveProperty("body");
  });

  it("registry: the presenter's SenderID and Value and the CompanyAuthenticationCode masked; the accounts kept", async () => {
    const message = accountsSubmission("00000001", { companyAuthCode: "Z9Y8X7" });
    expect((await postXml(sim.urls.registryGateway, message.xml)).status).toBe(200);
    const [submit] = await received("target=registry&kind=submit&body=true");
    const body = submit?.body ?? "";
    for (const secret of [md5Hex(SIM_PRESENTER.presenterId), md5Hex(SIM_PRESENTER.presenterAuthCode), "Z9Y8X7"])
      expect(body).not.toContain(secret);
    expect(body).toMatch(/<SenderID>\*{8}<\/SenderID>/);
    expect(body).toMatch(/<Value>\*{8}<\/Value>/);
    expect(body).toMatch(/<CompanyAuthenticationCode>\*{8}<\/CompanyAuthenticationCode>/);
    // Nothing else changed: the base64 accounts are there as sent.
    const data = /<Data>([^<]+)<\/Data>/.exec(message.xml)?.[1] ?? "no data";
    expect(body).toContain(data);
  });

  it("withholds a body whose secrets cannot be masked with certainty (null), and keeps none for the data API", async () => {
    const message = accountsSubmission("00000001");
    const cdata = message.xml.replace(
      /<CompanyAuthenticationCode>([^<]*)<\/CompanyAuthenticationCode>/,
      "<CompanyAuthenticationCode><![CDATA[$1]]></CompanyAuthenticationCode>",
    );
    expect(maskedBody("registry", cdata)).toBeUndefined();
    expect(maskedBody("tax", "<not-xml Value")).toBeUndefined();
    await fetch(`${sim.urls.registryData}/company/00000001`, {
      headers: { authorization: `Basic ${Buffer.from("sim-registry-data-key:").toString("base64")}` },
    });
    expect((await received("target=registry-data&body=true"))[0]).toMatchObject({ kind: "profile", body: null });
  });
});

describe("ReceivedBodies: memory stays bounded", () => {
  it("keeps the most recent bodies within the budget and cuts a long one", () => {
    const bodies = new ReceivedBodies(100, 40);
    for (let seq = 1; seq <= 5; seq += 1) bodies.put(seq, "x".repeat(30));
    expect(bodies.chars).toBeLessThanOrEqual(100);
    expect(bodies.get(1)).toBeUndefined();
    expect(bodies.get(5)).toEqual({ text: "x".repeat(30), truncated: false });
    bodies.put(6, "y".repeat(50));
    expect(bodies.get(6)).toEqual({ text: "y".repeat(40), truncated: true });
    bodies.clear();
    expect(bodies.chars).toBe(0);
    const none = new ReceivedBodies(0);
    none.put(1, "x");
    expect(none.get(1)).toBeUndefined();
  });
});
