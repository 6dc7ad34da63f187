import { randomUUID } from "node:crypto";
import { isRetryable } from "@dormant/bus";
import { AppError } from "@dormant/contracts";
import { createLogger } from "@dormant/service-kit";
import type { TestDatabase } from "@dormant/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFilingDb, type FilingDb } from "../db/client.ts";
import { createFilingTestDatabase } from "../test-support/test-database.ts";
import { recordTaxPartSubmitted } from "../submit/record-submission.ts";
import {
  acceptSeededAccounts,
  acceptSeededPart,
  seedAccountsFiling,
  seedAccountsInput,
  seedCt600Filing,
  submitAnswer,
  type SeededFiling,
} from "../test-support/seed.ts";
import type { DocumentDeps } from "./document-deps.ts";
import { DocumentsNotReadyError, renderOnAcceptance } from "./documents-consumer.ts";
import { RenderThreadLostError } from "./pool-thread.ts";
import { RenderPool } from "./render-pool.ts";

let database: TestDatabase;
let db: FilingDb;
let deps: DocumentDeps;
let renderer: RenderPool;
let renders = 0;

async function acceptCt600(filing: SeededFiling, parts: number) {
  for (let part = 1; part <= parts; part += 1) await acceptSeededPart(db, filing, part);
}

async function acceptAccounts(filing: SeededFiling) {
  await acceptSeededAccounts(db, filing);
}

/** The outbox events of a type about a filing. */
const eventsOf = (filingId: string, type: string) =>
  db.outboxMessage.findMany({ where: { type, payload: { path: ["filing_id"], equals: filingId } } });

/** The filing's documents as rows: what a re-render must never change. */
const rows = (filingId: string) =>
  db.document.findMany({
    where: { filingId },
    orderBy: [{ type: "asc" }, { partNumber: "asc" }],
    select: { id: true, type: true, partNumber: true, sizeBytes: true, generatedAt: true },
  });

beforeAll(async () => {
  database = await createFilingTestDatabase("documents_consumer");
  db = createFilingDb(database.url);
  const logger = createLogger({ service: "filing-test", level: "silent" });
  // The service's renderer: one render thread (an input error crosses back from it as itself).
  renderer = new RenderPool({ threads: 1, logger });
  renderer.start();
  deps = {
    db,
    logger,
    now: () => new Date(),
    renderer,
    onRendered: () => {
      renders += 1;
    },
  };
});
afterAll(async () => {
  await renderer?.close();
  await db?.$disconnect();
  await database?.drop();
});

describe("rendering on filing.accepted", () => {
  it("renders a ct600_pdf per part once, and a redelivery or a second event changes nothing", async () => {
    const filing = await seedCt600Filing(db, 2);
    await acceptCt600(filing, 2);
    const messageId = randomUUID();
    const before = renders;
    expect(await renderOnAcceptance(deps, messageId, filing.id)).toBe("rendered");
    expect(renders - before).toBe(2);
    const first = await rows(filing.id);
    expect(first.map((d) => [d.type, d.partNumber])).toEqual([
      ["ct600_pdf", 1],
      ["ct600_pdf", 2],
      ["ct600_xml", 1],
      ["ct600_xml", 2],
    ]);
    expect(await db.inboxMessage.count({ where: { messageId } })).toBe(1);

    expect(await renderOnAcceptance(deps, messageId, filing.id)).toBe("duplicate");
    expect(await renderOnAcceptance(deps, randomUUID(), filing.id)).toBe("complete");
    expect(renders - before).toBe(2);
    expect(await rows(filing.id)).toEqual(first);

    // filing.documents_ready: once, whatever the redeliveries, with the filing as GET shows it.
    const ready = await eventsOf(filing.id, "filing.documents_ready");
    expect(ready).toHaveLength(1);
    expect(ready[0]!.payload).toMatchObject({
      filing_id: filing.id,
      filing: { filing_id: filing.id, status: "accepted", period_split: true },
      documents: [
        { type: "ct600_pdf", part_number: 1 },
        { type: "ct600_xml", part_number: 1 },
        { type: "ct600_pdf", part_number: 2 },
        { type: "ct600_xml", part_number: 2 },
      ],
    });
    // The acceptance itself carried the filing as GET shows it too (the webhooks' data).
    const [accepted] = await eventsOf(filing.id, "filing.accepted");
    expect(accepted!.payload).toMatchObject({
      filing: { filing_id: filing.id, status: "accepted", parts: [{ part_number: 1 }, { part_number: 2 }] },
    });
  });

  it("stores each document once when the same event is handled twice at the same time", async () => {
    const filing = await seedAccountsFiling(db);
    await acceptAccounts(filing);
    const messageId = randomUUID();
    const effects = await Promise.all([
      renderOnAcceptance(deps, messageId, filing.id),
      renderOnAcceptance(deps, messageId, filing.id),
      renderOnAcceptance(deps, randomUUID(), filing.id),
    ]);
    expect(effects).toContain("rendered");
    expect((await rows(filing.id)).map((d) => d.type)).toEqual(["ixbrl_accounts", "accounts_pdf"]);
    expect(await db.inboxMessage.count({ where: { messageId } })).toBe(1);
    const ready = await eventsOf(filing.id, "filing.documents_ready");
    expect(ready.map((event) => (event.payload as { documents: unknown }).documents)).toEqual([
      [{ type: "ixbrl_accounts" }, { type: "accounts_pdf" }],
    ]);
  });

  it("waits (retryably, without marking the message handled) for a part whose submit record has not landed", async () => {
    const filing = await seedCt600Filing(db, 1, { acknowledged: false });
    await acceptCt600(filing, 1);
    const messageId = randomUUID();
    const error = await renderOnAcceptance(deps, messageId, filing.id).then(
      () => expect.fail("rendered"),
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(DocumentsNotReadyError);
    expect(await db.inboxMessage.count({ where: { messageId } })).toBe(0);
    expect(await eventsOf(filing.id, "filing.documents_ready")).toEqual([]);
    await recordTaxPartSubmitted(db, filing.id, 1, submitAnswer(filing.correlationIds[0]!), "late");
    expect(await renderOnAcceptance(deps, messageId, filing.id)).toBe("rendered");
    expect((await rows(filing.id)).map((d) => d.type)).toEqual(["ct600_pdf", "ct600_xml"]);
  });

  it("ignores an event about a filing it does not have, or one not accepted", async () => {
    expect(await renderOnAcceptance(deps, randomUUID(), "fil_doesnotexist")).toBe("ignored");
    const pending = await seedCt600Filing(db, 1);
    expect(await renderOnAcceptance(deps, randomUUID(), pending.id)).toBe("ignored");
    expect(await db.document.count({ where: { filingId: pending.id, type: "ct600_pdf" } })).toBe(0);
  });

  it("fails retryably, storing nothing, when the render thread dies mid-render; the redelivery stores each PDF once", async () => {
    const filing = await seedCt600Filing(db, 2);
    await acceptCt600(filing, 2);
    // A thread that exits while rendering anything generated on 2099-01-01 (failing-render-worker.ts).
    const crashing = new RenderPool({
      threads: 1,
      logger: deps.logger,
      workerModule: new URL("../test-support/failing-render-worker.ts", import.meta.url),
    });
    crashing.start();
    try {
      const messageId = randomUUID();
      const dying = { ...deps, renderer: crashing, now: () => new Date("2099-01-01T00:00:00Z") };
      const error = await renderOnAcceptance(dying, messageId, filing.id).then(
        () => expect.fail("rendered"),
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(RenderThreadLostError);
      expect(isRetryable(error)).toBe(true);
      expect(await db.inboxMessage.count({ where: { messageId } })).toBe(0);
      expect(await db.document.count({ where: { filingId: filing.id, type: "ct600_pdf" } })).toBe(0);

      // The bus delivers it again later: a fresh thread renders both parts, stored once.
      expect(await renderOnAcceptance({ ...deps, renderer: crashing }, messageId, filing.id)).toBe("rendered");
      expect((await rows(filing.id)).map((d) => [d.type, d.partNumber])).toEqual([
        ["ct600_pdf", 1],
        ["ct600_pdf", 2],
        ["ct600_xml", 1],
        ["ct600_xml", 2],
      ]);
      expect(await renderOnAcceptance({ ...deps, renderer: crashing }, messageId, filing.id)).toBe("duplicate");
    } finally {
      await crashing.close();
    }
  });

  it("refuses for good (parked, not retried) stored facts that do not render", async () => {
    const filing = await seedAccountsFiling(db);
    await acceptAccounts(filing);
    // A balance sheet that does not balance (the submit path refuses it; here it is forced in).
    const facts = seedAccountsInput("00000001", "2026-03-31");
    await db.filing.update({
      where: { id: filing.id },
      data: { accountsInput: JSON.parse(JSON.stringify({ ...facts, current: { ...facts.current, cash: 1 } })) },
    });
    const error = (await renderOnAcceptance(deps, randomUUID(), filing.id).then(
      () => expect.fail("rendered"),
      (e: unknown) => e,
    )) as AppError;
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ code: "INTERNAL_ERROR", retryable: false });
    expect(isRetryable(error)).toBe(false);
  });
});
