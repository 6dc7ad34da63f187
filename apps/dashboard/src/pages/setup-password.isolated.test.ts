import request from "supertest";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { hashPassword } from "../auth/password.ts";
import { createSetupToken } from "../db/setup-tokens.ts";
import { insertUser } from "../db/users.ts";
import { csrfOf, createTestDashboard, type TestDashboard } from "../test-support/test-dashboard.ts";

// Counts the scrypt hashes the set-password page asks for (the real function still runs).
vi.mock("../auth/password.ts", async (importOriginal) => {
  const actual = await importOriginal<typeof import("../auth/password.ts")>();
  return { ...actual, hashPassword: vi.fn(actual.hashPassword) };
});

describe("/setup-password: the token is checked before any password hashing, and attempts are limited per address", () => {
  let dash: TestDashboard;
  beforeAll(async () => {
    dash = await createTestDashboard("setup_pw");
  });
  afterAll(async () => {
    await dash?.close();
  });

  /** A session and its CSRF token (from the sign-in page, which has a form). */
  async function formSession() {
    const agent = request.agent(dash.app);
    const page = await agent.get("/signin");
    return { agent, csrf: csrfOf(page.text) };
  }

  it("hashes nothing for an unknown, used or expired token", async () => {
    const account = dash.gateway.addAccount("Link Ltd", false);
    const user = await insertUser(dash.db, { email: "link@example.com", passwordHash: null, accountId: account.account_id });
    const { token } = await createSetupToken(dash.db, user?.id ?? "");
    const { agent, csrf } = await formSession();
    vi.mocked(hashPassword).mockClear();

    const unknown = await agent
      .post("/setup-password")
      .type("form")
      .send({ _csrf: csrf, token: "u".repeat(43), password: "a long enough password" });
    expect(unknown.status).toBe(410);
    expect(vi.mocked(hashPassword)).not.toHaveBeenCalled();

    const used = await agent.post("/setup-password").type("form").send({ _csrf: csrf, token, password: "a long enough password" });
    expect(used.status).toBe(303);
    expect(vi.mocked(hashPassword)).toHaveBeenCalledTimes(1);

    // The token is spent: no second hash for it.
    const { agent: other, csrf: otherCsrf } = await formSession();
    const again = await other.post("/setup-password").type("form").send({ _csrf: otherCsrf, token, password: "another long password" });
    expect(again.status).toBe(410);
    expect(vi.mocked(hashPassword)).toHaveBeenCalledTimes(1);
  });
});
