import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import path from "node:path";
import {
  FILING_RPC_QUEUE,
  type AccountsSubmitResponse,
  type Ct600SubmitResponse,
  type DocumentType,
  type FilingRpcCaller,
} from "@dormant/contracts";
import { checkIxbrlConsistency, readIxbrl, renderDormantAccountsIxbrl, type DormantAccountsInput } from "@dormant/documents";
import { computeIRmark, CT600_XSD_URL, PASSWORD_MASK, validateCt600Body } from "@dormant/govtalk";
import { waitFor } from "@dormant/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFilingHarness, type FilingHarness, type ReceivedEvent } from "../testing/filing-harness.ts";
import { readPdf } from "../testing/read-pdf.ts";

// The documents of real accepted filings: the filing service, billing, both submitters and the
// authority simulator in-process; the PDFs are rendered by the filing.documents consumer on the
// filing.accepted event the outbox relay publishes, before anyone asks for them.
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../..");
const PASSWORD = "correct horse battery";
let h: FilingHarness;
let caller: FilingRpcCaller;
const filings = {} as Record<"single" | "split" | "accounts", { id: string; event: ReceivedEvent }>;

const download = async (filingId: string, type: DocumentType, part?: number) =>
  Buffer.from(
    (
      await h.peer.rpcCall(FILING_RPC_QUEUE, "filing.get_document", {
        caller,
        filing_id: filingId,
        document_type: type,
        ...(part ? { part } : {}),
      })
    ).content_base64,
    "base64",
  );
const pdfsOf = (filingId: string) => h.service.db.document.count({ where: { filingId, type: { in: ["ct600_pdf", "accounts_pdf"] } } });
const renderedBy = async (trigger: "event" | "request") =>
  (await h.service.metrics.getSingleMetric("filing_documents_rendered_total")!.get()).values
    .filter((v) => v.labels.trigger === trigger)
    .reduce((sum, v) => sum + v.value, 0);
/** The IRmark the message carries in its body. */
const declaredIRmark = (xml: string) => /<IRmark Type="generic">([^<]+)<\/IRmark>/.exec(xml)?.[1];

beforeAll(async () => {
  h = await startFilingHarness("documents", { billing: true, taxSubmitter: true, registrySubmitter: true });
  caller = h.caller({ account_id: await h.openAccount(10_000), key_id: "key_documents" });
  const [single, split, accounts] = (await Promise.all([
    h.submitCt600(caller, { company_number: "00000001", utr: "1234567890", period_end: "2026-03-31" }, { password: PASSWORD }),
    // 00000005 was incorporated on 2025-05-12: its first period, to 2026-10-31, is filed as two returns.
    h.submitCt600(caller, { company_number: "00000005", utr: "1234567890", period_end: "2026-10-31" }, { password: PASSWORD }),
    h.submitAccounts(caller, { company_number: "00000001", period_end: "2026-03-31", approval: { date: "2026-05-01" } }),
  ])) as [Ct600SubmitResponse, Ct600SubmitResponse, AccountsSubmitResponse];
  for (const [name, answer] of [
    ["single", single],
    ["split", split],
    ["accounts", accounts],
  ] as const) {
    const event = await h.waitForEvent(answer.filing_id, 15_000);
    expect(event.type).toBe("filing.accepted");
    filings[name] = { id: answer.filing_id, event };
  }
  await waitFor(
    async () =>
      (await pdfsOf(filings.single.id)) === 1 && (await pdfsOf(filings.split.id)) === 2 && (await pdfsOf(filings.accounts.id)) === 1,
    {
      timeoutMs: 15_000,
      intervalMs: 50,
      what: "the PDFs rendered on filing.accepted",
    },
  );
}, 90_000);
afterAll(async () => {
  await h?.teardown();
});

describe("rendered on acceptance", () => {
  it("renders every PDF from the filing.accepted event, before any read, and lists them with the documents as filed", async () => {
    expect(await renderedBy("event")).toBe(4);
    expect(await renderedBy("request")).toBe(0);
    const list = await h.peer.rpcCall(FILING_RPC_QUEUE, "filing.list_documents", { caller, filing_id: filings.split.id });
    expect(list.documents.map((d) => [d.type, d.name])).toEqual([
      ["ct600_pdf", `${filings.split.id}-ct600-part1.pdf`],
      ["ct600_pdf", `${filings.split.id}-ct600-part2.pdf`],
      ["ct600_xml", `${filings.split.id}-ct600-part1.xml`],
      ["ct600_xml", `${filings.split.id}-ct600-part2.xml`],
    ]);
    for (const document of list.documents) {
      expect(document.size_bytes).toBe((await download(filings.split.id, document.type, document.name.includes("part2") ? 2 : 1)).length);
    }
  });

  it("renders nothing again when the event is redelivered or published once more", async () => {
    const before = await h.service.db.document.findMany({ where: { filingId: filings.single.id }, orderBy: { id: "asc" } });
    const consumed = async () =>
      (await h.service.metrics.getSingleMetric("bus_consumed_total")!.get()).values
        .filter((v) => v.labels.queue === "filing.documents")
        .reduce((sum, v) => sum + v.value, 0);
    const seen = await consumed();
    const { event } = filings.single;
    await h.peer.publish("filing.accepted", event.payload as never, { messageId: event.messageId });
    await h.peer.publish("filing.accepted", event.payload as never);
    await waitFor(async () => (await consumed()) >= seen + 2, { timeoutMs: 10_000, intervalMs: 50, what: "both events consumed" });
    expect(await h.service.db.document.findMany({ where: { filingId: filings.single.id }, orderBy: { id: "asc" } })).toEqual(before);
    expect(await renderedBy("event")).toBe(4);
  });
});

describe("ct600_xml: the GovTalk message as sent, password masked", () => {
  it("validates against the tax authority's CT600 schema and its IRmark recomputes, for both returns of a split period", async () => {
    // govtalk validates with its copy of the authority's schema: the very file in shared/testdata.
    expect(readFileSync(CT600_XSD_URL)).toEqual(readFileSync(path.resolve(repoRoot, "../shared/testdata/hmrc/CT-2014-v1-994.xsd")));
    const received = h.sim.context.received.list({ target: "tax", kind: "submit" });
    for (const [filingId, part] of [
      [filings.single.id, 1],
      [filings.split.id, 1],
      [filings.split.id, 2],
    ] as const) {
      const xml = (await download(filingId, "ct600_xml", part)).toString("utf8");
      expect(await validateCt600Body(xml)).toEqual({ valid: true, errors: [] });
      const irmark = computeIRmark(xml);
      expect(declaredIRmark(xml)).toBe(irmark.base64);
      const stored = await h.service.db.filingPart.findUniqueOrThrow({ where: { filingId_partNumber: { filingId, partNumber: part } } });
      expect(stored.irmark).toBe(irmark.base64);
      // The authority computed the same IRmark over the body it received, and its receipt quotes it.
      expect(received.filter((r) => r.correlationId === stored.taxCorrelationId).map((r) => r.irmark)).toContain(irmark.base64);
      expect(stored.taxIruNumber).toBe(irmark.base32);
      expect(xml).toContain(`<Value>${PASSWORD_MASK}</Value>`);
      expect(xml).not.toContain(PASSWORD);
    }
    const part2 = (await download(filings.split.id, "ct600_xml", 2)).toString("utf8");
    expect(part2).toContain("<From>2026-05-12</From>");
    expect(part2).toContain("<To>2026-10-31</To>");
  });
});

describe("ct600_pdf", () => {
  it("shows the return as filed and the authority's receipt", async () => {
    const part = await h.service.db.filingPart.findUniqueOrThrow({
      where: { filingId_partNumber: { filingId: filings.single.id, partNumber: 1 } },
    });
    const pdf = await readPdf(await download(filings.single.id, "ct600_pdf"));
    expect(pdf.pages).toHaveLength(2);
    for (const text of [
      "LOVELACE ENGINES LIMITED",
      "00000001",
      "1234567890",
      "from 1 April 2025 to 31 March 2026",
      "Augusta Ada Lovelace",
      "Director",
      "Accepted by HMRC on",
      "0.00",
    ]) {
      expect(pdf.pages[0]).toContain(text);
    }
    expect(pdf.pages[1]).toContain(part.irmark);
    expect(pdf.pages[1]).toContain(part.taxIruNumber);
    expect(pdf.pages[1]).toContain(part.taxCorrelationId);
    expect(part.taxReceiptMessage).toBeTruthy();
    expect(pdf.pages[1]).toContain(part.taxReceiptMessage!.replace(/\s+/g, " ").trim());
  });

  it("is one per return of a split period, each saying which part it is", async () => {
    const part2 = await readPdf(await download(filings.split.id, "ct600_pdf", 2));
    expect(part2.pages).toHaveLength(2);
    expect(part2.pages[0]).toContain("Part 2 of 2");
    expect(part2.pages[0]).toContain("from 12 May 2026 to 31 October 2026");
    expect(part2.pages[0]).toContain("00000005");
    expect((await readPdf(await download(filings.split.id, "ct600_pdf"))).pages[0]).toContain("Part 1 of 2");
  });
});

describe("accounts", () => {
  it("ixbrl_accounts: the iXBRL as filed, rendered from the stored facts, every fact bound to a declared context and unit", async () => {
    const xml = (await download(filings.accounts.id, "ixbrl_accounts")).toString("utf8");
    const row = await h.service.db.filing.findUniqueOrThrow({ where: { id: filings.accounts.id } });
    expect(renderDormantAccountsIxbrl(row.accountsInput as unknown as DormantAccountsInput)).toBe(xml);
    expect(checkIxbrlConsistency(xml).problems).toEqual([]);
    const reading = readIxbrl(xml);
    expect(reading.problems).toEqual([]);
    expect(reading.facts.length).toBeGreaterThan(10);
    const contexts = new Set(reading.contexts.map((c) => c.id));
    const units = new Set(reading.units.map((u) => u.id));
    for (const fact of reading.facts) {
      expect(contexts.has(fact.contextRef!), `${fact.name} context`).toBe(true);
      if (fact.kind === "nonFraction") expect(units.has(fact.unitRef!), `${fact.name} unit`).toBe(true);
    }
  });

  it("accounts_pdf: cover, balance sheet with statements and approval, notes", async () => {
    const pdf = await readPdf(await download(filings.accounts.id, "accounts_pdf"));
    expect(pdf.pages).toHaveLength(3);
    expect(pdf.pages[0]).toContain("LOVELACE ENGINES LIMITED");
    expect(pdf.pages[0]).toContain("Registered number 00000001");
    expect(pdf.pages[1]).toContain("section 480");
    expect(pdf.pages[1]).toContain("Augusta Ada Lovelace");
    expect(pdf.pages[1]).toContain("1 May 2026");
    expect(pdf.pages[2]).toContain("dormant");
  });
});
