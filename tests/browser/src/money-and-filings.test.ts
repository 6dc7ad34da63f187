// The account dashboard's money and filings (issue 16) in Debian's Chromium against the whole
// system: sign up, enable API access, a live key; top up £20 through the payment provider's
// checkout (the simulator's stand-in, which sends billing the signed payment webhook) and see the
// balance and the ledger change; file dormant accounts with the live key through the API with the
// real curl; see the filing in the Filings list, watch it become accepted on its page (its status
// history ending with the acceptance), download its PDF; the fee taken on the Money page. axe-core
// and the phone check on Money, the Filings list and the filing's page; the README's screenshots of
// them (docs/screenshots).
import { execFile } from "node:child_process";
import { randomBytes, randomUUID } from "node:crypto";
import { readFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import type { Page } from "playwright-core";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ReceivedWebhook, WebhookListener } from "@dormant/system-tests/webhook-listener";
import { expectAccessible, expectFitsPhone, type SharedSystem, screenshot, sharedSystem, useBrowser } from "./harness/index.ts";

const run = promisify(execFile);

// The browser project's one system, shared with the other files (each with agents of its own).
let system: SharedSystem;
/** The agent's own endpoint, added on the Webhooks page: the accepted filing's event arrives here. */
let listener: WebhookListener;
beforeAll(async () => {
  listener = await WebhookListener.start();
  system = await sharedSystem();
}, 300_000); // the first file to ask starts it: seven apps and the dashboard, minutes on a busy two-core machine
afterAll(async () => {
  await listener?.close();
});

function dashboardUrl(): string {
  if (!system?.dashboardUrl) throw new Error("the system did not start with its dashboard (see beforeAll's error)");
  return system.dashboardUrl;
}

// "Top up" takes the agent to the payment provider's checkout: here the simulator's stand-in, the
// one other place the browser may go.
const browser = useBrowser(() => new URL(dashboardUrl()).origin, {
  alsoAllowed: () => (system ? [`${system.simBaseUrl}/payment-provider/`] : []),
});

async function waitForPath(page: Page, path: string): Promise<void> {
  await page.waitForURL((url) => url.pathname === path);
}

const h1 = (page: Page): Promise<string | null> => page.getByRole("heading", { level: 1 }).textContent();

/** Reloads the page until `check` holds, at most `timeoutMs`; the last value when it never does. */
async function reloadUntil(page: Page, what: string, check: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return;
    if (Date.now() > deadline) throw new Error(`${page.url()}: ${what} not seen within ${timeoutMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 500));
    await page.reload();
  }
}

/** The real curl binary: POST a JSON body to the gateway's API with the key; status and body. */
async function curlPost(path: string, apiKey: string, body: unknown, idempotencyKey: string): Promise<{ status: number; body: string }> {
  const { stdout } = await run(
    "curl",
    [
      "--silent",
      "--show-error",
      "--max-time",
      "30",
      "--request",
      "POST",
      "--header",
      `X-API-Key: ${apiKey}`,
      "--header",
      "Content-Type: application/json",
      "--header",
      `Idempotency-Key: ${idempotencyKey}`,
      "--data",
      JSON.stringify(body),
      "--write-out",
      "\n%{http_code}",
      `${system.gatewayUrl}/api/v1${path}`,
    ],
    { timeout: 35_000 },
  );
  const end = stdout.lastIndexOf("\n");
  return { status: Number(stdout.slice(end + 1)), body: stdout.slice(0, end) };
}

/** Verifies a delivery with the endpoint's signing secret as an agent would (Standard Webhooks); the event. */
function verified(secret: string, hook: ReceivedWebhook): { type: string; data: { filing_id: string; status: string } } {
  const headers = {
    "webhook-id": String(hook.headers["webhook-id"]),
    "webhook-timestamp": String(hook.headers["webhook-timestamp"]),
    "webhook-signature": String(hook.headers["webhook-signature"]),
  };
  return new Webhook(secret).verify(hook.body, headers) as { type: string; data: { filing_id: string; status: string } };
}

/** Dormant accounts of the simulator's 00000001 (England/Wales), the next period after its registry records: accepted. */
const ACCOUNTS_FILING = { company_number: "00000001", period_end: "2026-03-31", credentials: { company_auth_code: "A1B2C3" } };

describe("money and filings in the dashboard", () => {
  it("tops up £20 through the checkout, files with a live key, sees it accepted, downloads the PDF and the fee taken", async () => {
    const { page } = browser;
    const nav = page.getByRole("navigation", { name: "Main" });

    // Sign up, enable API access, create a live key (its secret shown once).
    await page.goto(`${dashboardUrl()}/signup`);
    await page.getByLabel("Agency name").fill("Riverside Company Secretaries Ltd");
    await page.getByLabel("Email").fill("desk@riverside-secretaries.example");
    await page.getByLabel("Password").fill(`pw-${randomBytes(12).toString("base64url")}`);
    await page.getByRole("button", { name: "Create account" }).click();
    await waitForPath(page, "/account");
    await nav.getByRole("link", { name: "API access", exact: true }).click();
    await waitForPath(page, "/api-access");
    await page.getByRole("button", { name: "Enable API access" }).click();
    await page.getByLabel("Key name").fill("practice system");
    await page.getByLabel("Mode").selectOption({ label: "Live" });
    await page.getByRole("button", { name: "Create key" }).click();
    const secretBox = page.locator("#new-key-secret");
    await secretBox.waitFor();
    const liveKey = ((await secretBox.textContent()) ?? "").trim();
    expect(liveKey).toMatch(/^api_live_\S+$/);

    // Money: nothing yet.
    await nav.getByRole("link", { name: "Money", exact: true }).click();
    await waitForPath(page, "/money");
    await expect(h1(page)).resolves.toBe("Money");
    await expect(page.locator("#balance").textContent()).resolves.toBe("£0.00");
    await expect(page.locator("#available").textContent()).resolves.toBe("£0.00");
    await page.locator("#ledger-empty").waitFor();
    await expectAccessible(page, "Money page, empty");
    await expectFitsPhone(page, "Money page, empty");

    // Top up £20: the provider's checkout (the simulator's stand-in), Pay, and back on the dashboard.
    const topUpStarted = Date.now();
    await page.getByLabel("Amount (£)").fill("20");
    await page.getByRole("button", { name: "Top up" }).click();
    await page.waitForURL((url) => url.href.startsWith(`${system.simBaseUrl}/payment-provider/checkout/`));
    await expect(h1(page)).resolves.toBe("Top up your balance");
    await screenshot(page, "checkout");
    await page.getByRole("button", { name: "Pay £20.00" }).click();
    await waitForPath(page, "/money");
    expect(new URL(page.url()).searchParams.get("top_up")).toBe("success");
    await page.locator("#top-up-status").waitFor();
    // The stand-in tells billing before sending the agent back; a reload or two at most.
    await reloadUntil(page, "the balance of £20.00", async () => (await page.locator("#balance").textContent()) === "£20.00", 20_000);
    const topUpMs = Date.now() - topUpStarted;
    await expect(page.locator("#available").textContent()).resolves.toBe("£20.00");
    const topUpRow = page.getByRole("row").filter({ hasText: "Top-up" });
    await expect(topUpRow.count()).resolves.toBe(1);
    await expect(topUpRow.getByRole("cell").nth(2).textContent()).resolves.toBe("£20.00");
    await expectAccessible(page, "Money page after the top-up");

    // Webhooks: a live endpoint for the agent's own listener; its signing secret shown once.
    await nav.getByRole("link", { name: "Webhooks", exact: true }).click();
    await waitForPath(page, "/webhooks");
    await expect(h1(page)).resolves.toBe("Webhooks");
    await page.getByLabel("Endpoint URL").fill(listener.url);
    await page.getByRole("button", { name: "Add endpoint" }).click();
    const signingSecret = (await page.getByLabel("Signing secret").inputValue()).trim();
    expect(signingSecret).toMatch(/^whsec_\S+$/);
    await expect(page.getByRole("row").filter({ hasText: listener.url }).count()).resolves.toBe(1);
    await expectAccessible(page, "Webhooks page with the new endpoint");
    await expectFitsPhone(page, "Webhooks page with the new endpoint");
    await screenshot(page, "webhooks", { phone: true });

    // File dormant accounts with the live key, through the API, with curl: the £20 fee is held.
    const submitted = await curlPost("/filings/accounts", liveKey, ACCOUNTS_FILING, randomUUID());
    expect(submitted, submitted.body).toMatchObject({ status: 202 });
    const filingId = (JSON.parse(submitted.body) as { data: { filing_id: string; status: string } }).data.filing_id;
    expect(filingId).toMatch(/\S/);
    const filedAt = Date.now();

    // The Filings list shows it; open it.
    await nav.getByRole("link", { name: "Filings", exact: true }).click();
    await waitForPath(page, "/filings");
    await expect(h1(page)).resolves.toBe("Filings");
    const filingLink = page.getByRole("link", { name: filingId, exact: true });
    await expect(filingLink.count()).resolves.toBe(1);
    const filingRow = page.getByRole("row").filter({ has: filingLink });
    await expect(filingRow.textContent()).resolves.toMatch(/Accounts.*00000001/);
    await expectAccessible(page, "Filings list");
    await expectFitsPhone(page, "Filings list");
    await filingLink.click();
    await waitForPath(page, `/filings/${filingId}`);

    // Its page: accepted within a minute (the simulator's fast timing), then its documents (rendered after acceptance).
    const status = page.locator("#status");
    await reloadUntil(page, "the status Accepted", async () => (await status.textContent()) === "Accepted", 60_000);
    const acceptedMs = Date.now() - filedAt;
    // Its Status history (read with the filing): the registry's acceptance, then the filing's, last.
    await expect(page.getByRole("heading", { level: 2, name: "Status history" }).count()).resolves.toBe(1);
    const history = page.getByRole("table", { name: "Every change of this filing's status, oldest first" });
    const historyRows = history.getByRole("row").filter({ has: page.getByRole("cell") });
    const rowCount = await historyRows.count();
    const cellsOf = async (index: number) =>
      (
        await historyRows
          .nth(index < 0 ? rowCount + index : index)
          .getByRole("cell")
          .allTextContents()
      ).slice(1);
    await expect(cellsOf(0)).resolves.toEqual(["Filing", "—", "Waiting to be sent"]);
    await expect(cellsOf(-1)).resolves.toEqual(["Filing", "Sent, waiting for the authority", "Accepted"]);
    await expect(cellsOf(-2)).resolves.toEqual(["Registry", expect.any(String), "Accepted"]);
    // The agent's endpoint got the event, signed with the secret the page showed.
    await expect.poll(() => listener.ofType("filing.accepted", filingId).length, { timeout: 30_000 }).toBe(1);
    const event = verified(signingSecret, listener.ofType("filing.accepted", filingId)[0]!);
    expect(event).toMatchObject({ type: "filing.accepted", data: { filing_id: filingId, status: "accepted" } });
    const pdfLink = page.getByRole("link", { name: "Accounts PDF" });
    await reloadUntil(page, 'the "Accounts PDF" link', async () => (await pdfLink.count()) === 1, 60_000);
    const documentsMs = Date.now() - filedAt;
    await expect(pdfLink.getAttribute("href")).resolves.toBe(`/filings/${encodeURIComponent(filingId)}/documents/accounts_pdf`);
    await expectAccessible(page, "filing page, accepted, with its documents");
    await expectFitsPhone(page, "filing page, accepted, with its documents");
    await screenshot(page, "filing", { phone: true });

    // The PDF: a download, a real PDF of a sensible size.
    const [download] = await Promise.all([page.waitForEvent("download"), pdfLink.click()]);
    expect(await download.failure()).toBeNull();
    const pdfPath = join(tmpdir(), `dormant-browser-${filingId}.pdf`);
    await download.saveAs(pdfPath);
    expect(download.suggestedFilename()).toMatch(/\.pdf$/);
    const pdf = readFileSync(pdfPath);
    expect(pdf.subarray(0, 5).toString("latin1")).toBe("%PDF-");
    expect(statSync(pdfPath).size).toBeGreaterThan(1_000);
    expect(statSync(pdfPath).size).toBeLessThan(5_000_000);

    // The Filings list again, now accepted, for the README.
    await nav.getByRole("link", { name: "Filings", exact: true }).click();
    await waitForPath(page, "/filings");
    await expect(
      page
        .getByRole("row")
        .filter({ has: page.getByRole("link", { name: filingId, exact: true }) })
        .textContent(),
    ).resolves.toMatch(/Accepted/);
    await screenshot(page, "filings", { phone: true });

    // Money: the fee taken (capture after acceptance), nothing held, the balance spent.
    await nav.getByRole("link", { name: "Money", exact: true }).click();
    await waitForPath(page, "/money");
    await reloadUntil(
      page,
      "the fee taken",
      async () => (await page.getByRole("row").filter({ hasText: "Fee taken" }).count()) === 1,
      20_000,
    );
    const feeRow = page.getByRole("row").filter({ hasText: `Fee taken for filing ${filingId}` });
    await expect(feeRow.getByRole("cell").nth(2).textContent()).resolves.toBe("£20.00");
    await expect(page.locator("#balance").textContent()).resolves.toBe("£0.00");
    await expect(page.locator("#held").textContent()).resolves.toBe("£0.00");
    await expect(
      page
        .getByRole("row")
        .filter({ hasText: `Fee held for filing ${filingId}` })
        .count(),
    ).resolves.toBe(1);
    await expectAccessible(page, "Money page with the fee taken");
    await expectFitsPhone(page, "Money page with the fee taken");
    await screenshot(page, "money", { phone: true });

    console.info(
      `money-and-filings: balance £20.00 shown ${topUpMs} ms after "Top up"; filing accepted on its page ${acceptedMs} ms and its PDF listed ${documentsMs} ms after the submit`,
    );
    expect(await system.crashReport()).toBe("");
  });
});
