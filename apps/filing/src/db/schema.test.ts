import { randomUUID } from "node:crypto";
import { createTestDatabase, type TestDatabase } from "@dormant/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFilingDb, type FilingDb } from "./client.ts";
import { migrateFilingDatabase } from "./migrations.ts";

// Proves that the hand-written migration SQL and prisma/schema.prisma agree: the migrations are
// applied to an empty database (no template), then every model and column is written and read
// back through the generated client.
describe("filing database schema", () => {
  let database: TestDatabase;
  let db: FilingDb;

  beforeAll(async () => {
    database = await createTestDatabase({ label: "filing_schema" });
    await migrateFilingDatabase(database.url);
    db = createFilingDb(database.url);
  });
  afterAll(async () => {
    await db?.$disconnect();
    await database?.drop();
  });

  const filing = (id: string, overrides: Record<string, unknown> = {}) => ({
    id,
    // An account of its own: one live filing per account, type, company and period end.
    accountId: `acc_${id}`,
    keyId: "key_1",
    idempotencyKey: `idem-${id}`,
    requestFingerprint: "f".repeat(64),
    requestId: "req-1",
    filingType: "ct600" as const,
    companyNumber: "00000001",
    companyName: "LOVELACE ENGINES LIMITED",
    periodStart: new Date("2025-04-01T00:00:00Z"),
    periodEnd: new Date("2026-03-31T00:00:00Z"),
    periodSplit: false,
    status: "pending" as const,
    feePence: 2000,
    derivedValues: { company_name: "LOVELACE ENGINES LIMITED" },
    ...overrides,
  });

  it("records the migration the way Prisma does, and re-running changes nothing", async () => {
    expect(await migrateFilingDatabase(database.url)).toEqual([]);
    const rows = await db.$queryRaw<
      Array<{ migration_name: string }>
    >`SELECT migration_name FROM "_prisma_migrations" WHERE finished_at IS NOT NULL`;
    expect(rows.map((r) => r.migration_name).sort()).toEqual([
      "20261122040000_filings_outbox_inbox",
      "20261122060000_documents_rendering",
      "20261122080000_single_statement_writes",
      "20261125120000_final_filings_index",
      "20261125160000_registry_status_code",
      "20261125170000_in_doubt_resolution",
      "20261125180000_accounts_for_ct600_index",
      "20261127140000_client_reference_live_filing_unique",
      "20261127170000_accepted_late_leaves_live_index",
      "20261127180000_documents_ready",
      "20261127210000_operator_activity_index",
      "20261127220000_outbox_trace_context",
      "20261128030000_filings_account_list_index",
    ]);
  });

  it("keeps when an in-doubt pending filing may be asked about again (resolve_after)", async () => {
    const resolveAfter = new Date("2026-11-25T17:00:00.123Z");
    const created = await db.filing.create({ data: filing("fil_schema_resolve_after", { resolveAfter }) });
    expect(created.resolveAfter).toEqual(resolveAfter);
    const cleared = await db.filing.update({ where: { id: created.id }, data: { resolveAfter: null } });
    expect(cleared.resolveAfter).toBeNull();
  });

  it("stores a CT600 filing with its parts and history, and reads them back", async () => {
    const claimExpiresAt = new Date("2026-11-22T10:00:00.123Z");
    await db.filing.create({
      data: {
        ...filing("fil_schema1", { periodSplit: true }),
        claimToken: "token",
        claimExpiresAt,
        errorCode: "TAX_REJECTED",
        errorMessage: "no",
        submittedAt: claimExpiresAt,
        finalizedAt: claimExpiresAt,
        parts: {
          create: [
            {
              partNumber: 1,
              periodStart: new Date("2025-04-01"),
              periodEnd: new Date("2026-03-31"),
              taxStatus: "pending",
              submitRequest: { part_number: 1 },
            },
            {
              partNumber: 2,
              periodStart: new Date("2026-04-01"),
              periodEnd: new Date("2026-06-30"),
              taxStatus: "accepted",
              taxCorrelationId: "ABC",
              taxIruNumber: "IRU",
              irmark: "irmark",
              taxReceiptMessage: "HMRC has received the HMRC-CT-CT600 document",
              taxAcceptedAt: claimExpiresAt,
              submitRequest: { part_number: 2 },
              submittedAt: claimExpiresAt,
              errorCode: null,
              errorMessage: null,
            },
          ],
        },
        history: {
          create: [
            { field: "status", fromStatus: null, toStatus: "pending", cause: "created" },
            { partNumber: 2, field: "tax_status", toStatus: "accepted", cause: "outcome" },
          ],
        },
      },
    });
    const read = await db.filing.findUniqueOrThrow({
      where: { id: "fil_schema1" },
      include: { parts: { orderBy: { partNumber: "asc" } }, history: { orderBy: { id: "asc" } } },
    });
    expect(read.periodStart.toISOString().slice(0, 10)).toBe("2025-04-01");
    expect(read.claimExpiresAt?.toISOString()).toBe(claimExpiresAt.toISOString());
    expect(read.derivedValues).toEqual({ company_name: "LOVELACE ENGINES LIMITED" });
    expect(read.parts.map((p) => [p.partNumber, p.taxStatus, p.taxIruNumber, p.taxReceiptMessage, p.taxAcceptedAt?.toISOString()])).toEqual(
      [
        [1, "pending", null, null, undefined],
        [2, "accepted", "IRU", "HMRC has received the HMRC-CT-CT600 document", claimExpiresAt.toISOString()],
      ],
    );
    expect(read.history.map((h) => [h.partNumber, h.field, h.fromStatus, h.toStatus])).toEqual([
      [null, "status", null, "pending"],
      [2, "tax_status", null, "accepted"],
    ]);
    expect(typeof read.history[0]?.id).toBe("bigint");
  });

  it("stores an accounts filing with its registry fields and a document", async () => {
    await db.filing.create({
      data: {
        ...filing("fil_schema2", { filingType: "accounts" }),
        registryStatus: "submitted",
        registrySubmissionNumber: "00000A",
        registryRequest: { submission_number: "00000A" },
        registryStatusCode: "PARKED",
        registryStatusSince: new Date("2026-11-25T16:00:00.123Z"),
        registryExaminerComment: "Held for examination",
        accountsInput: { companyName: "LOVELACE ENGINES LIMITED", current: { cash: 10_000 } },
        documents: {
          create: {
            type: "ixbrl_accounts",
            mediaType: "application/xhtml+xml",
            fileName: "a.xhtml",
            content: Buffer.from("<html/>"),
            sizeBytes: 7,
            generatedAt: new Date(),
          },
        },
      },
    });
    const read = await db.filing.findUniqueOrThrow({ where: { id: "fil_schema2" }, include: { documents: true } });
    expect(read.registryStatus).toBe("submitted");
    expect(read).toMatchObject({
      registryStatusCode: "PARKED",
      registryStatusSince: new Date("2026-11-25T16:00:00.123Z"),
      registryExaminerComment: "Held for examination",
    });
    expect(read.accountsInput).toEqual({ companyName: "LOVELACE ENGINES LIMITED", current: { cash: 10_000 } });
    expect(Buffer.from(read.documents[0]!.content).toString()).toBe("<html/>");
    expect(read.documents[0]!.partNumber).toBeNull();
  });

  it("enforces the idempotency key per API key, submission numbers and one document per type and part", async () => {
    await db.filing.create({ data: filing("fil_schema3", { idempotencyKey: "same" }) });
    await expect(db.filing.create({ data: filing("fil_schema4", { idempotencyKey: "same" }) })).rejects.toMatchObject({ code: "P2002" });
    await db.filing.create({ data: filing("fil_schema5", { idempotencyKey: "same", keyId: "key_2" }) });
    // Released keys (null) never collide.
    await db.filing.create({ data: filing("fil_schema6", { idempotencyKey: null }) });
    await db.filing.create({ data: filing("fil_schema7", { idempotencyKey: null }) });
    await expect(db.filing.create({ data: filing("fil_schema8", { registrySubmissionNumber: "00000A" }) })).rejects.toMatchObject({
      code: "P2002",
    });

    const doc = {
      filingId: "fil_schema3",
      mediaType: "application/xml",
      fileName: "x.xml",
      content: Buffer.from("x"),
      sizeBytes: 1,
      generatedAt: new Date(),
    };
    await db.document.create({ data: { ...doc, type: "ct600_xml", partNumber: 1 } });
    await db.document.create({ data: { ...doc, type: "ct600_xml", partNumber: 2 } });
    await expect(db.document.create({ data: { ...doc, type: "ct600_xml", partNumber: 1 } })).rejects.toMatchObject({ code: "P2002" });
    await db.document.create({ data: { ...doc, type: "ixbrl_accounts", partNumber: null } });
    await expect(db.document.create({ data: { ...doc, type: "ixbrl_accounts", partNumber: null } })).rejects.toMatchObject({
      code: "P2002",
    });
  });

  it("stores document contents uncompressed out of line, so that a slice is read without the rest", async () => {
    const [column] = await db.$queryRaw<Array<{ attstorage: string }>>`
      SELECT attstorage::text AS attstorage FROM pg_attribute WHERE attrelid = 'documents'::regclass AND attname = 'content'`;
    expect(column?.attstorage).toBe("e");
  });

  it("deletes a filing's parts, history and documents with it", async () => {
    await db.filing.create({
      data: {
        ...filing("fil_schema9"),
        parts: {
          create: {
            partNumber: 1,
            periodStart: new Date("2025-04-01"),
            periodEnd: new Date("2026-03-31"),
            taxStatus: "pending",
            submitRequest: {},
          },
        },
        history: { create: { field: "status", toStatus: "pending", cause: "created" } },
        documents: {
          create: {
            type: "ct600_xml",
            partNumber: 1,
            mediaType: "application/xml",
            fileName: "x",
            content: Buffer.from("x"),
            sizeBytes: 1,
            generatedAt: new Date(),
          },
        },
      },
    });
    await db.filing.delete({ where: { id: "fil_schema9" } });
    expect(await db.filingPart.count({ where: { filingId: "fil_schema9" } })).toBe(0);
    expect(await db.statusHistory.count({ where: { filingId: "fil_schema9" } })).toBe(0);
    expect(await db.document.count({ where: { filingId: "fil_schema9" } })).toBe(0);
  });

  it("stores outbox and inbox rows, unique by message id", async () => {
    const messageId = randomUUID();
    const occurredAt = new Date("2026-11-22T01:02:03.456Z");
    const row = await db.outboxMessage.create({
      data: { messageId, type: "filing.accepted", payload: { filing_id: "fil_x" }, requestId: "req", occurredAt },
    });
    expect(row.attempts).toBe(0);
    expect(row.publishedAt).toBeNull();
    await db.outboxMessage.update({ where: { id: row.id }, data: { publishedAt: new Date(), attempts: 1, lastError: "boom" } });
    await expect(
      db.outboxMessage.create({ data: { messageId, type: "filing.accepted", payload: {}, requestId: "req", occurredAt } }),
    ).rejects.toMatchObject({ code: "P2002" });

    await db.inboxMessage.create({ data: { messageId: "m-1", type: "tax.part_outcome", filingId: "fil_x" } });
    await expect(db.inboxMessage.create({ data: { messageId: "m-1", type: "tax.part_outcome", filingId: "fil_x" } })).rejects.toMatchObject(
      { code: "P2002" },
    );
    expect((await db.inboxMessage.findUniqueOrThrow({ where: { messageId: "m-1" } })).processedAt).toBeInstanceOf(Date);
  });

  it("indexes final filings by (finalized_at, id byte by byte), and only final ones", async () => {
    const [index] = await db.$queryRaw<
      Array<{ indexdef: string }>
    >`SELECT indexdef FROM pg_indexes WHERE indexname = 'filings_finalized_at_id_idx'`;
    expect(index?.indexdef).toBe(
      'CREATE INDEX filings_finalized_at_id_idx ON public.filings USING btree (finalized_at, id COLLATE "C") WHERE (finalized_at IS NOT NULL)',
    );
  });

  it("indexes an account's filings newest first, for filing.account_list", async () => {
    const [index] = await db.$queryRaw<
      Array<{ indexdef: string }>
    >`SELECT indexdef FROM pg_indexes WHERE indexname = 'filings_account_id_created_at_id_idx'`;
    expect(index?.indexdef).toBe(
      "CREATE INDEX filings_account_id_created_at_id_idx ON public.filings USING btree (account_id, created_at DESC, id DESC)",
    );
  });

  it("allows one live (pending, submitted or accepted) filing per account, type, company and period end", async () => {
    const live = { accountId: "acc_live", keyId: "key_live" };
    await db.filing.create({ data: filing("fil_live1", { ...live, clientReference: "REF-1" }) });
    expect((await db.filing.findUniqueOrThrow({ where: { id: "fil_live1" } })).clientReference).toBe("REF-1");
    for (const status of ["pending", "submitted", "accepted"] as const) {
      await expect(db.filing.create({ data: filing(`fil_live_${status}`, { ...live, status }) })).rejects.toMatchObject({ code: "P2002" });
    }
    // Another key of the account too; another account, type, company or period end is another filing.
    await expect(db.filing.create({ data: filing("fil_live_key", { ...live, keyId: "key_other" }) })).rejects.toMatchObject({
      code: "P2002",
    });
    await db.filing.create({ data: filing("fil_live_acc", { ...live, accountId: "acc_live_other" }) });
    await db.filing.create({ data: filing("fil_live_type", { ...live, filingType: "accounts" }) });
    await db.filing.create({ data: filing("fil_live_company", { ...live, companyNumber: "00000002" }) });
    await db.filing.create({ data: filing("fil_live_period", { ...live, periodEnd: new Date("2026-03-30T00:00:00Z") }) });
    // Ended ones leave the index: rejected and error filings any number, and filing again after them.
    await db.filing.create({ data: filing("fil_live_rejected", { ...live, status: "rejected" }) });
    await db.filing.create({ data: filing("fil_live_error", { ...live, status: "error" }) });
    await db.filing.update({ where: { id: "fil_live1" }, data: { status: "rejected" } });
    await db.filing.create({ data: filing("fil_live2", live) });
  });

  it("hands out registry submission numbers from a sequence that never repeats", async () => {
    const [a] = await db.$queryRaw<Array<{ n: bigint }>>`SELECT nextval('registry_submission_number_seq') AS n`;
    const [b] = await db.$queryRaw<Array<{ n: bigint }>>`SELECT nextval('registry_submission_number_seq') AS n`;
    expect(Number(b!.n)).toBe(Number(a!.n) + 1);
  });
});
