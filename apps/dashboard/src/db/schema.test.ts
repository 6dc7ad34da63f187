import { createTestDatabase, type TestDatabase } from "@dormant/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashToken } from "../auth/tokens.ts";
import { closeDashboardDb, createDashboardDb, type DashboardDb } from "./client.ts";
import { migrateDashboardDatabase } from "./migrations.ts";
import { createSetupToken, setupTokenIsUsable, useSetupToken } from "./setup-tokens.ts";
import { insertUser } from "./users.ts";

// The hand-written migration and prisma/schema.prisma agree (written and read back through the
// generated client on a database migrated from empty), and the rules only the SQL carries.
describe("dashboard database schema", () => {
  let database: TestDatabase;
  let db: DashboardDb;
  beforeAll(async () => {
    database = await createTestDatabase({ label: "dash_schema" });
    expect(await migrateDashboardDatabase(database.url)).toEqual(["20261128010000_dashboard_users"]);
    expect(await migrateDashboardDatabase(database.url)).toEqual([]);
    db = createDashboardDb(database.url);
  });
  afterAll(async () => {
    if (db) await closeDashboardDb(db);
    await database?.drop();
  });

  it("writes and reads users and setup tokens through the Prisma client", async () => {
    const user = await db.prisma.user.create({ data: { id: "usr_schema1", email: "a@example.com", accountId: "acc_schema1" } });
    const token = await createSetupToken(db, user.id);
    const rows = await db.prisma.passwordSetupToken.findMany({ where: { userId: user.id }, include: { user: true } });
    expect(rows).toEqual([
      expect.objectContaining({
        tokenHash: hashToken(token.token),
        usedAt: null,
        user: expect.objectContaining({ email: "a@example.com" }),
      }),
    ]);
  });

  it("keeps emails normalised and unique, account ids and token hashes well-formed", async () => {
    await expect(db.pool.query("INSERT INTO users (id, email, account_id) VALUES ('usr_x', 'Upper@Example.com', 'acc_1')")).rejects.toThrow(
      /users_email_normalised_check/,
    );
    await expect(db.pool.query("INSERT INTO users (id, email, account_id) VALUES ('usr_y', 'b@example.com', 'nope')")).rejects.toThrow(
      /users_account_id_check/,
    );
    await expect(insertUser(db, { email: " A@EXAMPLE.COM ", passwordHash: null, accountId: "acc_other" })).resolves.toBeNull();
    await expect(
      db.pool.query("INSERT INTO password_setup_tokens (token_hash, user_id, expires_at) VALUES ('plain-token', 'usr_schema1', now())"),
    ).rejects.toThrow(/password_setup_tokens_hash_check/);
  });

  it("uses a token once, even for two submits at the same time", async () => {
    const user = await insertUser(db, { email: "race@example.com", passwordHash: null, accountId: "acc_race" });
    const { token } = await createSetupToken(db, user!.id);
    await expect(setupTokenIsUsable(db, token)).resolves.toBe(true);
    const results = await Promise.all([useSetupToken(db, token, "scrypt$1"), useSetupToken(db, token, "scrypt$2")]);
    expect(results.filter((result) => result !== null)).toEqual([{ userId: user!.id, accountId: "acc_race" }]);
    await expect(setupTokenIsUsable(db, token)).resolves.toBe(false);
  });
});
