// The account dashboard (issue 16) in Debian's Chromium against the whole system, started as the
// system tests start it plus the dashboard: sign up, enable API access, create a test key, use it
// with the real curl, revoke it and see the API refuse it, sign out and in again, a wrong password;
// sign-in by keyboard alone. axe-core on every page visited, no request outside the dashboard's
// origin, and the README's screenshots (docs/screenshots) at desktop and phone sizes.
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { promisify } from "node:util";
import type { Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { expectAccessible, expectFitsPhone, type SharedSystem, screenshot, sharedSystem, useBrowser } from "./harness/index.ts";

const run = promisify(execFile);

// The browser project's one system, shared with the other files (each with agents of its own).
let system: SharedSystem;
beforeAll(async () => {
  system = await sharedSystem();
}, 300_000); // the first file to ask starts it: seven apps and the dashboard, minutes on a busy two-core machine

function dashboardUrl(): string {
  if (!system?.dashboardUrl) throw new Error("the system did not start with its dashboard (see beforeAll's error)");
  return system.dashboardUrl;
}

const browser = useBrowser(() => new URL(dashboardUrl()).origin);

/** The page's path, e.g. "/account". */
const pathOf = (page: Page): string => new URL(page.url()).pathname;

async function waitForPath(page: Page, path: string): Promise<void> {
  await page.waitForURL((url) => url.pathname === path);
}

/** The real curl binary: GET `path` of the gateway's API with the key; status and body. */
async function curl(path: string, apiKey: string): Promise<{ status: number; body: string }> {
  const { stdout } = await run(
    "curl",
    [
      "--silent",
      "--show-error",
      "--max-time",
      "10",
      "--header",
      `X-API-Key: ${apiKey}`,
      "--write-out",
      "\n%{http_code}",
      `${system.gatewayUrl}/api/v1${path}`,
    ],
    { timeout: 15_000 },
  );
  const end = stdout.lastIndexOf("\n");
  return { status: Number(stdout.slice(end + 1)), body: stdout.slice(0, end) };
}

/** The gateway caches a verified key for a few seconds (API_KEY_CACHE_TTL_MS, default 5 s): polls until `status`, at most 20 s, and answers the last answer. */
async function curlUntil(path: string, apiKey: string, status: number): Promise<{ status: number; body: string }> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const answer = await curl(path, apiKey);
    if (answer.status === status || Date.now() > deadline) return answer;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

interface Agent {
  agency: string;
  email: string;
  password: string;
}

/** A new agency (the browser files' system is this run's own and each file's agents are its own, so plain names do: they read well in the screenshots). */
function newAgent(agency: string, email: string): Agent {
  return { agency, email, password: `pw-${randomBytes(12).toString("base64url")}` };
}

async function signUp(page: Page, agent: Agent, options: { check?: boolean } = {}): Promise<void> {
  await page.goto(`${dashboardUrl()}/signup`);
  await expect(page.getByRole("heading", { level: 1 }).textContent()).resolves.toBe("Create your account");
  if (options.check) {
    await expectAccessible(page, "sign-up page");
    await expectFitsPhone(page, "sign-up page");
    await screenshot(page, "signup", { phone: true });
  }
  await page.getByLabel("Agency name").fill(agent.agency);
  await page.getByLabel("Email").fill(agent.email);
  await page.getByLabel("Password").fill(agent.password);
  await page.getByRole("button", { name: "Create account" }).click();
  await waitForPath(page, "/account");
}

/** The account page of this agent: the heading and the agency's name. */
async function expectAccountPage(page: Page, agent: Agent): Promise<void> {
  await waitForPath(page, "/account");
  await expect(page.getByRole("heading", { level: 1 }).textContent()).resolves.toBe("Your account");
  await expect(page.getByText(agent.agency, { exact: true }).count()).resolves.toBe(1);
}

async function signOut(page: Page): Promise<void> {
  await page.getByRole("button", { name: "Sign out" }).click();
  await page.waitForURL((url) => url.pathname !== "/account" && url.pathname !== "/api-access");
  await expect(page.getByRole("button", { name: "Sign out" }).count()).resolves.toBe(0);
}

describe("the account dashboard in a browser", () => {
  it("sign up, enable API access, a test key used with curl and revoked, sign out and in again, a wrong password", async () => {
    const { page } = browser;
    const agent = newAgent("Northwind Formations Ltd", "office@northwind-formations.example");

    // Sign up: the account page greets the agency.
    await signUp(page, agent, { check: true });
    await expectAccountPage(page, agent);
    await expectAccessible(page, "account page");
    await expectFitsPhone(page, "account page");
    await screenshot(page, "account", { phone: true });

    // API access: off at first, then enabled; a test key named "curl test".
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "API access", exact: true }).click();
    await waitForPath(page, "/api-access");
    await expect(page.getByRole("heading", { level: 1 }).textContent()).resolves.toBe("API access");
    await expectAccessible(page, "API access page, off");
    await page.getByRole("button", { name: "Enable API access" }).click();
    await page.getByLabel("Key name").waitFor();
    await expectAccessible(page, "API access page, enabled");
    await page.getByLabel("Key name").fill("curl test");
    await page.getByLabel("Mode").selectOption({ label: "Test" });
    await page.getByRole("button", { name: "Create key" }).click();
    const secretBox = page.locator("#new-key-secret");
    await secretBox.waitFor();
    const secret = ((await secretBox.textContent()) ?? "").trim();
    expect(secret).toMatch(/^api_test_\S+$/);
    // "Copy" puts the secret on the clipboard (the page's own script, served by the dashboard).
    await page.context().grantPermissions(["clipboard-read", "clipboard-write"], { origin: new URL(dashboardUrl()).origin });
    await page.getByRole("button", { name: "Copy" }).click();
    await expect.poll(() => page.evaluate("navigator.clipboard.readText()")).toBe(secret);
    const row = page.getByRole("row").filter({ hasText: "curl test" });
    await expect(row.count()).resolves.toBe(1);
    await expectAccessible(page, "API access page, new key");
    await expectFitsPhone(page, "API access page, new key");
    await screenshot(page, "api-access", { phone: true });

    // The secret works: curl with it reads the account (a test key sees its own account, sandbox mode).
    const before = await curl("/account", secret);
    expect(before, before.body).toMatchObject({ status: 200 });
    expect(JSON.parse(before.body)).toMatchObject({ success: true, data: { mode: "test", currency: "GBP" } });

    // Revoked in the browser: the row says so, and once the gateway's key cache lapses the API refuses the key.
    await row.getByRole("button", { name: "Revoke" }).click();
    await expect
      .poll(async () => (await page.getByRole("row").filter({ hasText: "curl test" }).textContent()) ?? "", { timeout: 15_000 })
      .toMatch(/Revoked/);
    await expect(page.getByRole("row").filter({ hasText: "curl test" }).getByRole("button", { name: "Revoke" }).count()).resolves.toBe(0);
    await expectAccessible(page, "API access page, key revoked");
    const after = await curlUntil("/account", secret, 401);
    expect(after, after.body).toMatchObject({ status: 401 });
    expect(JSON.parse(after.body)).toMatchObject({ success: false, error: { code: "INVALID_KEY" } });

    // Sign out, then in again with the same credentials.
    await signOut(page);
    await page.goto(`${dashboardUrl()}/signin`);
    await expect(page.getByRole("heading", { level: 1 }).textContent()).resolves.toBe("Sign in");
    await expectAccessible(page, "sign-in page");
    await expectFitsPhone(page, "sign-in page");
    await screenshot(page, "signin", { phone: true });
    await page.getByLabel("Email").fill(agent.email);
    await page.getByLabel("Password").fill(agent.password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expectAccountPage(page, agent);

    // A wrong password: the message, and no session.
    await signOut(page);
    await page.goto(`${dashboardUrl()}/signin`);
    await page.getByLabel("Email").fill(agent.email);
    await page.getByLabel("Password").fill(`${agent.password}-wrong`);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByText("Email or password is wrong.").waitFor();
    expect(pathOf(page)).not.toBe("/account");
    await expectAccessible(page, "sign-in page, wrong password");
    await page.goto(`${dashboardUrl()}/account`);
    expect(pathOf(page)).not.toBe("/account");

    expect(await system.crashReport()).toBe("");
  });

  it("signs in with the keyboard alone (Tab and Enter)", async () => {
    const { page } = browser;
    const agent = newAgent("Keyboard Company Services Ltd", "desk@keyboard-services.example");
    await signUp(page, agent);
    await signOut(page);

    await page.goto(`${dashboardUrl()}/signin`);
    // The label of the focused element (empty when none): where the Tab key has got to.
    const focusedLabel = async (): Promise<string> =>
      (await page.evaluate(
        "(() => { const el = document.activeElement; return el && el.labels ? Array.from(el.labels, (l) => l.textContent.trim()).join(' ') : ''; })()",
      )) as string;
    const tabTo = async (label: string): Promise<void> => {
      for (let presses = 0; presses < 25; presses++) {
        await page.keyboard.press("Tab");
        if ((await focusedLabel()) === label) return;
      }
      throw new Error(`Tab never reached the field labelled "${label}" on ${page.url()}`);
    };
    await tabTo("Email");
    await page.keyboard.type(agent.email);
    await tabTo("Password");
    await page.keyboard.type(agent.password);
    await page.keyboard.press("Enter");
    await expectAccountPage(page, agent);
  });
});
