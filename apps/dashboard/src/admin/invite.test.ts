import { hashToken } from "../auth/tokens.ts";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { csrfOf, createTestDashboard, sessionCookieOf, type TestDashboard } from "../test-support/test-dashboard.ts";
import { runDashboardAdminCli } from "./cli-commands.ts";

describe("admin dashboard-invite and /setup-password (one-time link)", () => {
  let dash: TestDashboard;
  const run = async (argv: string[]) => {
    let stdout = "";
    let stderr = "";
    const code = await runDashboardAdminCli(
      argv,
      {
        DASHBOARD_DATABASE_URL: dash.databaseUrl,
        AMQP_URL: dash.amqpUrl,
        DASHBOARD_PUBLIC_URL: "https://dashboard.example.com/",
        LOG_LEVEL: "silent",
      },
      {
        stdout: {
          write: (chunk: string) => {
            stdout += chunk;
            return true;
          },
        },
        stderr: {
          write: (chunk: string) => {
            stderr += chunk;
            return true;
          },
        },
      },
    );
    return { code, stdout, stderr };
  };
  const tokenOf = (url: string) => new URL(url).searchParams.get("token") ?? "";

  beforeAll(async () => {
    dash = await createTestDashboard("invite");
  });
  afterAll(async () => {
    await dash?.close();
  });

  it("prints a one-time link; the password set through it signs in; the link then refuses", async () => {
    const account = dash.gateway.addAccount("Operator Made Ltd", true);
    const { code, stdout } = await run(["dashboard-invite", "--account", account.account_id, "--email", "Owner@Example.com"]);
    expect(code).toBe(0);
    const invitation = JSON.parse(stdout);
    expect(invitation).toMatchObject({
      account_id: account.account_id,
      email: "owner@example.com",
      user_id: expect.stringMatching(/^usr_/),
    });
    expect(invitation.url).toMatch(/^https:\/\/dashboard\.example\.com\/setup-password\?token=[A-Za-z0-9_-]{43}$/);
    const token = tokenOf(invitation.url);
    expect(Date.parse(invitation.expires_at) - Date.now()).toBeGreaterThan(23.9 * 3600 * 1000);
    const stored = await dash.db.prisma.passwordSetupToken.findMany({ where: { userId: invitation.user_id } });
    expect(stored.map((row) => row.tokenHash)).toEqual([hashToken(token)]);

    const agent = request.agent(dash.app);
    const form = await agent.get(`/setup-password?token=${token}`);
    expect(form.status).toBe(200);
    expect(form.text).toContain("<h1>Set your password</h1>");
    expect(form.text).toContain('<label for="password">Password</label>');
    expect(form.text).toContain('<button type="submit">Set password</button>');
    const tooShort = await agent
      .post("/setup-password")
      .type("form")
      .send({ _csrf: csrfOf(form.text), token, password: "short" });
    expect(tooShort.status).toBe(422);
    expect(tooShort.text).toContain("Password must be at least 12 characters.");
    const set = await agent
      .post("/setup-password")
      .type("form")
      .send({ _csrf: csrfOf(form.text), token, password: "operator chosen pw" });
    expect(set.status).toBe(303);
    expect(set.headers.location).toBe("/account");
    expect(sessionCookieOf(set)).toBeDefined();
    const page = await agent.get("/account");
    expect(page.text).toContain("Operator Made Ltd");
    expect(page.text).toContain(account.account_id);

    // Single use: the same link refuses, on GET and on POST.
    const again = request.agent(dash.app);
    const reused = await again.get(`/setup-password?token=${token}`);
    expect(reused.status).toBe(410);
    expect(reused.text).toContain("This link cannot be used");
    const signin = await again.get("/signin");
    const repost = await again
      .post("/setup-password")
      .type("form")
      .send({ _csrf: csrfOf(signin.text), token, password: "attacker password" });
    expect(repost.status).toBe(410);

    // The password works on the sign-in page.
    const signedIn = await again
      .post("/signin")
      .type("form")
      .send({ _csrf: csrfOf(signin.text), email: "owner@example.com", password: "operator chosen pw" });
    expect(signedIn.status).toBe(303);
  });

  it("refuses an expired link (24 hours)", async () => {
    const account = dash.gateway.addAccount("Late Ltd", true);
    const { stdout } = await run(["dashboard-invite", "--account", account.account_id, "--email", "late@example.com"]);
    const token = tokenOf(JSON.parse(stdout).url);
    await dash.db.pool.query("UPDATE password_setup_tokens SET expires_at = now() - interval '1 second' WHERE token_hash = $1", [
      hashToken(token),
    ]);
    const agent = request.agent(dash.app);
    expect((await agent.get(`/setup-password?token=${token}`)).status).toBe(410);
    const signin = await agent.get("/signin");
    const post = await agent
      .post("/setup-password")
      .type("form")
      .send({ _csrf: csrfOf(signin.text), token, password: "a long password" });
    expect(post.status).toBe(410);
    const user = await dash.db.prisma.user.findUniqueOrThrow({ where: { email: "late@example.com" } });
    expect(user.passwordHash).toBeNull();
  });

  it("refuses an unknown account, an email of another account and bad arguments", async () => {
    const unknown = await run(["dashboard-invite", "--account", "acc_doesnotexist", "--email", "x@example.com"]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain("no account acc_doesnotexist");
    expect(unknown.stdout).toBe("");

    const first = dash.gateway.addAccount("First Ltd");
    const second = dash.gateway.addAccount("Second Ltd");
    expect((await run(["dashboard-invite", "--account", first.account_id, "--email", "shared@example.com"])).code).toBe(0);
    const other = await run(["dashboard-invite", "--account", second.account_id, "--email", "shared@example.com"]);
    expect(other.code).toBe(1);
    expect(other.stderr).toContain("already signs in to another account");

    expect((await run(["dashboard-invite", "--account", first.account_id])).code).toBe(2);
    expect((await run(["dashboard-invite", "--email", "a@example.com"])).code).toBe(2);
    expect((await run(["dashboard-invite", "--account", first.account_id, "--email", "a@example.com", "--extra"])).code).toBe(2);
  });

  it("is found by the root admin CLI's discovery (package.json dormant.admin)", async () => {
    const { adminCli } = await import("./cli-commands.ts");
    expect(adminCli.commands).toContain("dashboard-invite");
    expect(adminCli.usage).toMatch(/^usage:\n {2}admin dashboard-invite --account ACCOUNT_ID --email EMAIL$/);
  });
});
